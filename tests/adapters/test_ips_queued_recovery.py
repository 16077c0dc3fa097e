"""A post the bot finds after an interrupted send, held in Invision's moderation queue, is queued, not sent.

IPS 4 answers a queued reply exactly as a published one and shows the author his own queued comment (ENGINES.md
§12; the moderation queue as tests/emulators/invision.py has it from IPS 4's shipped code: the article marked
`ipsModerated`, its content opened by `strong.ipsType_warning`, "comment_awaiting_approval"). So when a tick dies
right after posting into the queue, the next tick's recovery (find_own_post) finds the post; the players cannot
see it, so it must be recorded as a fresh PostQueued is: the row "queued", the GMs told, nothing sent again.
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard  # noqa: E402

from adapters.invision.forum import InvisionForum, to_html  # noqa: E402
from forumbot.errors import PostQueued  # noqa: E402
from forumbot.model import Message, Where  # noqa: E402
from forumbot.outbox.store import Destination, enqueue, marker, with_marker  # noqa: E402
from forumbot.outbox.deliver import deliver
from forumbot.outbox.store import mark_attempt  # noqa: E402
from forumbot.store import open_engine, session_factory, upgrade  # noqa: E402
from forumbot.store.models import GameRow, OutboxRow  # noqa: E402
from forumbot.store.records import forum_id  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
BOT, PASSWORD = "Бот", "пароль"
AWAITING = "This post is awaiting approval by a moderator."


class QueueBoard(IpsBoard):
    """IpsBoard whose comments in `held` are in the moderation queue: shown to their author only (the bot is the
    only reader here), the article marked `ipsModerated` and the content opened by the awaiting notice."""

    held: set[int]

    def topic_page(self, tid: int, number: int, logged: bool) -> str:
        page = super().topic_page(tid, number, logged)
        for cid in getattr(self, "held", set()):
            page = page.replace(f'<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent '
                                f'ipsClearfix ipsColumns">',
                                f'<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent '
                                f'ipsClearfix ipsColumns ipsModerated">')
        return page


def held_board(http, held: bool) -> tuple[QueueBoard, str]:
    """Topic 101 with players' posts and, last, the bot's post carrying `tag` (in the queue when `held`)."""
    b = QueueBoard(BOT, PASSWORD, lambda: NOW)
    b.held = set()
    b.thread(101, "101")
    for i in range(3):
        b.add_post("101", f"Игрок{i}", f"сообщение {i}", NOW - timedelta(minutes=30 - i))
    tag = marker("g1", "day1/count/1")
    text = f"<strong class='ipsType_medium ipsType_warning'>{AWAITING}</strong>" if held else ""
    post = b.add_post("101", BOT, text + to_html(with_marker("Итоги: Петя 3", tag)), NOW - timedelta(minutes=1))
    if held:
        b.held.add(post.id)
    b.install(http)
    return b, tag


def forum() -> InvisionForum:
    return InvisionForum(IpsBoard.base, BOT, PASSWORD, intervals={"post": 0, "pm": 0})


def test_find_own_post_names_a_queued_post_as_queued_not_as_sent(http):
    b, tag = held_board(http, held=True)
    (mine,) = b.posts_by(BOT)
    with pytest.raises(PostQueued, match="awaits a moderator's approval") as e:
        forum().find_own_post("101", tag)  # today: the id, as if the players could read it
    assert e.value.pending_id == str(mine.id)


def test_find_own_post_of_a_published_post_is_its_id(http):
    b, tag = held_board(http, held=False)
    assert forum().find_own_post("101", tag) == str(b.posts_by(BOT)[0].id)


@pytest.fixture
def store(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'f.db'}")
    upgrade(engine)
    sessions = session_factory(engine)
    with sessions.begin() as s:
        game = GameRow(name="g1", forum_id=forum_id(s, "main", "invision"), status="running", mode="live", seed=1,
                    setup_json="{}", commitment="c", started_at=NOW)
        s.add(game)
        s.flush()
        gid = game.id
        enqueue(s, gid, "g1", [Message(at=NOW, where=Where.VOTE, to=None, key="day1/count/1", text="Итоги: Петя 3")],
                origin="core")
    with sessions.begin() as s:
        row = s.scalar(select(OutboxRow).where(OutboxRow.key == "day1/count/1"))
    mark_attempt(sessions, [row], NOW, batch=None)  # a tick killed right after the board took the post
    yield sessions, gid
    engine.dispose()


def rows(sessions) -> dict[str, OutboxRow]:
    with sessions.begin() as s:
        return {r.key: r for r in s.scalars(select(OutboxRow))}


def test_a_queued_post_found_after_a_crash_is_recorded_queued_and_the_gms_told(http, store):
    sessions, gid = store
    b, _ = held_board(http, held=True)
    (mine,) = b.posts_by(BOT)
    target = Destination(game_id=gid, game="g1", game_thread="101", vote_thread="101", subject="Мафия: осень",
                    gms=("Ведущий",), language="ru")
    report = deliver(sessions, forum(), target, NOW)
    # as a fresh PostQueued: neither counted sent (recovered) nor sent again; the GM's notice goes out
    assert report.error is None and report.recovered == 0 and report.queued == ["day1/count/1"]
    assert report.sent == 1 and len(b.posts_by(BOT)) == 1
    got = rows(sessions)
    assert got["day1/count/1"].status == "queued" and got["day1/count/1"].remote_id == f"pending:{mine.id}"
    notice = got["queued/day1/count/1/Ведущий"]
    assert notice.status == "sent" and notice.to == "Ведущий"
    assert "проверку модератором" in notice.text and "Итоги: Петя 3" in notice.text
    (pm,) = [m for m in b.messages if m.author == BOT]
    assert "Ведущий" in pm.to and "проверку модератором" in pm.text
    assert deliver(sessions, forum(), target, NOW).sent == 0 and len(b.posts_by(BOT)) == 1  # not sent again


def test_a_published_post_found_after_a_crash_is_recorded_sent(http, store):
    sessions, gid = store
    b, _ = held_board(http, held=False)
    target = Destination(game_id=gid, game="g1", game_thread="101", vote_thread="101", subject="Мафия: осень",
                    gms=("Ведущий",), language="ru")
    report = deliver(sessions, forum(), target, NOW)
    assert report.recovered == 1 and report.queued == [] and report.sent == 0
    assert rows(sessions)["day1/count/1"].status == "sent" and len(b.posts_by(BOT)) == 1
