"""A game whose stored setup holds a value the fold cannot run on (saved before the option checks, or edited in
the database) is refused by name at load, for that game only; the other games' ticks go on (issue 7 item 19
follow-up: `vote_count_minutes = 0` hung every tick)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from daemon_world import CAST, World, game_toml

from forumbot.exit_codes import EXIT_CONFIG
from forumbot.cycle.daemon import describe, exit_code
from forumbot.errors import SetupError
from forumbot.games.status import game_status
from forumbot.store.models import GameRow
from forumbot.store.setup_codec import setup_from_json


def spoil(w: World, name: str, change) -> None:
    with w.daemon.sessions.begin() as s:
        game = next(g for g in s.query(GameRow) if g.name == name)
        data = json.loads(game.setup_json)
        change(data)
        game.setup_json = json.dumps(data, ensure_ascii=False)


def two_games(tmp_path) -> World:
    w = World(tmp_path, games=game_toml("g1") + game_toml("g2"))
    w.start("g1")
    w.start("g2", seed=3)
    return w


def test_a_bad_stored_option_stops_its_game_only_issue7_item19(tmp_path):
    w = two_games(tmp_path)
    spoil(w, "g1", lambda d: d["options"].update(vote_count_minutes="often"))
    w.now += timedelta(minutes=1)
    report = w.tick()
    outcome = {o.name: o for o in report.games}
    assert outcome["g1"].state == "broken" and outcome["g2"].state == "done"
    # in the game's language, its GMs' (issue 28)
    assert "игра g1: сохранённые настройки: options.vote_count_minutes: ожидается число" in outcome["g1"].problem
    assert exit_code(report) == EXIT_CONFIG and "options.vote_count_minutes" in describe(report)
    assert w.bot_posts("g1/game") == [] and len(w.bot_posts("g2/game")) == 1  # g2 is played on
    assert {to for to, _, _ in w.bot_pms()} == {n for n, _ in CAST}  # g2's role PMs
    status = game_status(w.daemon.sessions, w.config, "g1", w.now)
    assert "не сыграна: игра g1: сохранённые настройки: options.vote_count_minutes" in status
    w.close()


@pytest.mark.parametrize("change, field", [
    (lambda d: d["options"].update(vote_count_minutes=0), "options.vote_count_minutes"),
    (lambda d: d["options"].update(vote_count_minutes=-5), "options.vote_count_minutes"),
    (lambda d: d["options"].update(remind_hours=float("nan")), "options.remind_hours"),
    (lambda d: d["schedule"].update(day_s=0), "schedule.day_s"),
    (lambda d: d["schedule"].update(night_s=1e308), "schedule.night_s"),
    (lambda d: d["schedule"].update(runoff_s="12h"), "schedule.runoff_s"),
    (lambda d: d.pop("players"), "не читаются"),
])
def test_loading_a_stored_setup_names_what_would_hang_or_crash_issue7_item19(tmp_path, change, field):
    w = World(tmp_path)
    w.start()
    with w.daemon.sessions.begin() as s:
        stored = json.loads(s.query(GameRow).one().setup_json)
    change(stored)
    with pytest.raises(SetupError, match=field) as err:
        setup_from_json(json.dumps(stored), game="g1")
    assert "\n" not in str(err.value) and str(err.value).startswith("игра g1: сохранённые настройки")
    w.close()


@pytest.mark.parametrize("language, said", [
    ("ru", "игра g1: сохранённые настройки: schedule.day_s должно быть больше 0 и не больше 31536000 секунд, а здесь "
           "0; эта игра не продолжается, пока её настройки не исправлены"),
    ("en", "game g1: stored setup: schedule.day_s must be more than 0 and at most 31536000 seconds, got 0; this game "
           "is not played on until its setup is fixed"),
])
def test_issue28_a_stored_setups_problem_is_named_in_the_games_language(tmp_path, language, said):
    """A Russian GM read «stored setup ... is not played on until its setup is fixed» in English (stop 36)."""
    w = World(tmp_path)
    w.start()
    with w.daemon.sessions.begin() as s:
        stored = json.loads(s.query(GameRow).one().setup_json)
    stored.update(language=language)
    stored["schedule"].update(day_s=0)
    with pytest.raises(SetupError) as err:
        setup_from_json(json.dumps(stored), game="g1")
    assert str(err.value) == said
    stored["options"].update(vote_count_minutes=0)
    stored["schedule"].update(day_s=3600)
    with pytest.raises(SetupError) as err:
        setup_from_json(json.dumps(stored), game="g1")
    assert str(err.value).endswith({"ru": "; эта игра не продолжается, пока её настройки не исправлены (остальные игры "
                                          "идут)",
                                    "en": "; this game is not played on until its setup is fixed (the other games "
                                          "go on)"}[language])
    w.close()


@pytest.mark.parametrize("language, said", [
    ("ru", "московский состав: мирный житель — 6, шериф — 1, мафия — 2, дон мафии — 1 (M-1), а задано: "
           "мирный житель — 6, шериф — 2, мафия — 2"),
    ("en", "the Moscow cast is 6 civilian, 1 sheriff, 2 mafia, 1 mafia Don (M-1); got 6 civilian, 2 sheriff, "
           "2 mafia"),
])
def test_issue28_m1_a_stored_cast_the_rules_refuse_is_named_in_the_games_language(tmp_path, language, said):
    """The fold's setup errors (SetupError.told) in the tick's report and `game status`, as check-config says them:
    a Russian GM read the cast's problem in English inside his Russian status."""
    w = World(tmp_path, games=game_toml("g1").replace('forum = "main"', f'forum = "main"\nlanguage = "{language}"', 1)
              + game_toml("g2"))
    w.start("g1")
    w.start("g2", seed=3)
    spoil(w, "g1", lambda d: d["players"][1].update(role="sheriff"))  # the Don a second Sheriff
    w.now += timedelta(minutes=1)
    outcome = {o.name: o for o in w.tick().games}
    assert outcome["g1"].state == "broken" and outcome["g2"].state == "done"
    assert outcome["g1"].problem == said
    status = game_status(w.daemon.sessions, w.config, "g1", w.now)
    assert {"ru": "не сыграна: ", "en": "not played: "}[language] + said in status
    w.close()
