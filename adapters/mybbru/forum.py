"""The hosted mybb.ru / rusff engine (QuadroSystems; a PunBB 1.2 derivative, not MyBB), driven by MYBBRU.

Reading goes through the board's documented read API where it serves (`api.php?method=post.get`: JSON, exact
unix times, `limit` at most 100, `skip` to page); a board or forum where it does not (an error, no JSON, nothing
for a topic that has posts, or a topic too long for `skip`) is read from its HTML pages in PunBB markup. The
bot's cookie jar (the session hash cookie among it) goes with every API request, so hidden forums answer too.

Writing is PunBB's HTML forms, inherited from PunbbForum: login (`req_password` of at most 16 characters, a 200
"redirect" page on success), replies through post.php after the page's anti-bot `process_form()` step
(adapters/html/antibot.py), PMs through messages.php. Pages are windows-1251 (the transport decodes and encodes by
the page's charset). Topic and PM pages were never seen served: MYBBRU.unverified lists what rests on them.
"""

from __future__ import annotations

import html
import json
import logging
from datetime import datetime, timezone
from typing import Any

from lxml import etree

from adapters.html.dom import clean_text, inner_html, select, text
from adapters.html.profile import HtmlProfile
from adapters.mybbru.profile import MYBBRU
from adapters.punbb.forum import PunbbForum, PunbbTopics
from forumbot.forum.adapter import PREVIEW, ForumPM, ForumPost

log = logging.getLogger(__name__)

API_LIMIT = 100  # post.get answers at most 100 posts a call
API_MAX_SKIP = 1000  # and pages no deeper than about this (viper-f MybbAPI.js); longer topics are read as HTML
API_FIELDS = "id,username,user_id,message,posted,edited,edited_by,topic_id"

_FRAGMENT = etree.HTMLParser(encoding="utf-8", recover=True, no_network=True)


class ApiUnavailable(Exception):
    """The read API does not serve this topic; read the HTML pages instead."""


def api_items(data: Any) -> list[dict[str, Any]] | None:
    """The posts of a post.get answer; None when it holds none (an error, another shape).

    ENGINES.md §12 verifies the read API but states no answer's shape; §3 and every public userscript read
    post.get's posts as the array `response` itself (`data.response[0].message`), strings for numbers: that is
    the shape served. Tolerated besides, unverified for post.get: `response` an object holding the array under
    one key (as an API may nest a method's answer) or keyed by post id. Anything else is no answer: the topic is
    read from its pages."""
    items = data.get("response") if isinstance(data, dict) else None
    if isinstance(items, dict):
        lists = [v for v in items.values() if isinstance(v, list)]
        if len(lists) == 1:
            items = lists[0]
        elif items and all(isinstance(v, dict) for v in items.values()):
            items = list(items.values())
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        return None
    return items


class MybbruTopics(PunbbTopics):
    """mybb.ru's topics: read through api.php where the board serves it, else through PunBB's pages."""
    site: MybbruForum

    def fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        try:
            return self.site._api_fetch(topic, after)
        except ApiUnavailable as e:
            log.info("mybbru: read API not serving topic %s (%s); reading its pages", topic, e)
            return super().fetch_posts(topic, after)

    def reread_from(self, topic: str, post_id: str) -> list[ForumPost]:
        """Before a deadline (C-11): every post from `post_id` on, as the API has them now (the API cannot
        start at a post: it reads from the topic's start, 100 a request, once a day)."""
        tid = self.site.topic_id(topic)
        try:
            out: list[ForumPost] = []
            skip = 0
            while True:
                items = self.site.api_posts(tid, skip)
                out.extend(p for p in (self.site.api_post(i, tid) for i in items) if int(p.id) >= int(post_id))
                if len(items) < API_LIMIT:
                    return sorted(out, key=lambda p: int(p.id))
                skip += len(items)
        except ApiUnavailable:
            return super().reread_from(topic, post_id)


class MybbruForum(PunbbForum):
    """mybb.ru adapter. `MybbruForum("https://example.mybb.ru/", "GMBot", password, timezone_name="Europe/Moscow")`."""
    topics_type = MybbruTopics
    # Its reply form has a preview button (`preview`, fixtures/mybbru/c-reply-form-post.php-ru-cp1251...REAL-TRIMMED)
    # and an empty `div#ajaxpostpreview` a script may fill, but no page of the preview's answer is in any source
    # (ENGINES.md §3, §12): unverified, so the handshake's reply flow says «не проверено» here (issue 28 item 4)
    CAPABILITIES = PunbbForum.CAPABILITIES - {PREVIEW}

    engine = "mybbru"
    profile: HtmlProfile = MYBBRU

    # --- reading through api.php --------------------------------------------------------------------------

    def api_posts(self, tid: str, skip: int) -> list[dict[str, Any]]:
        if skip > API_MAX_SKIP:
            raise ApiUnavailable(f"skip {skip} is beyond what post.get pages to")
        page = self.transport.get(self.url("api"), params=[
            ("method", "post.get"), ("topic_id", tid), ("fields", API_FIELDS), ("sort_by", "id"),
            ("sort_dir", "asc"), ("limit", API_LIMIT), ("skip", skip)])
        try:
            data = page.json()
        except ValueError:
            raise ApiUnavailable(f"{page.url}: HTTP {page.status}, not JSON") from None
        items = api_items(data)
        if items is None:
            raise ApiUnavailable(f"{page.url}: {data.get('error') if isinstance(data, dict) else data!r:.300}")
        if not items:
            # A topic always has its first post; nothing at all (or nothing from where the cursor stands) is a
            # hidden forum the session does not open, or a shorter topic than the cursor knows: the pages say.
            raise ApiUnavailable(f"{page.url}: no posts")
        return items

    def api_post(self, item: dict[str, Any], topic: str) -> ForumPost:
        try:
            return self._api_post(item, topic)
        except (KeyError, TypeError, ValueError) as e:  # a field missing or not the number it should be
            raise ApiUnavailable(f"post.get item {str(item)[:200]} unreadable ({type(e).__name__}: {e})") from None

    def _api_post(self, item: dict[str, Any], topic: str) -> ForumPost:
        """One post.get item: `message` is entity-escaped HTML; `posted` (and `edited` when set) unix seconds."""
        markup = html.unescape(str(item.get("message") or ""))
        root = etree.fromstring(f"<html><body><div>{markup}</div></body></html>".encode("utf-8"), _FRAGMENT)
        body = root.find(".//body/div")
        assert body is not None
        posted = datetime.fromtimestamp(int(item["posted"]), timezone.utc)
        edited_raw = str(item.get("edited") or "0")
        edited = (datetime.fromtimestamp(int(edited_raw), timezone.utc)
                  if edited_raw.isdigit() and int(edited_raw) > 0 else None)
        return ForumPost(
            id=str(item["id"]), topic=topic, author=" ".join(html.unescape(str(item.get("username", ""))).split()),
            author_id=str(item["user_id"]) if item.get("user_id") not in (None, "") else None,
            posted_at=posted, edited_at=edited, edit_count=1 if edited else 0,
            text=clean_text(body, self.profile.strip), html=inner_html(body),
            quoted=bool(select(body, self.profile.selectors["quote"])))

    def _api_fetch(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        """The same cursor as the HTML reader ({"n": posts seen, "last": newest id}): start at the last post
        seen, one step back when everything there is new (posts deleted before it), on until a short answer."""
        tid = self.topic_id(topic)
        cur = json.loads(after) if after else {"n": 0, "last": 0}
        seen_n, last_id = int(cur.get("n", 0)), int(cur.get("last", 0))
        skip = max(seen_n - 1, 0)
        stepped_back = False
        out: dict[str, ForumPost] = {}
        while True:
            items = self.api_posts(tid, skip)
            if last_id and skip > 0 and items and int(items[0]["id"]) > last_id and not stepped_back:
                skip, stepped_back = max(skip - API_LIMIT, 0), True
                continue
            out.update((p.id, p) for p in (self.api_post(i, tid) for i in items))
            if len(items) < API_LIMIT:
                seen_n = skip + len(items)
                break
            skip += len(items)
        posts = sorted(out.values(), key=lambda p: int(p.id))
        last = max([last_id, *(int(p.id) for p in posts)])
        cursor = {"n": seen_n, "last": last, "pp": int(cur.get("pp") or self.profile.pagination.per_page)}
        return posts, json.dumps(cursor, separators=(",", ":"))

    # --- PMs: messages.php, PunBB 1.2's message list (unverified markup) ---------------------------------------

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        return self.inbox.fetch_numbered_pms(after, lambda page: self._message_rows(page.tree()),
                                             lambda _, pid, row: self.inbox.read_pm(pid, row[0]), None)

    def _message_rows(self, tree: etree._Element) -> dict[str, tuple[str, list[str]]]:
        """pm id -> (subject, the row's names: sender or recipients) per row of a messages.php folder."""
        rows: dict[str, tuple[str, list[str]]] = {}
        for row in select(tree, self.profile.selectors["pm_row"]):
            for link in select(row, self.profile.selectors["pm_row_link"]):
                pid = self.query_value(link.get("href", ""), "id")
                if pid and pid.isdigit():
                    names = [" ".join(text(td).split()) for td in select(row, self.profile.selectors["pm_row_users"])]
                    rows[pid] = (" ".join(text(link).split()), names)
                    break
        return rows

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        sent = self.read_page(self.url("sentbox"))
        rows = self._message_rows(sent.tree())
        ordered = sorted(rows, key=int, reverse=True)
        return self.inbox.own_pm_in([(pid, self.url("pm", pm=pid), rows[pid][1]) for pid in ordered], to, marker)
