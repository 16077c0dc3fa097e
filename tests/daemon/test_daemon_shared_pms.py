"""A PM written to the bot and others, as phpBB and MyBB show it (the views saved from the real boards,
fixtures/<engine>/90 and 91), through the daemon: stored apart (kind "conv"), never a move (M-15), and answered
once unless it is the mafia's conference conversation during Setup; a GM's CC'd command is read and logged (C-9)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import json

import pytest
import responses
from responses import matchers
from sqlalchemy import select

from daemon_world import GM, T0, World, game_toml
from forumbot import replay
from forumbot.games.export import export_game
from forumbot.store.game import as_sent, fold_game
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from forumbot.forum.adapter import ForumPM
from forumbot.store import InputRow, OverrideRow
from forumbot.texts import ru

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
URL = "http://127.0.0.1:8081/"
# The views' players: Маша replied to all of the bot's PM to her, Кот Баюн and Дядя Фёдор (the mafia)
CAST = [("Маша", "don"), ("Кот Баюн", "mafia"), ("Дядя Фёдор", "mafia"), ("Шериф", "sheriff")] + [
    (f"М{i}", "civilian") for i in range(1, 7)]
# the inbox page and the views the adapter opens, per engine: (list page, [(view url, saved view)])
PAGES = {
    "phpbb": ("ucp.php?i=pm&folder=inbox", "30_pm_inbox_all_unread.html",
              [("ucp.php?i=pm&mode=view&f=0&p=1", "90_pm_view_reply_to_all.html"),
               ("ucp.php?i=pm&mode=view&f=0&p=2", "91_pm_view_to_the_bot_alone.html"),
               ("ucp.php?i=pm&mode=view&f=0&p=4", "31_pm_view_single.html"),
               ("ucp.php?i=pm&mode=view&f=0&p=5", "31b_pm_view_single_masha_unread.html")]),
    "mybb": ("private.php", "42_pm_inbox_after.html",
             [("private.php?action=read&pmid=1", "90_pm_view_reply_to_all.html"),
              ("private.php?action=read&pmid=3", "91_pm_view_to_the_bot_alone.html"),
              ("private.php?action=read&pmid=7", "31_pm_view_single.html")]),
}


def _saved_pms(engine: str) -> tuple[ForumPM, ForumPM]:
    """Маша's reply to all and her PM to the bot alone, as the engine's adapter reads the saved views."""
    inbox, inbox_page, views = PAGES[engine]
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        for path, name in [(inbox, inbox_page), *views]:
            base, _, query = (URL + path).partition("?")
            params = dict(p.split("=", 1) for p in query.split("&")) if query else {}
            http.add("GET", base, body=(FIXTURES / engine / name).read_bytes(), content_type="text/html; charset=UTF-8",
                     match=[matchers.query_param_matcher(params, strict_match=True)])
        cls = PhpbbForum if engine == "phpbb" else MybbForum
        forum = cls(URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=lambda: 1795953851.0,
                    sleep=lambda s: None)
        pms, _ = forum.fetch_pms()
    to_all = next(p for p in pms if p.author == "Маша" and p.shared)
    alone = next(p for p in pms if p.author == "Маша" and not p.shared and p.text == "подтверждаю")
    return to_all, alone


def _conversation(tmp_path) -> World:  # type: ignore[no-untyped-def]
    games = game_toml("g1", players=CAST, gms=(GM, "Ведущий2")) + '\n[games.g1.options]\nconference = "conversation"\n'
    return World(tmp_path, games=games)


@pytest.mark.parametrize("engine", ["phpbb", "mybb"])
def test_m15_a_reply_to_all_is_the_conference_at_setup_and_answered_once_later(tmp_path, engine: str) -> None:
    to_all, alone = _saved_pms(engine)
    w = _conversation(tmp_path)
    try:
        w.start()
        w.tick()
        w.now += timedelta(minutes=10)
        w.forum.add_pm(to_all.author, to_all.text, w.now - timedelta(seconds=30), shared=to_all.shared)
        w.forum.add_pm(alone.author, alone.text, w.now - timedelta(seconds=20), shared=alone.shared)
        w.tick()
        assert not any(ru.T["pm.shared_refused"] in text for _, text, _ in w.bot_pms()), \
            "the mafia's talk in their conversation was answered"
        w.now = T0 + timedelta(hours=2)  # Day 1: the conference closed when it opened
        w.forum.add_pm(to_all.author, to_all.text, w.now - timedelta(seconds=30), shared=True)
        w.tick()
        w.now += timedelta(minutes=10)
        w.tick()
        told = [(to, text) for to, text, _ in w.bot_pms() if ru.T["pm.shared_refused"] in text]
        assert [to for to, _ in told] == ["Маша"], "the CC'd PM after the conference closed was not answered once"
        with w.daemon.sessions() as s:
            kinds = sorted(s.scalars(select(InputRow.kind).where(InputRow.author == "Маша")))
        assert kinds == ["conv", "conv", "pm"]
        exported = export_game(w.daemon.sessions, w.config, "g1", w.now)  # a CC replays as it was read
        assert [e["where"] for e in exported["events"] if e["from"] == "Маша"] == ["shared", "pm", "shared"]
        path = tmp_path / "export.json"
        path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
        replayed, _ = replay.replay(replay.load(path))
        with w.daemon.sessions.begin() as session:  # less what the bot never sent, being down (C-14), as replay
            stored = as_sent(session, 1, fold_game(w.daemon.sessions, w.config, "g1", w.now))
        assert [m.text for m in replayed.messages] == [m.text for m in stored.messages]
        assert sum(m.text == ru.T["pm.shared_refused"] for m in replayed.messages) == 1
    finally:
        w.close()


def test_m15_c9_a_gms_command_cced_to_the_other_gm_is_read_and_audited(tmp_path) -> None:
    w = _conversation(tmp_path)
    try:
        w.start()
        w.tick()
        w.now += timedelta(minutes=10)
        w.forum.add_pm(GM, "статус", w.now - timedelta(seconds=30), shared=True)
        w.tick()
        answers = [text for to, text, _ in w.bot_pms() if to == GM]
        assert answers and not any(ru.T["pm.shared_refused"] in text for text in answers)
        with w.daemon.sessions() as s:
            logged = list(s.scalars(select(OverrideRow.command)))
        assert logged == ["статус"]
    finally:
        w.close()
