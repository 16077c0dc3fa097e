"""forumbot.toml: every problem named with its place; `init` writes an example that passes `check-config`."""

from __future__ import annotations

import pytest
from daemon_world import config_toml, game_toml

from forumbot.cli import main
from forumbot.config import ConfigProblems, load_config
from forumbot.errors import ConfigError
from forumbot.lifecycle import check_setups, example_config


def write(tmp_path, text: str):
    path = tmp_path / "forumbot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path, text: str) -> list[str]:
    with pytest.raises(ConfigProblems) as caught:
        load_config(write(tmp_path, text))
    return caught.value.problems


def test_the_example_config_loads_and_passes_the_rules(tmp_path):
    config = load_config(write(tmp_path, example_config()))
    assert check_setups(config) == []
    assert config.database_url == f"sqlite:///{tmp_path.resolve() / 'forumbot.db'}"  # beside the config
    game = config.games["autumn"]
    assert game.schedule.start.utcoffset().total_seconds() == 3 * 3600
    assert game.options["remind_hours"] == 3 and game.options["vote_count_minutes"] == 60


def test_each_problem_is_named(tmp_path):
    text = config_toml(game_toml("g1")).replace('variant = "moscow"', 'variant = "mafia-classic"')
    text = text.replace('vote_thread = "g1/vote"\n', "").replace('timezone = "Europe/Moscow"', 'timezone = "Mars/Olympus"')
    text = text.replace("poll_seconds = 60", "poll_seconds = 60\npoll_minutes = 5")
    problems = problems_of(tmp_path, text)
    assert "games.g1.variant: unknown variant 'mafia-classic' (known: moscow, free_hunt)" in problems
    assert "games.g1.vote_thread: missing" in problems
    assert "games.g1.timezone: unknown time zone 'Mars/Olympus'" in problems
    assert "forumbot.toml.poll_minutes: unknown setting" in problems
    assert len(problems) == 4


def test_wrong_types_and_unknown_roles_and_forums(tmp_path):
    text = config_toml(game_toml("g1", players=[("A", "sheriff"), ("B", "werewolf"), ("a", "")]))
    text = text.replace('forum = "main"', 'forum = "elsewhere"').replace("grace_seconds = 0", 'grace_seconds = "soon"')
    problems = problems_of(tmp_path, text)
    assert any(p.startswith("games.g1.forum: no forum named 'elsewhere'") for p in problems)
    assert any(p.startswith("games.g1.players[1].role: unknown role 'werewolf'") for p in problems)
    assert "games.g1.players[2]: duplicate nickname 'a'" in problems
    assert "forumbot.toml.grace_seconds: expected an integer, got str 'soon'" in problems


def test_wrong_player_count_for_the_variant_is_named_by_the_rules(tmp_path):
    config = load_config(write(tmp_path, config_toml(game_toml("g1", players=[(f"P{i}", "") for i in range(9)]))))
    (problem,) = check_setups(config)
    assert problem.startswith("games.g1:") and "10" in problem and "9" in problem


def test_missing_file_and_bad_toml_are_one_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="forumbot init"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "[games\n"))


def test_check_config_cli_prints_each_problem_and_exits_2(tmp_path, capsys):
    path = write(tmp_path, config_toml(game_toml("g1")).replace('variant = "moscow"', 'variant = "x"')
                 .replace('gms = ["Ведущий"]', "gms = []"))
    assert main(["check-config", "-c", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("forumbot: games.g1.") for line in err)
    assert "Traceback" not in "".join(err)


def test_init_writes_the_example_and_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "forumbot.toml"
    assert main(["init", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == example_config()
    assert main(["check-config", "-c", str(path)]) == 0
    assert main(["init", str(path)]) == 2
    assert "already exists" in capsys.readouterr().err
