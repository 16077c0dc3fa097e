"""The type checker in CI (issue 27 item 5): mypy, configured in pyproject.toml's `[tool.mypy]`, passes on
`forumbot/` and `adapters/`: the pure core under strict's flags, the shell and the adapters with
check_untyped_defs, and every `# type: ignore` left names its error code and is needed (warn_unused_ignores,
ignore-without-code).

mypy runs in a subprocess with the repository's own configuration; its incremental cache lives in the
repository's `.mypy_cache` (ignored by git), so a run after an unchanged or slightly changed tree is a few
seconds. The failure message is mypy's own output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False)


def test_issue27_mypy_passes_on_forumbot_and_adapters() -> None:
    done = _mypy()
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}{done.stderr}"


def test_issue27_the_configuration_checks_what_the_issue_asks() -> None:
    """The settings themselves: a weakened configuration would let the test above pass vacuously."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert sorted(config["files"]) == ["adapters", "forumbot"]
    assert config["check_untyped_defs"] and config["warn_unused_ignores"]
    assert "ignore-without-code" in config["enable_error_code"]
    strict_flags = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
                    "disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_decorators",
                    "warn_return_any", "no_implicit_reexport", "strict_equality", "extra_checks"}
    core = {"forumbot.rules.*", "forumbot.parse.*", "forumbot.engine.*", "forumbot.model", "forumbot.options",
            "forumbot.errors", "forumbot.markup", "forumbot.localtime", "forumbot.game", "forumbot.texts",
            "forumbot.texts.*"}
    strict = [o for o in config["overrides"] if strict_flags <= {k for k, v in o.items() if v is True}]
    assert len(strict) == 1 and core <= set(strict[0]["module"])
    # only the optional extras' imports are let off (the texts are checked strictly since they compose parts)
    let_off = {m for o in config["overrides"] if o.get("ignore_errors") or o.get("ignore_missing_imports")
               for m in o["module"]}
    assert let_off == {"resvg_py", "waitress"}


def test_issue27_mypy_catches_a_type_error_in_the_strict_core(tmp_path: Path) -> None:
    """The check can fail: an untyped function and a wrong argument in a core module are both reported."""
    core = tmp_path / "forumbot" / "rules"
    core.mkdir(parents=True)
    (tmp_path / "forumbot" / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "broken.py").write_text("def untyped(x):\n    return x\n\n\ndef typed(n: int) -> int:\n"
                                    "    return n\n\n\ntyped('one')\n")
    done = _mypy("--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"),
                 str(core / "broken.py"))
    assert done.returncode == 1, done.stdout
    assert "[no-untyped-def]" in done.stdout and "[arg-type]" in done.stdout
