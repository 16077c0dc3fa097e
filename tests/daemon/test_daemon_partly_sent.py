"""A PM to many that went out in part (MyBB sends 5 recipients per PM) is sent on to the others only: nobody
gets it twice (issue 7 item 5 follow-up); a refusal for good of the rest is set aside and the GM told."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import GM, World
from sqlalchemy import select

from forumbot.errors import FloodLimited, FormRejected, PartlySent
from forumbot.model import Message, Where
from forumbot.outbox.store import enqueue
from forumbot.store.models import OutboxRow

TEAM = ["М1", "М2", "М3", "М4", "М5", "М6"]


def world_with_team_pm(tmp_path) -> World:
    w = World(tmp_path)
    w.start()
    w.now += timedelta(minutes=1)
    w.tick()  # the game's own messages are out
    with w.daemon.sessions.begin() as s:
        enqueue(s, 1, "g1", [Message(at=w.now, where=Where.PM, to=", ".join(TEAM), key="test/team", text="Ночь")],
                origin="shell")
    return w


def fail_team_pm_once(w: World, cause) -> list[str]:
    real, calls = w.forum.send_pm, []

    def send(to, subject, text):
        calls.append(to)
        if len(calls) == 1:
            raise PartlySent("memory: PM sent to М1..М5, not to М6", TEAM[:5], TEAM[5:], cause)
        return real(to, subject, text)

    w.forum.send_pm = send
    return calls


def row(w: World) -> OutboxRow:
    with w.daemon.sessions.begin() as s:
        return s.scalars(select(OutboxRow).where(OutboxRow.key == "test/team")).one()


def test_a_pm_sent_in_part_goes_on_to_the_rest_only_issue7_item5(tmp_path):
    w = world_with_team_pm(tmp_path)
    calls = fail_team_pm_once(w, FloodLimited("mybb: flood limit", retry_after=600))
    w.tick()
    assert row(w).status == "pending" and row(w).to == "М6"
    w.now += timedelta(minutes=1)
    w.tick()
    assert calls == [", ".join(TEAM), "М6"]
    assert row(w).status == "sent"
    w.close()


def test_the_rest_refused_for_good_is_set_aside_naming_who_lacks_it_issue7_item5(tmp_path):
    w = world_with_team_pm(tmp_path)
    fail_team_pm_once(w, FormRejected("mybb: no such user: М6"))
    report = w.tick()
    assert report.games[0].delivery.refused == ["test/team"] and row(w).to == "М6"
    (notice,) = [t for to, t, _ in w.bot_pms() if to == GM and "test/team" in t]
    assert "ЛС для М6" in notice and "no such user" in notice
    w.close()
