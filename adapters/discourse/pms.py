"""Discourse PMs, an object DiscourseForum holds (issue 27 item 2: no mixin): one PM topic per set of recipients,
found in the bot's PM list and replied to; the inbox read from that list; the bot's own PM found by its marker
after a crash."""

from __future__ import annotations

import json
import logging
from datetime import timezone
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import parse_qs, quote, urlsplit

from adapters.dates import parse_iso
from adapters.discourse.text import CHUNK, REGULAR, cooked_text, username_lower
from adapters.html.inbox import MAX_INBOX_PAGES
from forumbot.forum.adapter import ForumPM
from forumbot.errors import FormRejected, PageFormatChanged, PostQueued
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport

log = logging.getLogger("adapters.discourse.forum")  # the adapter's logger, as before the split: log lines read the same


class DiscoursePMs:
    """The bot's PMs, handed what it uses of the adapter: the account's name, the transport, and the adapter's
    JSON reader (`json_of`), post creation (`create`), post loading (`posts`) and own-post test (`mine`)."""

    def __init__(self, username: str, transport: Transport, *, json_of: Callable[[Page], dict[str, Any]],
                 create: Callable[..., dict[str, Any]],
                 posts: Callable[[str, Mapping[str, Any], list[int]], list[dict[str, Any]]],
                 mine: Callable[[Mapping[str, Any]], bool]) -> None:
        self.username = username
        self.transport = transport
        self._json = json_of
        self._create = create
        self._posts = posts
        self._mine = mine
        # PM topics by recipients (lower-case names, without the bot), most recently active first
        self._pm_topics: dict[frozenset[str], list[tuple[str, str]]] = {}
        self._pm_list_read = False

    def send_pm(self, to: str, subject: str, text: str) -> str:
        """Reply in the PM topic the bot already has with exactly these recipients; open one only when there is
        none (or the forum refuses a reply there, e.g. it was closed). Its title is `subject` then."""
        names = _recipients(to)
        topic = self._pm_topic(names, subject)
        if topic is not None:
            try:
                data = self._create({"topic_id": int(topic), "raw": text}, action="pm")
                return str(data["id"])
            except PostQueued:
                raise
            except FormRejected as e:
                log.warning("discourse: a reply in PM topic %s was refused (%s); opening a new one", topic, e)
                self._forget_pm_topic(names, topic)
        data = self._create({"title": subject, "raw": text, "target_recipients": ",".join(names),
                             "archetype": "private_message"}, action="pm")
        if data.get("topic_id") is not None:
            key = self._key(names)
            self._pm_topics[key] = [(str(data["topic_id"]), subject), *self._pm_topics.get(key, [])]
        return str(data["id"])

    def _pm_topic(self, names: Sequence[str], subject: str) -> str | None:
        """The PM topic with exactly `names` (and the bot): one titled `subject` if any, else the most recently
        active; the bot's PM list is read once per process when the inbox has not been read yet."""
        key = self._key(names)
        if key not in self._pm_topics and not self._pm_list_read:
            self._learn_pm_topics(self._json(self.transport.get(self._pm_list_path())))
        found = self._pm_topics.get(key) or []
        for tid, title in found:
            if title == subject:
                return tid
        return found[0][0] if found else None

    def _key(self, names: Sequence[str]) -> frozenset[str]:
        return frozenset(username_lower(n) for n in names) - {username_lower(self.username)}

    def _forget_pm_topic(self, names: Sequence[str], topic: str) -> None:
        key = self._key(names)
        self._pm_topics[key] = [(t, title) for t, title in self._pm_topics.get(key, []) if t != topic]

    def _pm_list_path(self) -> str:
        return f"topics/private-messages/{quote(username_lower(self.username), safe='')}.json"

    def _learn_pm_topics(self, listing: Mapping[str, Any]) -> None:
        """Index the PM list's topics by their participants (TopicListItemSerializer: `participants` are the
        topic's users but the one asking, at most 3, named through the top-level `users`; `allowed_user_count`
        counts them all). Topics with a group among the recipients, closed or archived ones are skipped."""
        users = {u.get("id"): str(u.get("username", "")) for u in listing.get("users", []) if isinstance(u, dict)}
        me = username_lower(self.username)
        found: dict[frozenset[str], list[tuple[str, str]]] = {}
        for t in listing.get("topic_list", {}).get("topics", []):
            if t.get("closed") or t.get("archived") or t.get("participant_groups"):
                continue
            names = frozenset(username_lower(users.get(p.get("user_id"), ""))
                              for p in t.get("participants") or []) - {me}
            if not names or "" in names or t.get("allowed_user_count") not in (None, len(names) + 1):
                continue
            found.setdefault(names, []).append((str(t["id"]), str(t.get("title", ""))))
        self._pm_topics = found
        self._pm_list_read = True


    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's PM to `to` that contains `marker`, if any (outbox crash recovery): looked for at
        the end of each PM topic the bot has with exactly those recipients, from a fresh read of its PM list."""
        self._learn_pm_topics(self._json(self.transport.get(self._pm_list_path())))
        for tid, _ in self._pm_topics.get(self._key(_recipients(to)), []):
            data = self._json(self.transport.get(f"t/{tid}.json"))
            tail = data.get("post_stream", {}).get("stream", [])[-CHUNK:]
            for p in reversed(self._posts(tid, data, tail)):
                if self._mine(p) and (
                        marker in (p.get("raw") or "") or marker in (p.get("cooked") or "")):
                    return str(p["id"])
        return None

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        seen: dict[str, int] = json.loads(after)["t"] if after else {}
        listing = self._pm_list(lambda t: int(t.get("highest_post_number") or 0) > seen.get(str(t["id"]), 0))
        self._learn_pm_topics(listing)
        pms: list[ForumPM] = []
        for t in listing.get("topic_list", {}).get("topics", []):
            key, high = str(t["id"]), int(t.get("highest_post_number") or 0)
            if high <= seen.get(key, 0):
                continue
            data = self._json(self.transport.get(f"t/{key}.json"))
            stream = data.get("post_stream", {}).get("stream", [])
            posts = self._posts(key, data, stream[-max(high - seen.get(key, 0), 1):] if seen.get(key) else stream)
            for p in posts:
                if int(p.get("post_number", 0)) > seen.get(key, 0) and not self._mine(p) \
                        and p.get("post_type", REGULAR) == REGULAR:
                    pms.append(ForumPM(
                        id=str(p["id"]), author=p.get("username", ""),
                        author_id=str(p["user_id"]) if p.get("user_id") is not None else None,
                        sent_at=parse_iso(p["created_at"]).astimezone(timezone.utc),
                        subject=data.get("title", t.get("title", "")),
                        text=cooked_text(p.get("cooked") or ""), html=p.get("cooked") or ""))
            seen[key] = max([seen.get(key, 0), high, *(int(p.get("post_number", 0)) for p in posts)])
        pms.sort(key=lambda pm: (pm.sent_at, int(pm.id)))
        return pms, json.dumps({"t": seen}, sort_keys=True)

    def _pm_list(self, is_new: Callable[[Mapping[str, Any]], bool]) -> dict[str, Any]:
        """The PM list's first page and, while every conversation on the last page read has something new, the
        pages after it, as one listing. More conversations than a page holds may be bumped between two ticks;
        the list is sorted by bump, so those on page 2 would otherwise be read never (their new messages lie
        below the cursor once they are bumped no more). A page holding one conversation with nothing new ends
        the walk: the idle case costs one request."""
        path = self._pm_list_path()
        first = self._json(self.transport.get(path))
        users = list(first.get("users") or [])
        topics = list((first.get("topic_list") or {}).get("topics") or [])
        page, last = first, 0
        for _ in range(MAX_INBOX_PAGES - 1):
            shown = (page.get("topic_list") or {}).get("topics") or []
            more = (page.get("topic_list") or {}).get("more_topics_url")
            if not more or not shown or not all(is_new(t) for t in shown):
                break
            number = parse_qs(urlsplit(str(more)).query).get("page", [""])[0]
            if not number.isdigit() or int(number) <= last:
                raise PageFormatChanged(f"discourse: {path}: more_topics_url {more!r} names no later page")
            last = int(number)
            page = self._json(self.transport.get(f"{path}?page={last}"))
            users.extend(page.get("users") or [])
            topics.extend((page.get("topic_list") or {}).get("topics") or [])
        else:
            log.warning("discourse: the PM list walk stopped after %d pages; older conversations are read later",
                        MAX_INBOX_PAGES)
        return {"users": users, "topic_list": {"topics": topics}}


def _recipients(to: str) -> list[str]:
    return [n.strip() for n in to.split(",") if n.strip()]
