"""Reading a topic of an HTML forum (HtmlForum's part): new posts after a cursor, the bot's own post by its
marker, and the re-read from a post onwards before a deadline (C-11)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeVar
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import extract_posts, page_info
from adapters.html.dom import select, select_one
from adapters.html.pagechecks import check_charset, check_complete, check_error_box, check_posts_whole, is_login_page
from adapters.html.profile import HtmlProfile
from forumbot.forum.adapter import ForumPost
from forumbot.errors import LoginRequired, PageFormatChanged, PageShowsError, PostGone, PostQueued
from forumbot.forum.http_page import Page
from forumbot.forum.unreadable import UnreadablePost

if TYPE_CHECKING:
    from adapters.html.hooks import Context

T = TypeVar("T")

# A re-read before a deadline follows "next" links at most this far (a loop guard; a day is far shorter).
MAX_REREAD_PAGES = 200


class HtmlTopics:
    """Mixed into HtmlForum, whose profile, pages (get, with_login, ctx) and
    unread-PM header note it uses."""

    profile: HtmlProfile
    username: str
    _unreadable: dict[str, UnreadablePost]

    if TYPE_CHECKING:  # HtmlForum's, which this mixin uses (declared for the type checker only; issue 27 item 2)
        def url(self, name: str, **values: Any) -> str: ...
        def topic_id(self, topic: str) -> str: ...
        def get(self, path: str, *, follow: bool = True) -> Page: ...
        def with_login(self, fn: Callable[[], T]) -> T: ...
        def ctx(self, page: Page) -> Context: ...
        def _note_pm_header(self, tree: etree._Element) -> None: ...


    def page_path(self, tid: str, index: int, per_page: int) -> str:
        """The page that holds the post with 0-based `index`."""
        pag = self.profile.pagination
        if pag.kind == "offset":
            start = (index // per_page) * per_page
            return self.url("topic", topic=tid) if start == 0 else self.url("topic_page", topic=tid, start=start)
        number = index // per_page + 1
        return self.url("topic", topic=tid) if number == 1 else self.url("topic_page", topic=tid, start=number)

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        posts, cursor = self.with_login(lambda: self._fetch_posts(topic, after))
        # The daemon files posts under the thread as configured (often a URL) and routes them to a game by
        # it; under the bare topic id they would reach no game.
        return [replace(p, topic=topic) for p in posts], cursor

    def _fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        tid = self.topic_id(topic)
        cur = json.loads(after) if after else {"n": 0, "last": 0}
        seen_n, last_id = int(cur.get("n", 0)), int(cur.get("last", 0))
        per_page = int(cur.get("pp") or self.profile.pagination.per_page)
        # Start at the page holding the last post already seen: it always exists, and a new post is on it or
        # after it. An idle topic costs one request.
        index = max(seen_n - 1, 0)
        new: list[ForumPost] = []
        # Posts already seen on the pages read anyway: handed back too, so an edit is noticed (C-11). The
        # store records only what changed; the last page is read every cycle, so recent votes are covered.
        again: dict[str, ForumPost] = {}
        read: dict[str, tuple[Page, etree._Element, list[ForumPost]]] = {}  # no page is fetched twice
        while True:
            path = self.page_path(tid, index, per_page)
            if path not in read:
                read[path] = self._topic_page(path, tid)
            page, tree, posts = read[path]
            param = self._page_param(index, per_page)
            info = page_info(tree, self.profile, param)
            count = len(select(tree, self.profile.selectors["post"]))
            # Learn the real page size (a user setting on MyBB): from offsets, else from a full page.
            if info.per_page:
                per_page = info.per_page
            elif info.has_next and count:
                per_page = count
            page_start = param if self.profile.pagination.kind == "offset" else (param - 1) * per_page
            # Posts deleted before our position shift everything left: if the first page read, the one that
            # should hold the last post seen, is all new, the posts after it may start a page earlier. One
            # step back at most; a later page all new is simply where new posts opened a page (issue 7 item 5).
            if last_id and page_start > 0 and posts and int(posts[0].id) > last_id and len(read) == 1:
                index = page_start - 1
                continue
            new.extend(p for p in posts if int(p.id) > last_id)
            again.update((p.id, p) for p in posts if int(p.id) <= last_id)
            if not info.has_next:
                seen_n = page_start + count
                break
            index = page_start + per_page
        last = max([last_id, *(int(p.id) for p in new)])
        out = sorted([*again.values(), *new], key=lambda p: int(p.id))
        return out, json.dumps({"n": seen_n, "last": last, "pp": per_page}, separators=(",", ":"))

    def find_own_post(self, topic: str, marker: str) -> str | None:
        return self.with_login(lambda: self._find_own_post(topic, marker))

    def _find_own_post(self, topic: str, marker: str) -> str | None:
        tid = self.topic_id(topic)
        for page in self.recent_pages(tid):
            hit = self.own_posts_with(page.tree(), page, tid, marker)
            if hit:
                return hit
        return None

    def recent_pages(self, tid: str) -> Iterator[Page]:
        """The pages where a message the bot posted lately may be, newest first, each read when the one before
        did not hold it: the last two (the bot's message is recent). Whole pages only: a marker missed on a
        page cut short would send the message twice. Here the last page, then the page its `prev_page` link
        names; an engine that finds its pages otherwise overrides this alone."""
        page = self._topic_page(self.url("last_page", topic=tid), tid)[0]
        yield page
        prev = select_one(page.tree(), self.profile.selectors["prev_page"])
        if prev is not None:
            yield self._topic_page(urljoin(page.url, prev.get("href", "")), tid)[0]

    def numbered_recent_pages(self, tid: str, first: Page, last: int) -> Iterator[Page]:
        """`recent_pages` for engines that number their pages from 1 and show the count on page 1 (FlaskBB,
        XenForo): the last two, then page 1 (already read) when it is one of them."""
        for number in range(last, max(last - 2, 1), -1):
            yield self._topic_page(self.url("topic_page", topic=tid, start=number), tid)[0]
        if last <= 2:
            yield first

    def _topic_page(self, path: str, tid: str) -> tuple[Page, etree._Element, list[ForumPost]]:
        """A whole topic page, its tree and its posts. Topics may be open to guests: only a page without posts
        is taken for a login page; a page cut short is PageIncomplete (issue 7 item 9)."""
        page = self.get(path)
        tree = page.tree()
        if not select(tree, self.profile.selectors["post"]) and is_login_page(page, self.profile):
            raise LoginRequired(f"{self.profile.engine}: topic {tid} needs login")
        check_complete(page, self.profile)
        check_charset(page, self.profile, select(tree, self.profile.selectors["post"]))
        self._note_pm_header(tree)
        skipped: list[UnreadablePost] = []
        posts = extract_posts(tree, self.profile, self.ctx(page), tid, skipped)
        check_posts_whole(page, self.profile, posts, select(tree, self.profile.selectors["post"]))
        self._unreadable.update((p.id, p) for p in skipped)
        if not posts and not select(tree, self.profile.selectors["post"]):
            check_error_box(page, self.profile)  # what the forum said in the posts' place, when it said it
            raise PageFormatChanged(f"{self.profile.engine}: no posts on {page.url}")
        return page, tree, posts

    def reread_from(self, topic: str, post_id: str, ids: Sequence[str] = ()) -> list[ForumPost]:
        """Every post of `topic` from the page holding `post_id` to the last page, as they are now.

        Run before a day's deadline resolves, so an edit of a vote post on an older page is seen (C-11). The
        forum's post link lands on the right page; the pages after it are followed by their "next" links. A
        post link answering an error (a deleted post) is PostGone.
        `ids` (the stored ids from `post_id` on) is not needed here: pages hold every post."""
        posts = self.with_login(lambda: self._reread_from(topic, post_id))
        return [replace(p, topic=topic) for p in posts]

    def _reread_from(self, topic: str, post_id: str) -> list[ForumPost]:
        tid = self.topic_id(topic)
        path = self.url("post_page", post=int(post_id))
        out: dict[str, ForumPost] = {}
        visited: set[str] = set()
        while len(visited) < MAX_REREAD_PAGES:
            try:
                page, tree, posts = self._topic_page(path, tid)
            except PageShowsError as e:
                if visited:
                    raise
                # the post's own link answers 404/403 or the engine's error: the post is gone (issue 26 item 3)
                raise PostGone(f"{self.profile.engine}: post {post_id} of topic {tid}: {e}") from e
            visited.add(page.url)
            out.update((p.id, p) for p in posts)
            link = select_one(tree, self.profile.selectors["next_page"])
            href = link.get("href", "") if link is not None else ""
            if not href:
                break
            path = urljoin(page.url, href)
            if path in visited:
                break
        return sorted(out.values(), key=lambda p: int(p.id))

    def _page_param(self, index: int, per_page: int) -> int:
        start = (index // per_page) * per_page
        return start if self.profile.pagination.kind == "offset" else start // per_page + 1

    def own_posts_with(self, tree: etree._Element, page: Page, topic: str, marker: str) -> str | None:
        """The id of the bot's post holding `marker` on this page; PostQueued when the engine marks it held for a
        moderator: the bot sees its own queued post, the players do not, so it is not out (find_own_post)."""
        for post in reversed(extract_posts(tree, self.profile, self.ctx(page), topic)):
            if post.author == self.username and (marker in post.text or marker in post.html):
                if post.held:
                    raise PostQueued(f"{self.profile.engine}: the bot's post {post.id} in topic {topic}, found after "
                                     f"an interrupted send, awaits a moderator's approval", pending_id=post.id)
                return post.id
        return None
