"""C-11 in a live game: an edit of a vote post the bot has already read is noticed on the next cycle (the forum
hands back the posts of the page it reads anyway) and judged by when the forum stamped it."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, T0, World
from sqlalchemy import select

from forumbot.store.models import InputRow
from forumbot.store.game import fold_game


def _day_with_a_change(w: World):
    """Маф1 3 votes, М1 3 votes; М4 votes Маф1, then changes to М1 (his one change, M-8): М1 leads 4 to 3."""
    w.start()
    w.now = T0 - timedelta(hours=20)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1", "Маф2"):
        w.post("vote", nick, "М1")
    w.post("vote", "М4", "Маф1")
    w.tick()
    w.now = T0 + timedelta(hours=3)
    change = w.post("vote", "М4", "М1")
    w.tick()
    return change


def _died(w: World, nick: str):
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    died = next(p.died for p in run.result.players if p.nick == nick)
    return (died.phase, died.cause) if died else None


def _row(w: World, item_id: str) -> InputRow:
    with w.daemon.sessions.begin() as s:
        return s.scalar(select(InputRow).where(InputRow.item_id == item_id))


def _bot_texts(w: World) -> list[str]:
    return [t.replace("[b]", "").replace("[/b]", "") for _, t, _ in w.bot_posts()]  # the words, not the bold


def test_C11_a_vote_edited_before_the_deadline_is_voided_in_the_live_count(tmp_path):
    w = World(tmp_path)
    change = _day_with_a_change(w)
    w.now = T0 + timedelta(hours=4)
    w.forum.edit_post(change.id, "М1 (передумал)", w.now - timedelta(minutes=5))
    w.tick()
    row = _row(w, change.id)
    assert row.first_text == "М1" and row.text == "М1 (передумал)"
    assert row.first_edited_at == w.now - timedelta(minutes=5)
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    # the voided change does not count and does not use up M4's change: his first vote stands, Маф1 leads 4 to 3
    assert _died(w, "Маф1") == ("day 1", "vote") and _died(w, "М1") is None
    # quoted as it reads now, the text first stored beside it (issue 17 item 15)
    assert any("Не засчитано: М4 «М1 (передумал)» (сначала было «М1») — сообщение отредактировано." in t
               for t in _bot_texts(w))
    w.close()


def test_C11_a_vote_edited_after_the_deadline_changes_nothing(tmp_path):
    w = World(tmp_path)
    change = _day_with_a_change(w)
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    assert _died(w, "М1") == ("day 1", "vote")
    said = _bot_texts(w)
    w.now = T0 + timedelta(hours=25)
    w.forum.edit_post(change.id, "Маф1", w.now - timedelta(minutes=30))
    w.tick()
    row = _row(w, change.id)  # the edit was noticed and stored...
    assert (row.first_text, row.text) == ("М1", "Маф1") and row.first_edited_at is not None
    # ...and changed nothing: the day's result stands and nothing about it is said again
    assert _died(w, "М1") == ("day 1", "vote") and _died(w, "Маф1") is None
    assert _bot_texts(w)[: len(said)] == said
    assert not any("отредактировано" in t for t in _bot_texts(w))
    w.close()


def test_C11_an_edit_once_stored_is_not_written_again_by_later_cycles(tmp_path):
    from sqlalchemy import event

    w = World(tmp_path)
    change = _day_with_a_change(w)
    w.now = T0 + timedelta(hours=4)
    w.forum.edit_post(change.id, "М1 (передумал)", w.now - timedelta(minutes=5))
    w.tick()
    w.now += timedelta(minutes=1)
    w.tick()  # stores what the bot itself posted in the last cycle
    statements: list[str] = []
    event.listen(w.daemon.engine, "before_cursor_execute", lambda conn, cur, sql, *rest: statements.append(sql))
    w.now += timedelta(minutes=1)
    w.tick()  # the edited post comes back again, unchanged: no write of it
    writes = [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    # the one write left is C-14's record of the tick's successful read (its span extended)
    assert [s.split()[:2] for s in writes] == [["UPDATE", "read_spans"]], writes
    w.close()


# --- an edit on an older page of a busy day: the re-read before the deadline --------------------------------


def _busy_day(w: World, page_size: int = 3):
    """The day of `_day_with_a_change` on a forum with small pages, then chatter that pushes M4's change onto
    an older page of the vote thread, which ordinary cycles no longer read."""
    w.forum.page_size = page_size
    change = _day_with_a_change(w)
    w.now = T0 + timedelta(hours=5)
    for n in range(3 * page_size):
        w.post("vote", ("М2", "М3")[n % 2], "ну и денёк", ago=timedelta(minutes=30 - n))
    w.tick()
    return change


def _older_page_edit(w: World, change) -> None:
    w.now = T0 + timedelta(hours=6)
    w.forum.edit_post(change.id, "М1 (передумал)", w.now - timedelta(minutes=5))
    w.tick()  # an ordinary cycle: reads the last page only
    assert _row(w, change.id).first_edited_at is None  # not seen yet: it is on an older page


def test_C11_a_vote_edited_on_an_older_page_is_voided_thanks_to_the_reread_before_the_deadline(tmp_path):
    w = World(tmp_path)
    change = _busy_day(w)
    _older_page_edit(w, change)
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    row = _row(w, change.id)
    assert row.first_edited_at == T0 + timedelta(hours=6) - timedelta(minutes=5) and row.first_text == "М1"
    assert _died(w, "Маф1") == ("day 1", "vote") and _died(w, "М1") is None
    # quoted as it reads now, the text first stored beside it (issue 17 item 15)
    assert any("Не засчитано: М4 «М1 (передумал)» (сначала было «М1») — сообщение отредактировано." in t
               for t in _bot_texts(w))
    w.close()


def test_C11_without_the_reread_an_edit_on_an_older_page_is_missed(tmp_path, caplog, monkeypatch):
    """The forum without `reread_from` (as an adapter lacking it): the daemon keeps today's behaviour and
    says so; the older-page edit is missed and M4's change counts. This is what the re-read fixes."""
    from forumbot.cycle import reread as tick

    monkeypatch.setattr(tick, "_warned_no_reread", set())
    w = World(tmp_path)
    w.forum.CAPABILITIES = w.forum.CAPABILITIES - {"reread_from"}  # declares it lacks the re-read
    change = _busy_day(w)
    _older_page_edit(w, change)
    w.now = T0 + timedelta(hours=24, minutes=1)
    with caplog.at_level("WARNING", logger="forumbot.tick"):
        w.tick()
    assert _row(w, change.id).first_edited_at is None
    assert _died(w, "М1") == ("day 1", "vote")
    assert not any("отредактировано" in t for t in _bot_texts(w))
    assert len([r for r in caplog.records if "older pages may be missed" in r.getMessage()]) == 1
    w.close()


def test_the_reread_runs_once_per_deadline_and_never_on_ordinary_cycles(tmp_path):
    w = World(tmp_path)
    change = _busy_day(w)
    _older_page_edit(w, change)
    for minutes in (10, 20, 30):  # ordinary cycles during the day: no re-read, the usual calls only
        w.now = T0 + timedelta(hours=6, minutes=minutes)
        before = len(w.forum.calls)
        w.tick()
        made = w.forum.calls[before:]
        assert not [c for c in made if c.startswith("reread_from")]
        assert made == ["fetch_pms", "fetch_posts g1/game", "fetch_posts g1/vote"]
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    assert [c for c in w.forum.calls if c.startswith("reread_from")] == ["reread_from g1/vote"]
    for minutes in (2, 3, 30):  # the cycles after it (the same deadline, and the night): no second re-read
        w.now = T0 + timedelta(hours=24, minutes=minutes)
        w.tick()
    w.restart()
    w.now = T0 + timedelta(hours=24, minutes=40)
    w.tick()
    assert [c for c in w.forum.calls if c.startswith("reread_from")] == ["reread_from g1/vote"]
    w.close()
