"""Issue 28 item 14: the GM's dashboard (`forumbot dashboard`, `/_dashboard`) in the game's language, with
«через N ч», the missing votes and night moves, the unconfirmed roles, and a player whose role PM never went out
named as such; never raw JSON or English in a Russian game."""

from __future__ import annotations

import json
import re
import sys
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select, update

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import CAST, GM, STARTED, STEPS, T0, World, config_toml, game_toml  # noqa: E402

from forumbot.cli.main import main  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.pages.activity import activity_rows  # noqa: E402
from forumbot.pages.dashboard import dashboard, to_html, to_text  # noqa: E402
from forumbot.store.game import fold_game  # noqa: E402
from forumbot.store.models import OutboxRow  # noqa: E402

ENGLISH = re.compile(r"\b(outbox|stuck|deadline|pending|sent|running|last tick|night|day|setup)\b", re.I)


def _world(tmp_path: Path, language: str = "ru") -> World:
    w = World(tmp_path / "w")
    toml = game_toml("g1") + (f'language = "{language}"\n' if language != "ru" else "")
    extra = '[pages]\nfolder = "site"\nurl = "https://mafia.example.org/"\ndashboard = "private/dashboard.json"\n'
    w.config_path.write_text(config_toml(toml, extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    return w


def _text(w: World, capsys) -> str:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main(["dashboard", "-c", str(w.config_path)], clock=lambda: w.now) == 0
    return capsys.readouterr().out


def _ended_role_pm(w: World, nick_seat: str, status: str, error: str = "") -> None:
    with w.daemon.sessions.begin() as session:
        key = session.scalar(select(OutboxRow.key).where(OutboxRow.key.startswith("setup/role/"), OutboxRow.to == nick_seat))
        session.execute(update(OutboxRow).where(OutboxRow.key == key).values(status=status, last_error=error))


def test_i28_14_setup_in_russian_unconfirmed_roles_and_a_role_pm_that_never_went_out(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    w = _world(tmp_path)
    try:
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        w.tick()
        w.pm("Шериф", "подтверждаю")
        w.now = STARTED + timedelta(hours=2)
        w.tick()
        _ended_role_pm(w, "М3", "refused", "Пользователь запретил личные сообщения")
        out = _text(w, capsys)
        assert out.startswith("g1: идёт, подготовка, срок 01.12 10:00 МСК (через 22 ч)\n"), out
        assert "Не подтвердили роль: Дон, Маф1, Маф2, М1, М2, М3, М4, М5, М6" in out  # the sheriff confirmed
        assert "ЛС с ролью не ушло: М3 (форум отказал: Пользователь запретил личные сообщения)" in out
        assert "Застряло (форум отказал): ЛС игроку М3, попыток 1: Пользователь запретил личные сообщения" in out
        assert "Последний тик: выполнен, подготовка;" in out
        assert not ENGLISH.search(out) and "{" not in out, out
    finally:
        w.close()


def test_i28_14_day_and_night_what_is_still_owed(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    w = _world(tmp_path)
    try:
        w.start()
        for at, step in STEPS[:2]:
            w.now = at
            step(w)
            w.tick()
        w.now = T0 + timedelta(hours=1)
        for nick in ("Шериф", "М1"):
            w.post("vote", nick, "Маф1")
        w.tick()
        out = _text(w, capsys)
        assert "g1: идёт, день 1, срок 02.12 10:00 МСК (через 23 ч)" in out
        assert "Не проголосовали (8): Дон, Маф1, Маф2, М2, М3, М4, М5, М6" in out
        for at, step in STEPS[2:4]:  # the day's votes, the day resolved
            w.now = at
            step(w)
            w.tick()
        w.now = T0 + timedelta(hours=25)
        w.pm("Шериф", "проверка Дон")
        w.tick()
        out = _text(w, capsys)
        assert "g1: идёт, ночь 1, срок 02.12 22:00 МСК (через 11 ч)" in out
        # Маф1 was lynched; the sheriff's check is in, the Don's check and the team's shot are not
        assert "  Не сданы ночные ходы: Дон (проверка, выстрел); Маф2 (выстрел)\n" in out
        assert not ENGLISH.search(out), out
    finally:
        w.close()


def test_i28_14_the_served_page_is_in_the_games_language(tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = _world(tmp_path)
    try:
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        w.tick()
        page = to_html(dashboard(w.daemon.sessions, w.now, None, w.config)).decode()
        assert '<html lang="ru">' in page and "<h1>Панель ведущего</h1>" in page and "Не подтвердили роль" in page
        assert '"games"' not in page and not ENGLISH.search(re.sub(r"<[^>]+>", " ", page.split("</style>")[1]))
    finally:
        w.close()


def test_i28_14_an_english_game_reads_in_english(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    w = _world(tmp_path, "en")
    try:
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        w.tick()
        out = to_text(dashboard(w.daemon.sessions, w.now, None, w.config))
        assert out.startswith("g1: running, setup, deadline 01.12 10:00 MSK (in 23 h)"), out
        assert "Roles not confirmed: Шериф, Дон" in out and "Outbox: " in out
        assert "Панель" not in to_html(dashboard(w.daemon.sessions, w.now, None, w.config)).decode()
    finally:
        w.close()


def test_i28_14_the_last_tick_and_the_page_time_are_in_the_games_zone() -> None:
    """The last tick's «так с» and the page's «На …» were in Moscow time whatever the game's zone: a UTC game's GM
    read МСК beside the deadlines in UTC. They follow the game's zone (Moscow where the games disagree)."""
    tick = {"state": "done", "phase": "day 1", "stored": 2, "queued": 1, "sent": 1, "error": "",
            "since": "2026-12-01T07:00:00+00:00"}
    game = {"game": "g1", "lines": ["g1: running, Day 1"], "language": "en", "timezone": "UTC", "last_tick": tick}
    d = {"at": "2026-12-01T08:00:00+00:00", "games": [game]}
    assert to_text(d).splitlines()[1] == "  Last tick: done, day 1; 2 stored, 1 queued, 1 sent (so since 01.12 07:00 UTC)"
    page = to_html(d).decode()
    assert "As of 01.12 08:00 UTC" in page and "(so since 01.12 07:00 UTC)" in page
    russian = dict(game, language="ru", timezone="Europe/Moscow", lines=["g1: идёт, День 1"])
    assert to_text({"at": d["at"], "games": [russian]}).endswith("(так с 01.12 10:00 МСК)")


def test_an_ended_game_says_how_it_ended_not_that_it_ended_twice(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """An ended game's line read «autumn: окончена, Игра окончена» (the status, then the phase saying it again;
    the issue 28 XenForo walk-through): it says who won instead."""
    for language, head in (("ru", "g1: окончена, победил город\n"), ("en", "g1: ended, the town won\n")):
        w = _world(tmp_path / language, language)
        try:
            w.start()
            for at, step in STEPS[:2]:
                w.now = at
                step(w)
                w.tick()
            w.now = T0 + timedelta(hours=1)
            for nick in ("Дон", "Маф1", "Маф2"):
                w.pm(GM, f"модкилл {nick}")
                w.now += timedelta(minutes=1)
                w.tick()
            for _ in range(3):
                w.now += timedelta(minutes=5)
                w.tick()
            out = _text(w, capsys)
            assert out.startswith(head), out
        finally:
            w.close()


def test_r11_the_open_day_names_who_is_below_the_post_minimum_as_the_activity_table_counts(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """R-11 on the dashboard (stop 35's walk-through): the GM saw who owed a vote, never who owed posts. With
    `post_minimum` on, the open day lists each alive player below it with his counted posts of the minimum (a
    quote-only post is shown in the activity table but not counted), in text, HTML and --json; each number is the
    activity table's «В зачёт минимума» for that player."""
    w = World(tmp_path / "w")
    extra = '[pages]\nfolder = "site"\nurl = "https://mafia.example.org/"\ndashboard = "private/dashboard.json"\n'
    options = "\n[games.g1.options]\npost_minimum = 2\n"
    w.config_path.write_text(config_toml(game_toml("g1") + options, extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    try:
        w.start()
        for at, step in STEPS[:2]:
            w.now = at
            step(w)
            w.tick()
        w.now = T0 + timedelta(hours=1)
        for text in ("Я мирный, честно", "И ещё раз: мирный"):
            w.post("game", "Шериф", text)
        w.post("game", "Дон", "Один пост")
        w.post("game", "Маф1", "[quote]Кто мафия?[/quote]")  # quotes only: not counted
        w.post("game", "Маф1", "Мой ответ")
        w.tick()
        out = _text(w, capsys)
        below = "Ниже минимума сообщений в игровой теме: Дон — 1 из 2, Маф1 — 1 из 2, Маф2 — 0 из 2, М1 — 0 из 2"
        assert "\n  " + below + ", М2 — 0 из 2, М3 — 0 из 2, М4 — 0 из 2, М5 — 0 из 2, М6 — 0 из 2\n" in out, out
        d = dashboard(w.daemon.sessions, w.now, None, w.config)
        shown = {p["nick"]: p["posts"] for p in d["games"][0]["post_minimum"]["below"]}
        assert d["games"][0]["post_minimum"]["need"] == 2 and "Шериф" not in shown
        assert below in to_html(d).decode()
        capsys.readouterr()
        assert main(["dashboard", "--json", "-c", str(w.config_path)], clock=lambda: w.now) == 0
        assert json.loads(capsys.readouterr().out)["games"][0]["post_minimum"]["below"][0] == {"nick": "Дон", "posts": 1}
        run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        players = [{"seat": n, "nick": n, "phase": ""} for n, _ in CAST]
        table = {row.nick: row.counted for row in activity_rows(run, 1, players, {})}
        assert shown == {nick: n for nick, n in table.items() if n < 2}
        w.post("game", "Дон", "Второй пост")
        for nick, _ in CAST:
            if nick not in ("Шериф", "Дон"):
                for text in ("Первый", "Второй"):
                    w.post("game", nick, text)
        w.tick()
        assert "  Минимум сообщений в игровой теме (2) набрали все живые.\n" in _text(w, capsys)
    finally:
        w.close()


def test_r11_the_minimum_reads_in_english_and_is_off_without_post_minimum(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The line in an English game's words; with no `post_minimum` (R-11 off) no line and no data."""
    w = _world(tmp_path, "en")
    try:
        w.start()
        for at, step in STEPS[:2]:
            w.now = at
            step(w)
            w.tick()
        w.now = T0 + timedelta(hours=1)
        w.tick()
        d = dashboard(w.daemon.sessions, w.now, None, w.config)
        assert "post_minimum" not in d["games"][0] and "minimum" not in to_text(d)
    finally:
        w.close()
    w = World(tmp_path / "on")
    toml = game_toml("g1") + 'language = "en"\n' + "\n[games.g1.options]\npost_minimum = 1\n"
    w.config_path.write_text(config_toml(toml), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    try:
        w.start()
        for at, step in STEPS[:2]:
            w.now = at
            step(w)
            w.tick()
        w.now = T0 + timedelta(hours=1)
        w.post("game", "Шериф", "I am the town")
        w.tick()
        out = to_text(dashboard(w.daemon.sessions, w.now, None, w.config))
        assert "  Below the post minimum in the game thread: Дон: 0 of 1, Маф1: 0 of 1," in out, out
    finally:
        w.close()
