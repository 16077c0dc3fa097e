"""issue 11 items 9 and 12: the command line itself — --version, -v/-q, demo --json, replay --lang, help text for
every argument, and no traceback for any bad invocation of any subcommand."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from forumbot import __version__
from forumbot.cli.main import build_parser, main

TRANSCRIPTS = Path(__file__).parent.parent / "forumbot" / "examples"


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(words, parser) of every runnable subcommand, e.g. (("game", "status"), <parser>)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for sub in subs:
        for name, child in sub.choices.items():
            yield from leaves(child, path + (name,))


def positionals(parser: argparse.ArgumentParser) -> list[str]:
    return [a.dest for a in parser._actions if not a.option_strings and a.required]


LEAVES = list(leaves(build_parser()))
COMMANDS = [words for words, _ in LEAVES]


def test_every_subcommand_is_reached():
    assert {"replay", "demo", "init", "check-config", "tick", "run", "outbox"} <= {w[0] for w in COMMANDS}
    assert {("db", "upgrade"), ("game", "stop"), ("game", "export"), ("game", "status")} <= set(COMMANDS)


def _all_parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _all_parsers(child)


def test_every_argument_and_subcommand_has_help():
    """issue 11 item 12: `--help` explains each argument; nothing is listed bare."""
    for parser in _all_parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"{parser.prog} {choice.dest}: no help"
            else:
                assert action.help and action.help != argparse.SUPPRESS, f"{parser.prog} {action.dest}: no help"


def test_version(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0 and capsys.readouterr().out.strip() == f"forumbot {__version__}"


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_an_unknown_option_is_a_usage_line_not_a_traceback(words, capsys):
    parser = dict(LEAVES)[words]
    with pytest.raises(SystemExit) as caught:
        main([*words, *("x" for _ in positionals(parser)), "--no-such-option"])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and "unrecognized arguments: --no-such-option" in err and "Traceback" not in err


@pytest.mark.parametrize("words", [w for w in COMMANDS if w[0] not in ("init", "replay", "demo")], ids=" ".join)
def test_a_missing_config_file_is_one_line(words, tmp_path, capsys):
    parser = dict(LEAVES)[words]
    args = [*words, *("x" for _ in positionals(parser)), "-c", str(tmp_path / "missing.toml")]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "missing.toml" in err and "Traceback" not in err


@pytest.mark.parametrize("argv, words", [
    (["replay", "no-such.json"], "cannot read no-such.json"),
    (["replay", "--lang", "de", "x.json"], "invalid choice: 'de'"),
    (["demo", "--lang", "xx"], "invalid choice: 'xx'"),
    (["init", "/no/such/dir/forumbot.toml"], "/no/such/dir/forumbot.toml"),
    (["game", "export", "g1", "--until", "tomorrow"], "not an ISO 8601 time"),
    (["game", "export", "g1", "--until", "2026-12-01T10:00"], "has no UTC offset"),
    (["outbox", "g1", "resend", "k"], "invalid choice: 'resend'"),
    (["game"], "required"),
    ([], "required"),
])
def test_bad_values_are_one_clear_line(argv, words, capsys):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and words in err and "Traceback" not in err


def test_an_unexpected_error_is_one_line_unless_verbose(monkeypatch, capsys):
    from forumbot import replay

    def broken(_path):
        raise RuntimeError("a bug")

    monkeypatch.setattr(replay, "load", broken)
    assert main(["replay", "x.json"]) == 1
    err = capsys.readouterr().err
    assert err == "forumbot: internal error: RuntimeError: a bug (run with -v for the traceback)\n"
    with pytest.raises(RuntimeError):
        main(["-v", "replay", "x.json"])


def test_demo_json_is_one_json_document(capsys):
    assert main(["demo", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)  # raises on two documents or a heading line
    games = document["games"]
    assert set(games) == {"free_hunt.json", "moscow.json"}
    assert all(g["messages"] and "winner" in g["result"] for g in games.values())


def test_replay_lang_en_speaks_english(capsys):
    path = str(TRANSCRIPTS / "moscow.json")
    assert main(["replay", "--json", path]) == 0
    ru = json.loads(capsys.readouterr().out)
    assert main(["replay", "--json", "--lang", "en", path]) == 0
    en = json.loads(capsys.readouterr().out)
    assert ru["result"] == en["result"] and len(ru["messages"]) == len(en["messages"])
    assert any("Day 1" in m["text"] or "day 1" in m["text"] for m in en["messages"])
    assert not any("День" in m["text"] or "день" in m["text"] for m in en["messages"])


@pytest.mark.parametrize("flags, level", [(["-v"], logging.DEBUG), (["-q"], logging.WARNING)])
def test_verbose_and_quiet_set_the_log_level(flags, level, capsys):
    root = logging.getLogger()
    saved = root.level
    try:
        assert main([*flags, "replay", str(TRANSCRIPTS / "moscow.json")]) == 0
        assert root.level == level
        assert main(["replay", *flags, str(TRANSCRIPTS / "moscow.json")]) == 0  # after the subcommand too
        assert root.level == level
    finally:
        root.setLevel(saved)


@pytest.mark.parametrize("module", ["forumbot", "forumbot.cli.main"])
def test_the_process_ends_with_the_collector_frozen(module, tmp_path):
    """issue 28 item 2: a `forumbot` process freezes the garbage collector before it exits, where the interpreter's
    passes over every imported object cost a third of a quiet tick's CPU; `python -m` of either module, and the
    console script (pyproject's entry point), end through `command`. The process prints at its very end (atexit
    runs after the SystemExit, before the modules are unloaded) whether the objects were frozen."""
    script = ("import atexit, gc, runpy; atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0)); "
              f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    done = subprocess.run([sys.executable, "-c", script, "init", str(tmp_path / "forumbot.toml")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("frozen True"), done.stdout + done.stderr
    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as f:
        assert tomllib.load(f)["project"]["scripts"]["forumbot"] == "forumbot.cli.main:command"


def test_main_in_a_long_process_freezes_nothing(tmp_path, capsys):
    """A test (or an embedding) calls `main` many times in one process: only `command`, the process's end,
    freezes; `main` leaves the collector as it found it."""
    before = gc.get_freeze_count()
    assert main(["init", str(tmp_path / "forumbot.toml")]) == 0
    assert gc.get_freeze_count() == before
