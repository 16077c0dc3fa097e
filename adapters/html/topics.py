"""Reading a topic of an HTML forum (HtmlForum's topics part): new posts after a cursor, the bot's own post by its
marker, and the re-read from a post onwards before a deadline (C-11)."""

from __future__ import annotations

import json
from typing import Callable, Iterator
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import extract_posts, page_info
from adapters.html.dom import select, select_one
from adapters.html.pagechecks import check_charset, check_complete, check_error_box, check_posts_whole, is_login_page
from adapters.html.profile import HtmlProfile
from adapters.html.site import PageSite
from forumbot.forum.adapter import ForumPost
from forumbot.errors import LoginRequired, PageFormatChanged, PageShowsError, PostGone, PostQueued
from forumbot.forum.http_page import Page
from forumbot.forum.unreadable import UnreadablePost

# A re-read before a deadline follows "next" links at most this far (a loop guard; a day is far shorter).
MAX_REREAD_PAGES = 200


class HtmlTopics:
    """The adapter's topics part (`HtmlForum.topics`); an engine that reads its topics otherwise subclasses it and
    names the subclass in its adapter's `topics_type`. Pages come through the adapter's fetcher (`site`); each
    topic page read is handed to `note_page` (the inbox part's header count); the posts skipped as unreadable
    wait in `unreadable` for the adapter's `take_unreadable`."""

    def __init__(self, site: PageSite, username: str, note_page: Callable[[etree._Element], None]) -> None:
        self.site = site
        self.username = username
        self.note_page = note_page
        self.unreadable: dict[str, UnreadablePost] = {}  # posts skipped by the reads since `take_unreadable`

    @property
    def profile(self) -> HtmlProfile:
        return self.site.profile

    def page_path(self, tid: str, index: int, per_page: int) -> str:
        """The page that holds the post with 0-based `index`."""
        pag = self.profile.pagination
        if pag.kind == "offset":
            start = (index // per_page) * per_page
            return (self.site.url("topic", topic=tid) if start == 0
                    else self.site.url("topic_page", topic=tid, start=start))
        number = index // per_page + 1
        return (self.site.url("topic", topic=tid) if number == 1
                else self.site.url("topic_page", topic=tid, start=number))

    def fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        tid = self.site.topic_id(topic)
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
                read[path] = self.topic_page(path, tid)
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
        tid = self.site.topic_id(topic)
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
        page = self.topic_page(self.site.url("last_page", topic=tid), tid)[0]
        yield page
        prev = select_one(page.tree(), self.profile.selectors["prev_page"])
        if prev is not None:
            yield self.topic_page(urljoin(page.url, prev.get("href", "")), tid)[0]

    def numbered_recent_pages(self, tid: str, first: Page, last: int) -> Iterator[Page]:
        """`recent_pages` for engines that number their pages from 1 and show the count on page 1 (FlaskBB,
        XenForo): the last two, then page 1 (already read) when it is one of them."""
        for number in range(last, max(last - 2, 1), -1):
            yield self.topic_page(self.site.url("topic_page", topic=tid, start=number), tid)[0]
        if last <= 2:
            yield first

    def topic_page(self, path: str, tid: str) -> tuple[Page, etree._Element, list[ForumPost]]:
        """A whole topic page, its tree and its posts. Topics may be open to guests: only a page without posts
        is taken for a login page; a page cut short is PageIncomplete (issue 7 item 9)."""
        page = self.site.get(path)
        tree = page.tree()
        if not select(tree, self.profile.selectors["post"]) and is_login_page(page, self.profile):
            raise LoginRequired(f"{self.profile.engine}: topic {tid} needs login")
        check_complete(page, self.profile)
        check_charset(page, self.profile, select(tree, self.profile.selectors["post"]))
        self.note_page(tree)
        skipped: list[UnreadablePost] = []
        posts = extract_posts(tree, self.profile, self.site.ctx(page), tid, skipped)
        check_posts_whole(page, self.profile, posts, select(tree, self.profile.selectors["post"]))
        self.unreadable.update((p.id, p) for p in skipped)
        if not posts and not select(tree, self.profile.selectors["post"]):
            check_error_box(page, self.profile)  # what the forum said in the posts' place, when it said it
            raise PageFormatChanged(f"{self.profile.engine}: no posts on {page.url}")
        return page, tree, posts

    def reread_from(self, topic: str, post_id: str) -> list[ForumPost]:
        """Every post of `topic` from the page holding `post_id` to the last page, as they are now.

        Run before a day's deadline resolves, so an edit of a vote post on an older page is seen (C-11). The
        forum's post link lands on the right page; the pages after it are followed by their "next" links. A
        post link answering an error (a deleted post) is PostGone."""
        tid = self.site.topic_id(topic)
        path = self.site.url("post_page", post=int(post_id))
        out: dict[str, ForumPost] = {}
        visited: set[str] = set()
        while len(visited) < MAX_REREAD_PAGES:
            try:
                page, tree, posts = self.topic_page(path, tid)
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
        for post in reversed(extract_posts(tree, self.profile, self.site.ctx(page), topic)):
            if post.author == self.username and (marker in post.text or marker in post.html):
                if post.held:
                    raise PostQueued(f"{self.profile.engine}: the bot's post {post.id} in topic {topic}, found after "
                                     f"an interrupted send, awaits a moderator's approval", pending_id=post.id)
                return post.id
        return None
