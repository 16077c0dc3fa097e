"""Imports go one way (DESIGN.md; issue 19 item 7), read from the source with `ast`, function-level imports included:

- no import circle among `forumbot`'s modules (a package's `__init__` counts as its own module);
- `rules` and `parse` are pure: they import only `forumbot.model` (and `forumbot.errors`, a leaf of exceptions);
- the pure core (model, parse, rules, texts, markup, engine, game) imports nothing of the shell;
- `forumbot` reaches the `adapters` package only through `forumbot.forum.registry`;
- `adapters` import only the interface layer of `forumbot`, never the daemon's shell; one package per forum engine
  (issue 27 item 2), each importing only the shared HTML base (`adapters/html/`), the top's leaves and itself, and
  the HTML base importing no engine;
- the shell's packages in one order (issue 27 item 1): each module imports only its own package and those below
  it, inside functions too, so no arrow runs back up (pages never imports the cycle, config never imports pages);
- an import left inside a function says why on the line above it; no module only re-exports; no prefix family of
  modules at `forumbot`'s top level.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEAVES = {"forumbot.errors", "forumbot.exit_codes"}
PURE = ("forumbot.model", "forumbot.parse", "forumbot.rules", "forumbot.texts", "forumbot.markup",
        "forumbot.engine", "forumbot.game", "forumbot.errors", "forumbot.options")
# htmlparse (the depth-tolerant page parser) and unreadable (the skipped-post record adapters hand back) are
# interface leaves like transport: they import only model and lxml.
ADAPTERS_MAY_IMPORT = {"forumbot.forum.adapter", "forumbot.errors", "forumbot.markup", "forumbot.options",
                       "forumbot.forum.transport", "forumbot.model", "forumbot.forum.htmlparse",
                       "forumbot.forum.unreadable",
                       # the transport's parts (issue 21): the decoded page and the settings, leaves like it
                       "forumbot.forum.http_page", "forumbot.forum.transport_settings"}


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> ast.Module:
    return ast.parse(source)


def _tree(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once per text: the re-export checks read a module again for each import
    of it (thousands): parsing each time was half of this module's CPU. Keyed by the text, so a
    file a test rewrites is parsed anew. The trees are only read."""
    return _parsed(path.read_text(encoding="utf-8"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(package: str) -> dict[str, Path]:
    return {_name(p): p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts}


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every module of `known` (or of `adapters`) that `path` imports, at module level or inside a function."""
    found: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in known or node.module.split(".")[0] == "adapters":
                found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known or a.name.split(".")[0] == "adapters"}
    return found - {"forumbot"}  # `from forumbot import parse` imports forumbot.parse, not the empty package


def _graph() -> dict[str, set[str]]:
    """forumbot's import graph, each test its own copy of one reading (six tests ask; walking every module's tree
    each time was most of this module's CPU)."""
    return {module: set(deps) for module, deps in _read_graph().items()}


@functools.lru_cache(maxsize=None)
def _read_graph() -> dict[str, frozenset[str]]:
    mods = _modules("forumbot")
    return {m: frozenset(_imports(p, set(mods)) - {m}) for m, p in mods.items()}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_forumbot_has_no_import_circle():
    assert _cycles(_graph()) == []


def test_forumbot_and_adapters_together_have_no_import_circle():
    """The adapters split into parts (issue 21: htmlforum's and discourse's mixins, a profile per engine) import
    one way too; an adapters module reaching back into one that imports it would be a circle."""
    modules = {**_modules("forumbot"), **_modules("adapters")}
    graph = {m: {d for d in _imports(p, set(modules)) if d in modules} - {m} for m, p in modules.items()}
    assert "adapters.html.profile" in graph
    assert _cycles(graph) == []


def test_the_circles_issue_19_names_are_gone():
    graph = _graph()
    for module in ("forumbot.cli.commands", "forumbot.cli.common", "forumbot.cli.check", "forumbot.cli.probe",
                   "forumbot.cli.games"):  # the daemon's commands, split by what they do (issue 21)
        assert "forumbot.cli.main" not in graph[module], module  # exit codes: forumbot.exit_codes
    assert not any(_within(d, "forumbot.game") for m, deps in graph.items() if _within(m, "forumbot.engine")
                   for d in deps)  # result types: forumbot.engine.results


def test_rules_and_parse_import_only_the_model():
    graph = _graph()
    for module, deps in graph.items():
        for package in ("forumbot.rules", "forumbot.parse"):
            if _within(module, package):
                outside = {d for d in deps if not _within(d, package)} - {"forumbot.model"} - LEAVES
                assert not outside, f"{module} imports {sorted(outside)}"


def test_the_pure_core_imports_nothing_of_the_shell():
    graph = _graph()
    for module, deps in graph.items():
        if any(_within(module, p) for p in PURE):
            shell = {d for d in deps if not any(_within(d, p) for p in PURE)} - LEAVES
            assert not shell, f"{module} imports {sorted(shell)}"


def test_only_the_registry_imports_adapters():
    graph = _graph()
    importers = sorted(m for m, deps in graph.items() if any(_within(d, "adapters") for d in deps))
    assert importers == [], importers  # the registry names its modules as strings, imported on first use
    registry = (ROOT / "forumbot" / "forum" / "registry.py").read_text(encoding="utf-8")
    assert '"adapters.memory.forum"' in registry


def test_adapters_import_only_the_interface_layer_of_forumbot():
    adapters = _modules("adapters")
    forumbot = set(_modules("forumbot"))
    for module, path in adapters.items():
        used = {d for d in _imports(path, forumbot) if _within(d, "forumbot")}
        assert used <= ADAPTERS_MAY_IMPORT, f"{module} imports {sorted(used - ADAPTERS_MAY_IMPORT)}"


# adapters/ (issue 27 item 2): at the top only the leaves every engine may use; the rest are packages
ADAPTER_LEAVES = {"adapters", "adapters.dates", "adapters.detect"}
ENGINE_PACKAGES = {"phpbb", "mybb", "smf", "punbb", "mybbru", "xenforo", "vbulletin", "invision", "discourse",
                   "flaskbb", "memory"}
# an engine built over another's adapter: mybb.ru is hosted PunBB
ENGINE_BASES = {"mybbru": {"punbb"}}


def _adapter_package(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else ""


def test_adapters_are_one_package_per_engine_over_the_html_base():
    modules = _modules("adapters")
    top = {m for m, p in modules.items() if p.parent == ROOT / "adapters" and p.name != "__init__.py"}
    assert top <= ADAPTER_LEAVES, f"modules at adapters/'s top: {sorted(top - ADAPTER_LEAVES)}"
    packages = {p.parent.name for p in (ROOT / "adapters").glob("*/__init__.py")}
    assert packages == ENGINE_PACKAGES | {"html"}
    for module, path in modules.items():
        stray = _stray_adapter_imports(module, _imports(path, set(modules)))
        assert not stray, f"{module} imports {sorted(stray)}"


def _stray_adapter_imports(module: str, deps: set[str]) -> set[str]:
    """What `module` of adapters/ imports of another engine's package (or, from the HTML base, of any engine's)."""
    own = _adapter_package(module)
    allowed = {"html"} if own == "html" else {"html", own} | ENGINE_BASES.get(own, set())
    return {d for d in deps if _within(d, "adapters") and d not in ADAPTER_LEAVES and d != module
            and _adapter_package(d) not in allowed}


def test_the_adapters_layout_check_sees_an_engine_importing_another(tmp_path):
    stray = tmp_path / "m.py"
    stray.write_text("from adapters.phpbb.forum import PhpbbForum\nfrom adapters.html.dom import select\n")
    deps = _imports(stray, set())
    assert _stray_adapter_imports("adapters.smf.forum", deps) == {"adapters.phpbb.forum"}
    assert _stray_adapter_imports("adapters.html.inbox", deps) == {"adapters.phpbb.forum"}
    assert _stray_adapter_imports("adapters.phpbb.profile", deps) == set()
    assert _stray_adapter_imports("adapters.mybbru.forum", {"adapters.punbb.forum"}) == set()


def test_the_layering_check_sees_a_circle_and_a_stray_import(tmp_path):
    """The checks above can fail: a circle and a function-level import are found."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    stray = tmp_path / "m.py"
    stray.write_text("def f():\n    from adapters.memory.forum import MemoryForum\n    from forumbot.cycle.tick import tick\n")
    assert _imports(stray, {"forumbot.cycle.tick"}) == {"adapters.memory.forum", "forumbot.cycle.tick"}


# The shell's packages, lowest first (docs/architecture.md): a module may import its own package and any below.
LAYERS = (
    ("forumbot", "forumbot.errors", "forumbot.exit_codes", "forumbot.model", "forumbot.markup", "forumbot.options",
     "forumbot.localtime", "forumbot.parse", "forumbot.rules", "forumbot.texts", "forumbot.engine", "forumbot.game",
     "forumbot.names", "forumbot.disk"),  # leaves: a name that becomes a path, a full or read-only disk told
    ("forumbot.forum",),
    ("forumbot.config",),
    ("forumbot.store",),
    ("forumbot.outbox",),
    ("forumbot.pages",),
    ("forumbot.games",),
    ("forumbot.cycle",),
    ("forumbot.probe",),
    ("forumbot.replay",),
    ("forumbot.cli", "forumbot.__main__"),
)


def _layer(module: str) -> int:
    """The layer of `module`: the one whose longest prefix names it."""
    found = [(len(prefix), i) for i, prefixes in enumerate(LAYERS) for prefix in prefixes
             if module == prefix or (prefix != "forumbot" and module.startswith(prefix + "."))]
    assert found, f"{module} is in no layer: add it to LAYERS and to docs/architecture.md"
    return max(found)[1]


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} imports {d}" for m, deps in graph.items() for d in deps
                  if _within(d, "forumbot") and _layer(d) > _layer(m))


def test_issue27_the_packages_import_downward_only_inside_functions_too():
    assert _upward(_graph()) == []


def test_issue27_an_upward_import_inside_a_function_is_seen(tmp_path):
    stray = tmp_path / "dashboard.py"
    stray.write_text("def board():\n    from forumbot.cycle.reread import phase_stream\n")
    graph = {"forumbot.pages.dashboard": _imports(stray, {"forumbot.cycle.reread"})}
    assert _upward(graph) == ["forumbot.pages.dashboard imports forumbot.cycle.reread"]


def _function_imports(path: Path) -> list[int]:
    """The line of each import statement inside a function of `path`, of any module (forumbot's, a library's,
    the standard library's)."""
    found: set[int] = set()
    for function in ast.walk(_tree(path)):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found |= {n.lineno for n in ast.walk(function) if isinstance(n, (ast.Import, ast.ImportFrom))}
    return sorted(found)


def _unexplained_function_imports(path: Path) -> list[int]:
    """Lines of imports inside a function with no comment above their block of imports (the block may open with
    `try:`, for an optional extra) nor on their own line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for lineno in _function_imports(path):
        above = lineno - 2  # up over the imports (and blank lines, a `try:`) of the same block
        while above >= 0 and (lines[above].strip() in ("", ")", "try:") or lines[above].rstrip().endswith(",")
                              or lines[above].lstrip().startswith(("import ", "from "))):
            above -= 1
        if not lines[above].lstrip().startswith("#") and "#" not in lines[lineno - 1]:
            found.append(lineno)
    return found


def _shell_modules() -> dict[str, Path]:
    return {**_modules("forumbot"), **_modules("adapters")}


def test_issue27_each_import_left_inside_a_function_says_why():
    """STYLE: imports at the top; one inside a function only for start-up or an optional extra, with its reason
    (forumbot/ and adapters/, a library's import as well as forumbot's: stop 36 counted 62 in all, stop 35 95)."""
    unexplained = {f"{m}:{line}" for m, p in _shell_modules().items() for line in _unexplained_function_imports(p)}
    assert not unexplained, sorted(unexplained)


def test_issue27_the_reason_check_can_fail(tmp_path):
    bare = tmp_path / "m.py"
    bare.write_text("def f():\n    x = 1\n    from forumbot.model import Role\n\n\ndef g():\n"
                    "    # imported here: start-up\n    from forumbot.model import Role\n\n\ndef h():\n"
                    "    try:\n        import resvg_py\n    except ImportError:\n        return\n\n\ndef k():\n"
                    "    # imported here: the png extra\n    try:\n        import resvg_py\n    except ImportError:\n"
                    "        return\n")
    assert _function_imports(bare) == [3, 8, 13, 21]
    assert _unexplained_function_imports(bare) == [3, 13]


def _only_reexports(path: Path) -> bool:
    tree = _tree(path)
    own = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))
           and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
           and not (isinstance(n, ast.Assign) and [getattr(t, "id", "") for t in n.targets] == ["__all__"])]
    return any(isinstance(n, ast.ImportFrom) for n in tree.body) and not own


def test_issue27_no_module_only_re_exports(tmp_path):
    """A package's `__init__` may be its face; a module of its own defines something (lifecycle.py defined
    nothing of its 25 names)."""
    modules = {m: p for m, p in _modules("forumbot").items() if p.name != "__init__.py"}
    assert [m for m, p in modules.items() if _only_reexports(p)] == []
    face = tmp_path / "lifecycle.py"
    face.write_text('"""Game lifecycle."""\nfrom forumbot.games.stop import stop_game\n__all__ = ["stop_game"]\n')
    assert _only_reexports(face)


def test_issue27_no_prefix_family_at_forumbots_top_level():
    """`cli_*`, `config_*`, `tick_*`... became packages: the top level keeps single modules."""
    top = [p.stem for p in (ROOT / "forumbot").glob("*.py") if not p.stem.startswith("__")]
    prefixes = [name.split("_")[0] for name in top]
    assert sorted({p for p in prefixes if prefixes.count(p) > 1}) == []


def _engine_shape(root: Path) -> list[str]:
    """What issue 19 item 1 rules out in an engine package: a module over 250 lines, a mixin, a deep copy, an
    engine object's `self.s`."""
    found = []
    for path in sorted(root.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        if len(text.splitlines()) > 250:
            found.append(f"{path.name}: {len(text.splitlines())} lines")
        if any(isinstance(n, ast.ClassDef) and n.name.endswith("Mixin") for n in ast.walk(tree)):
            found.append(f"{path.name}: a mixin")
        if any(isinstance(n, ast.Attribute) and n.attr == "deepcopy" for n in ast.walk(tree)) or "deepcopy" in {
                a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}:
            found.append(f"{path.name}: deepcopy")
        if any(isinstance(n, ast.Attribute) and n.attr == "s" and isinstance(n.value, ast.Name) and n.value.id == "self"
               for n in ast.walk(tree)):
            found.append(f"{path.name}: self.s")
    return found


def test_issue19_the_engine_is_small_modules_of_functions_over_values(tmp_path):
    assert _engine_shape(ROOT / "forumbot" / "engine") == []
    (tmp_path / "old.py").write_text("import copy\nclass VotesMixin:\n    def f(self):\n"
                                     "        return copy.deepcopy(self.s)\n" + "\n" * 250)
    assert len(_engine_shape(tmp_path)) == 4  # the check can fail


def _defined(path: Path) -> set[str]:
    """The names a module binds itself at its top level (not those it imports). A module that serves names through
    a module `__getattr__` (forum/registry.py, the one door to adapters/, imports its HELPERS on first use) binds
    the string keys of its top-level tables too."""
    names: set[str] = set()
    tree = _tree(path)
    statements = list(tree.body)
    serves = any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if serves and isinstance(node.value, ast.Dict):
                names |= {k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            statements += [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                           *[s for h in getattr(node, "handlers", []) for s in h.body]]
    return names


def _source_modules(*roots: Path) -> dict[str, Path]:
    return {".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): p
            for root in roots for p in root.rglob("*.py")}


def _faces_own(module: str, path: Path) -> set[str]:
    """What a package's `__init__` (its face) may hand on: the names it binds and those it imports from its own
    package's modules. A name it imports from elsewhere (another package, a library) is not its to hand on."""
    own = _defined(path)
    for node in _tree(path).body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and _within(node.module or "", module):
            own |= {a.asname or a.name for a in node.names}
    return own


def _borrowed_names(root: Path, importers: tuple[Path, ...] = ()) -> list[str]:
    """`module: name from other` for each name a module of `root`'s package (or a file of `importers`) imports
    from a module of `root` that does not bind it but only imports it: a re-export, partial or whole. From a
    package's `__init__` (its face) a name of its own package may be imported; a name the face imported from
    elsewhere may not."""
    modules = _source_modules(root)
    files = {module: path for module, path in modules.items()}
    files |= {str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path): path
              for folder in importers for path in folder.rglob("*.py")}
    found = []
    for importer, path in sorted(files.items()):
        for node in ast.walk(_tree(path)):
            source = modules.get(node.module or "") if isinstance(node, ast.ImportFrom) and node.level == 0 else None
            if source is None:
                continue
            own = _faces_own(node.module, source) if source.name == "__init__.py" else _defined(source)
            found += [f"{importer}: {a.name} from {node.module}" for a in node.names
                      if a.name not in own and f"{node.module}.{a.name}" not in modules]
    return found


def _stray_all(root: Path) -> list[str]:
    """`module: name` for each name an `__all__` of `root`'s package lists that the module may not hand on: a
    module lists only names it binds; a package's face only those of its own package."""
    found = []
    for module, path in sorted(_source_modules(root).items()):
        own = _faces_own(module, path) if path.name == "__init__.py" else _defined(path)
        for node in _tree(path).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"]:
                listed = [e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant)]
                found += [f"{module}: {name}" for name in listed if name not in own]
    return found


def test_issue27_adapters_import_each_name_from_the_module_that_defines_it(tmp_path):
    """adapters/html/forum.py listed in `__all__` constants of its parts and `ReplyId` of the interface for the
    engines to import from it (a partial re-export): each engine imports them where they are defined."""
    assert _borrowed_names(ROOT / "adapters") == []
    package = tmp_path / "adapters"
    package.mkdir()
    (package / "base.py").write_text("from adapters.parts import LIMIT\n\n\nclass Base:\n    pass\n")
    (package / "parts.py").write_text("LIMIT = 20\n")
    (package / "engine.py").write_text("from adapters.base import LIMIT, Base\n")
    assert _borrowed_names(package) == ["adapters.engine: LIMIT from adapters.base"]


def test_issue27_forumbot_imports_each_name_from_the_module_that_defines_it():
    """cycle/inbox.py took `phase_stream` from cycle/reread.py, which imports it from store/records.py; cli/commands.py,
    config/load.py, cycle/tick.py, forum/transport.py, outbox/deliver.py and game.py listed in `__all__` names
    their parts define. Each importer in forumbot/, adapters/, tests/ and bench/ takes a name where it is bound;
    a package's face hands on only its own package's names, and no `__all__` lists another's."""
    importers = (ROOT / "tests", ROOT / "bench")
    assert _borrowed_names(ROOT / "forumbot", importers) == []
    assert [f for f in _borrowed_names(ROOT / "adapters", importers) if not f.startswith("adapters.")] == []
    assert _stray_all(ROOT / "forumbot") == []
    assert _stray_all(ROOT / "adapters") == []


def test_issue27_the_re_export_check_tells_a_face_from_a_borrower(tmp_path):
    package = tmp_path / "forumbot"
    (package / "store").mkdir(parents=True)
    (package / "store" / "__init__.py").write_text(
        "from forumbot.store.db import open_engine\nfrom forumbot.model import Role\n"
        "__all__ = [\"open_engine\", \"Role\"]\n")
    (package / "store" / "db.py").write_text("from forumbot.model import Role\n\n\ndef open_engine():\n    pass\n")
    (package / "model.py").write_text("class Role:\n    pass\n")
    (package / "door.py").write_text("HELPERS = {\"MemoryForum\": \"adapters.memory.forum\"}\n\n\n"
                                     "def __getattr__(name):\n    pass\n")
    (package / "tick.py").write_text("from forumbot.model import Role\n__all__ = [\"Role\"]\n")
    (package / "cli.py").write_text("from forumbot.store import open_engine, Role\nfrom forumbot.store.db import Role\n"
                                    "from forumbot.door import MemoryForum\n")
    assert _borrowed_names(package) == ["forumbot.cli: Role from forumbot.store", "forumbot.cli: Role from forumbot.store.db"]
    assert _stray_all(package) == ["forumbot.store: Role", "forumbot.tick: Role"]
