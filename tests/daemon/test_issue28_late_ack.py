"""issue 28 item 9: an acknowledgement «Принято: выстрел … выстрел состоится» that would arrive after the night's
result is not sent (C-5's acknowledgement, C-14: what is worth saying only before a deadline is never sent late).

The daemon on the memory forum, on the test's clock: the forum holds the bot's PMs back (a flood limit) while the
night's moves come in, and takes them again only after the night's deadline."""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import T0, World
from sqlalchemy import select
from test_daemon_outage import SHORT_DAYS, _world

from forumbot import replay
from forumbot.errors import FloodLimited
from forumbot.games.export import export_game
from forumbot.store.models import OutboxRow


def _night_1(tmp_path) -> World:
    """Nine players, 4-hour days and 2-hour nights; Day 1 hangs Маф1 and Night 1 opens at T0 + 4 h."""
    w = _world(tmp_path, extra=SHORT_DAYS)
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5", "М6"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1"):
        w.post("vote", nick, "М1")
    w.tick()
    w.now = T0 + timedelta(hours=4, minutes=1)
    w.tick()
    return w


def _acks(w: World, to: str) -> list[str]:
    return [text for who, text, _ in w.bot_pms() if who == to and "Принято" in text]


def test_c5_c14_a_shot_acknowledgement_held_past_the_night_result_is_never_sent(tmp_path) -> None:
    w = _night_1(tmp_path)
    send_pm = w.forum.send_pm

    def flood(*args):  # type: ignore[no-untyped-def]
        raise FloodLimited("You must wait before sending another message")

    w.forum.send_pm = flood
    w.now = T0 + timedelta(hours=5, minutes=50)
    w.pm("Дон", "убить М2")
    w.tick()  # the ack is queued; the forum refuses PMs until after the deadline
    with w.daemon.sessions.begin() as session:
        pending = {r.key: r.text for r in session.scalars(select(OutboxRow).where(
            OutboxRow.status == "pending", OutboxRow.to == "Дон"))}
    assert any("Принято: выстрел" in text and "выстрел состоится" in text for text in pending.values()), pending
    w.forum.send_pm = send_pm
    w.now = T0 + timedelta(hours=6, minutes=5)
    w.tick()
    assert any("Итоги ночи 1" in text and "М2" in text for _, text, _ in w.bot_posts("g1/game"))
    assert _acks(w, "Дон") == []  # the night is over: «выстрел состоится» would be a lie
    with w.daemon.sessions.begin() as session:
        statuses = {r.key: r.status for r in session.scalars(select(OutboxRow).where(OutboxRow.key.in_(pending)))}
    assert set(statuses.values()) == {"withheld"}, statuses
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    assert set(pending) <= set(transcript["unsent"])
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    assert not [m for m in result.messages if m.key in pending]  # the replay says what was sent, no more
    w.close()


def test_c5_a_shot_acknowledgement_sent_before_the_night_result_still_goes(tmp_path) -> None:
    """The same move with the forum taking PMs: acknowledged at once, as C-5 says; the partner hears of it (M-5)."""
    w = _night_1(tmp_path)
    w.now = T0 + timedelta(hours=5)
    w.pm("Дон", "убить М2")
    w.tick()
    assert any("Принято: выстрел" in text for text in _acks(w, "Дон"))
    w.now = T0 + timedelta(hours=6, minutes=5)
    w.tick()
    assert any("Принято: выстрел" in text for text in _acks(w, "Дон"))
    w.close()


def test_c12_a_rejected_line_in_a_night_pm_is_answered_even_after_the_night_result(tmp_path) -> None:
    """Only a reply that does nothing but acknowledge tonight's moves is moot after the result: a PM the bot did
    not understand is still answered (nothing a player sent is dropped silently)."""
    w = _night_1(tmp_path)
    send_pm = w.forum.send_pm

    def flood(*args):  # type: ignore[no-untyped-def]
        raise FloodLimited("You must wait before sending another message")

    w.forum.send_pm = flood
    w.now = T0 + timedelta(hours=5, minutes=50)
    w.pm("Дон", "убить М2\nабракадабра")
    w.tick()
    w.forum.send_pm = send_pm
    w.now = T0 + timedelta(hours=6, minutes=5)
    w.tick()
    assert [text for who, text, _ in w.bot_pms() if who == "Дон" and "абракадабра" in text]
    w.close()
