"""Issue 19 item 7: an adapter's optional abilities are declared once, in CAPABILITIES on its class, and the
shell asks `forumbot.forum.adapter.can` instead of probing with getattr/hasattr. A declaration must tell the truth:
every ability declared is implemented, and every optional method implemented is declared.

Issue 27 item 2: everything else the shell reads off an adapter (its escape, profile, zone, unread count, whether
it deletes read PMs, its topic ids, its thread check) is declared on AdapterBase with the value of an engine that
lacks it, so no module of forumbot but the registry probes an adapter with getattr/hasattr."""

from __future__ import annotations

import ast
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from forumbot.forum.adapter import ACCOUNTS, COOKIES, OWN_PM, REREAD, THREAD_PAGE, UNREAD_PMS, AdapterBase, can
from forumbot.forum.registry import adapter_factory

METHODS = {REREAD: ("reread_from",), ACCOUNTS: ("account_exists",),
           UNREAD_PMS: ("shows_unread_pms", "unread_pms_shown"), OWN_PM: ("find_own_pm",),
           COOKIES: ("export_cookies", "import_cookies"), THREAD_PAGE: ("thread_page",)}
ENGINES = sorted(ep.name for ep in entry_points(group="forumbot.adapters"))


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_declares_exactly_the_optional_abilities_it_implements(engine):
    cls = adapter_factory(engine)
    assert issubclass(cls, AdapterBase)
    for ability, names in METHODS.items():
        implemented = all(hasattr(cls, name) for name in names)
        assert (ability in cls.CAPABILITIES) == implemented, f"{engine}: {ability}"


def test_an_ability_implemented_but_not_declared_is_not_used():
    class Bare(AdapterBase):
        def reread_from(self, topic, post_id, ids=()):  # implemented, but not declared: not used
            return []

    assert not can(Bare(), REREAD)
    assert len(ENGINES) >= 10


ROOT = Path(__file__).resolve().parents[2]


def _class_names(path: Path, only: str | None = None) -> set[str]:
    """The names classes in `path` (or its class `only`) define: class attributes, methods, what they set on
    `self`."""
    names: set[str] = set()
    for cls in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(cls, ast.ClassDef) or only not in (None, cls.name):
            continue
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.Assign):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return names


def _adapter_names() -> set[str]:
    """What the shell could ask an adapter for: what AdapterBase declares, the optional abilities' methods, an
    adapter's own constructor, and the private names of the adapters' classes (XenForo's `_unread`)."""
    private = {n for p in (ROOT / "adapters").rglob("*.py") for n in _class_names(p) if n.startswith("_")}
    declared = _class_names(ROOT / "forumbot" / "forum" / "adapter.py", "AdapterBase")
    return declared | {n for names in METHODS.values() for n in names} | {"from_config"} | (private - {"__init__"})


def _probes(source: str, names: set[str]) -> list[str]:
    """getattr/hasattr calls in `source` that ask an adapter (or its class: the shell calls them `adapter` and
    `factory`) for anything, or anything for a name only an adapter has."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            owner = ast.unparse(node.args[0]) if node.args else ""
            asked = node.args[1] if len(node.args) > 1 else None
            name = asked.value if isinstance(asked, ast.Constant) else "?"
            if name in names or "adapter" in owner or "factory" in owner:
                found.append(f"{node.lineno}: {node.func.id}(..., {name!r})")
    return found


def test_no_module_of_forumbot_but_the_registry_probes_an_adapter():
    names = _adapter_names()
    assert {"escape", "profile", "tz", "_unread", "deletes_pms", "delete_read_pms", "topic_id"} <= names
    registry = ROOT / "forumbot" / "forum" / "registry.py"
    probes = {str(p.relative_to(ROOT)): found for p in sorted((ROOT / "forumbot").rglob("*.py")) if p != registry
              if (found := _probes(p.read_text("utf-8"), names))}
    assert probes == {}


def test_the_probe_check_sees_a_probe():
    """The check above can fail: the probes issue 27 named are found in a line that makes them."""
    names = _adapter_names()
    assert _probes("e = getattr(adapter, 'escape', None)\nhasattr(a, 'topic_id')\n", names) == [
        "1: getattr(..., 'escape')", "2: hasattr(..., 'topic_id')"]
    assert _probes("getattr(adapter, '_unread', None)", names) == ["1: getattr(..., '_unread')"]
    assert _probes("getattr(getattr(factory, 'x', None), 'y', 1)", names) == [
        "1: getattr(..., 'y')", "1: getattr(..., 'x')"]
    assert _probes("getattr(args, 'verbosity', None)", names) == []


def test_adapter_base_declares_what_an_engine_without_it_has():
    """The defaults the shell reads from an adapter that declares nothing of its own (issue 27 item 2)."""
    class Bare(AdapterBase):
        pass

    bare = Bare()
    assert bare.escape("[b]x[/b]") != "[b]x[/b]" and bare.profile is None and bare.tz is None
    assert (bare.shows_unread_pms, bare.deletes_pms, bare.delete_read_pms) == (False, False, False)
    assert bare.unread_count_seen() is None and bare.take_unreadable() == [] and bare.check_account([]) == []
    assert bare.topic_id("12") == "12" and Bare.thread_problem("12", "http://x/") is None
    assert bare.board_utc_offset() is None and Bare.config_warnings(None, 60) == []
