"""A form the forum refuses for now (token expired, posted too fast, topic moved on) is sent again next cycle;
one it refuses for good (no such recipient, a text it will not take) is set aside (issue 7 item 2, follow-up)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, GM, World
from sqlalchemy import select

from forumbot.errors import FormRejected, FormTransient
from forumbot.store.models import OutboxRow


def statuses(w: World) -> dict[str, str]:
    with w.daemon.sessions.begin() as s:
        return {r.key: r.status for r in s.scalars(select(OutboxRow))}


def failing_once(w: World, name: str, error: Exception):
    real = getattr(w.forum, name)

    def once(*args, **kwargs):
        setattr(w.forum, name, real)
        raise error

    setattr(w.forum, name, once)


def test_a_form_token_rejected_on_a_pm_is_retried_next_tick_not_set_aside_issue7_item2(tmp_path):
    w = World(tmp_path)
    w.start()
    w.now += timedelta(minutes=1)
    failing_once(w, "send_pm", FormTransient("phpbb: form token rejected: Ошибка отправки формы"))
    report = w.tick()
    assert report.games[0].delivery.refused == []
    assert "refused" not in statuses(w).values()
    assert not any(to == GM for to, _, _ in w.bot_pms())  # no refusal notice
    w.now += timedelta(minutes=1)
    w.tick()
    assert {to for to, _, _ in w.bot_pms()} == {n for n, _ in CAST}  # every role PM, the first one too
    assert len(w.bot_pms()) == len(CAST)
    assert set(statuses(w).values()) == {"sent"}
    w.close()


def test_a_topic_that_kept_moving_is_posted_next_tick_issue7_item2(tmp_path):
    w = World(tmp_path)
    w.start()
    w.now += timedelta(minutes=1)
    failing_once(w, "reply", FormTransient("phpbb: topic 2 kept moving; reply not posted"))
    w.tick()
    assert w.bot_posts("g1/game") == [] and "refused" not in statuses(w).values()
    w.now += timedelta(minutes=1)
    w.tick()
    assert len(w.bot_posts("g1/game")) == 1 and set(statuses(w).values()) == {"sent"}
    w.close()


def test_a_permanent_refusal_is_still_set_aside_issue7_item2(tmp_path):
    w = World(tmp_path)
    w.start()
    w.now += timedelta(minutes=1)
    failing_once(w, "reply", FormRejected("phpbb: Тема закрыта, вы не можете отвечать"))
    report = w.tick()
    assert report.games[0].delivery.refused == ["setup/players"]
    assert list(statuses(w).values()).count("refused") == 1
    (notice,) = [t for to, t, _ in w.bot_pms() if to == GM]
    assert "Тема закрыта" in notice
    w.close()
