"""What the GMs are told about the outbox: a message the forum refused for good, a post held for a moderator's
approval; and shadow mode's digest PM, in chunks a forum takes."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Sequence

from forumbot.errors import FormRejected, PostQueued
from forumbot.model import Message, Where
from forumbot.outbox.store import Delivery, Destination, update_rows, enqueue
from forumbot.store.models import OutboxRow
from forumbot.store.records import store_undelivered

log = logging.getLogger("forumbot.outbox")  # the outbox's logger, as before the split: the log lines read the same

# shadow mode: how much one PM to the GM may carry; forums cap PM length (phpBB's default is 60,000 bytes, some
# hosted boards much lower), so stay far below
SHADOW_PM_LIMIT = 4000

NOTICE = "refused/"  # key prefix of the PMs telling the GMs a message was refused


def record_refused(sessions, target: Destination, rows: list[OutboxRow], error: FormRejected, now: datetime,
             report: Delivery) -> None:
    why = f"{type(error).__name__}: {error}"
    update_rows(sessions, rows, status="refused", batch=None, last_error=why)
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    for row in rows:
        heading = words[row.where].format(to=row.to or "")
        log.error("%s: the forum refused %s (%s): %s; set aside, delivery goes on", target.game, heading,
                  row.key, error)
        report.refused.append(row.key)
    notices = [row for row in rows if not row.key.startswith(NOTICE)]  # a refused notice is only logged
    if not notices:
        return
    text = refusal_text(notices, str(error), target)  # one per refused send: a shadow digest is one
    with sessions.begin() as session:
        enqueue(session, target.game_id, target.game, [
            Message(at=now, where=Where.PM, to=gm, key=f"{NOTICE}{notices[0].key}/{gm}", text=text)
            for gm in target.gms
        ], origin="shell")


def record_undelivered(sessions, target: Destination, row: OutboxRow, now: datetime, report: Delivery) -> None:
    """A PM of the game's own (the fold's) the forum refused for good to deliver is an input of the game too:
    the fold may act on it (S-4: an offer passes to the next of the reserve at once, not when it lapses)."""
    if row.where != Where.PM or row.origin != "core" or target.shadowed(row):
        return
    with sessions.begin() as session:
        if store_undelivered(session, target.game_id, row.id, row.key, row.to or "", now):
            report.undelivered.append(row.key)


def record_lock_refused(sessions, target: Destination, row: OutboxRow, error: FormRejected, now: datetime,
                        report: Delivery) -> None:
    """R-13: a lock or unlock the forum refused is set aside and told to every GM by PM once per game (a bot with no
    moderator's right would be refused at every phase); later ones are logged and listed by `game status`."""
    why = f"{type(error).__name__}: {error}"
    update_rows(sessions, [row], status="refused", batch=None, last_error=why)
    report.refused.append(row.key)
    log.error("%s: the forum refused to %s the %s thread (%s): %s; the game goes on", target.game, row.text, row.to,
              row.key, error)
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    if row.text == "close":  # M-15: the conference conversation, closed by its PM all the same
        text, kind = words["close_refused"].format(why=target.escape(str(error))), "close"
    else:
        what = words[f"{row.text}/{row.to}"]
        text, kind = words["lock_refused"].format(what=what, why=target.escape(str(error))), "lock"
    with sessions.begin() as session:
        enqueue(session, target.game_id, target.game, [
            Message(at=now, where=Where.PM, to=gm, key=f"{NOTICE}{kind}/{gm}", text=text) for gm in target.gms
        ], origin="shell")


def refusal_text(rows: Sequence[OutboxRow], why: str, target: Destination) -> str:
    """What the GMs are told: which messages the forum refused, how each began, and the forum's reason."""
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    items = []
    for row in rows:
        heading = words[row.where].format(to=target.escape(row.to or ""))
        first = target.escape(row.text.strip().splitlines()[0][:200]) if row.text.strip() else ""
        items.append(words["refused_item"].format(what=heading, key=target.escape(row.key), first=first))
    return words["refused"].format(why=target.escape(why), items="\n".join(items))


_HEADINGS = {
    "ru": {"game": "В игровую тему", "vote": "В тему голосования", "signup": "В тему набора", "pm": "ЛС для {to}",
           "refused": "Форум отказался принять сообщение, оно не отправлено.\nПричина: {why}\n{items}\n"
                      "Остальные сообщения игры отправляются дальше.",
           "refused_item": "— {what} ({key}), начало: {first}",
           #
           "lock": "Модерация темы ({to})", "lock/vote": "закрыть тему голосования",
           "unlock/vote": "открыть тему голосования", "lock/game": "закрыть игровую тему",
           "unlock/game": "открыть игровую тему",
           "close_refused": "Форум не дал боту закрыть от ответов переписку мафии (M-15).\nПричина: {why}\n"
                            "Конференция закрыта сообщением в ней; игра идёт как обычно.",
           "lock_refused": "Форум не дал боту {what} (lock_threads, R-13).\nПричина: {why}\n"
                           "Игра идёт как обычно: посты в теме читаются, как всегда. Чтобы бот закрывал темы, дайте "
                           "его учётной записи право модератора в разделе игры. Об отказах дальше в этой игре бот "
                           "не пишет, они видны в game status."},
    "en": {"game": "To the game thread", "vote": "To the vote thread", "signup": "To the sign-up thread", "pm": "PM to {to}",
           "refused": "The forum refused a message; it was not sent.\nReason: {why}\n{items}\n"
                      "The game's other messages go on being delivered.",
           "refused_item": "- {what} ({key}), beginning: {first}",
           #
           "lock": "Thread moderation ({to})", "lock/vote": "lock the vote thread",
           "unlock/vote": "unlock the vote thread", "lock/game": "lock the game thread",
           "unlock/game": "unlock the game thread",
           "close_refused": "The forum did not let the bot lock the mafia's conversation against replies (M-15).\n"
                            "Reason: {why}\nThe conference was closed by a message in it; the game goes on as usual.",
           "lock_refused": "The forum did not let the bot {what} (lock_threads, R-13).\nReason: {why}\n"
                           "The game goes on as usual: posts in the thread are read as always. For the bot to lock "
                           "threads, give its account a moderator's right in the game's forum. Further refusals in "
                           "this game are not told again; game status lists them."},
}


def shadow_text(rows: Sequence[OutboxRow], target: Destination) -> str:
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    parts = []
    for row in rows:
        heading = words[row.where].format(to=target.escape(row.to or ""))
        parts.append(f"=== {heading} ===\n{row.text}")
    return "\n\n".join(parts)


def split_chunks(rows: list[OutboxRow], target: Destination) -> list[list[OutboxRow]]:
    chunks: list[list[OutboxRow]] = []
    size = 0
    for row in rows:
        length = len(row.text) + 60
        if not chunks or size + length > SHADOW_PM_LIMIT:
            chunks.append([])
            size = 0
        chunks[-1].append(row)
        size += length
    return chunks


# --- held for approval ------------------------------------------------------------------------------------

QUEUED_NOTICE = "queued/"  # key prefix of the PMs telling the GMs a post awaits approval

_QUEUED_TEXT = {
    "ru": {"head": "Форум поставил сообщение в очередь на проверку модератором; бот не отправит его снова.\n"
                   "Форум: {why}\n{items}\nОно появится, когда модератор его одобрит.",
           "item": "— {what} ({key}), начало: {first}"},
    "en": {"head": "The forum queued a message for a moderator's approval; the bot will not send it again.\n"
                   "Forum: {why}\n{items}\nIt appears once a moderator approves it.",
           "item": "- {what} ({key}), beginning: {first}"},
}


def record_queued(sessions, target: Destination, rows: list[OutboxRow], error: PostQueued, now: datetime,
            report: Delivery) -> None:
    """Set the rows aside as "queued" and tell each GM, once per send (a shadow digest is one)."""
    update_rows(sessions, rows, status="queued", batch=None, remote_id=f"pending:{error.pending_id or ''}",
            last_error=f"{type(error).__name__}: {error}")
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    text = _QUEUED_TEXT.get(target.language, _QUEUED_TEXT["en"])
    items = []
    for row in rows:
        log.warning("%s: %s (%s) awaits a moderator's approval: %s", target.game,
                    words[row.where].format(to=row.to or ""), row.key, error)
        report.queued.append(row.key)
        if not row.key.startswith(QUEUED_NOTICE):  # a queued notice is only logged
            first = target.escape(row.text.strip().splitlines()[0][:200]) if row.text.strip() else ""
            items.append(text["item"].format(what=words[row.where].format(to=target.escape(row.to or "")),
                                             key=target.escape(row.key), first=first))
    if not items:
        return
    body = text["head"].format(why=target.escape(str(error)), items="\n".join(items))
    with sessions.begin() as session:
        enqueue(session, target.game_id, target.game, [
            Message(at=now, where=Where.PM, to=gm, key=f"{QUEUED_NOTICE}{rows[0].key}/{gm}", text=body)
            for gm in target.gms], origin="shell")
