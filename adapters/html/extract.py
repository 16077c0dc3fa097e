"""Posts and page facts out of a topic page, driven by a profile and its hooks (no engine code here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence, cast
from urllib.parse import parse_qs, urlparse

from lxml import etree

from adapters.html.bounded import post_content
from adapters.html.hooks import Context
from adapters.html.dom import select, select_one, text
from adapters.html.profile import HtmlProfile
from forumbot.forum.adapter import ForumPost
from forumbot.errors import ForumbotError, PageFormatChanged
from forumbot.forum.htmlparse import FLATTENED
from forumbot.forum.http_page import UNDECODABLE, UNDECODABLE_PAGE
from forumbot.forum.unreadable import UnreadablePost

_DIGITS = re.compile(r"(\d+)$")
_NUMBER = re.compile(r"\d+")
_PATH_ID = re.compile(r"(?:^|/)(?:member\.php|profile|members?)/(\d+)(?:-[^/]*)?/?$")
_UNDECODABLE_AT = etree.XPath("//text()[contains(., $m)] | //@*[contains(., $m)]")


def undecodable_posts(tree: etree._Element, posts: Sequence[etree._Element]) -> set[etree._Element] | None:
    """The posts holding bytes that did not decode in the page's charset (forumbot.forum.http_page.UNDECODABLE), in
    their text or attributes; None when some lie outside every post."""
    damaged: set[etree._Element] = set()
    if tree.getroottree().getroot().get(UNDECODABLE_PAGE) is None:
        return damaged
    members = set(posts)
    for hit in cast(list[etree._ElementUnicodeResult], _UNDECODABLE_AT(tree, m=UNDECODABLE)):  # text, attributes
        holder = hit.getparent()
        if holder is not None and hit.is_tail:
            holder = holder.getparent()
        post = next((a for a in (holder, *holder.iterancestors()) if a in members), None) \
            if holder is not None else None
        if post is None:
            return None
        damaged.add(post)
    return damaged


def post_id(el: etree._Element) -> str | None:
    m = _DIGITS.search(el.get("id", ""))
    return m.group(1) if m else None


def query_params(url: str) -> dict[str, list[str]]:
    """A URL's query; ";" separates parameters too (SMF writes "index.php?action=profile;u=6")."""
    return parse_qs(urlparse(url).query.replace(";", "&"))


def user_id(link: etree._Element | None) -> str | None:
    if link is None:
        return None
    if link.get("data-user-id", "").isdigit():  # XenForo: members/name.ID/ links carry the id as data
        return link.get("data-user-id")
    url = urlparse(link.get("href", ""))
    query = query_params(link.get("href", ""))
    for key in ("u", "uid", "id"):
        if key in query:
            return query[key][0]
    # friendly URLs with the id in the path: vB4 member.php/13985-Rainmaker, IPS /profile/13603-fabiobassa/
    m = _PATH_ID.search(url.path)
    return m.group(1) if m else None


def by_post(tree: etree._Element, posts: set[etree._Element], selector: str) -> dict[etree._Element, list]:
    """Matches of `selector` anywhere on the page, grouped by the post that contains them.

    One selector run per page instead of one per post: extraction stays within a few times the parse.
    """
    out: dict[etree._Element, list] = {}
    for el in select(tree, selector):
        for anc in el.iterancestors():
            if anc in posts:
                out.setdefault(anc, []).append(el)
                break
    return out


def extract_posts(tree: etree._Element, profile: HtmlProfile, ctx: Context, topic: str,
                  unreadable: list[UnreadablePost] | None = None) -> list[ForumPost]:
    """The posts on a topic page. A post holding markup nested past the parser's bound is skipped and named in
    `unreadable` (issue 17 item 17): the rest of the page reads as if it were not there. Any other exception
    the profile's selectors and hooks lead to (a `[forums.NAME.profile]` override such as post = "html" with
    body = "*" raised TypeError) is PageFormatChanged naming the selectors read with (issue 17 item 21)."""
    try:
        return _extract_posts(tree, profile, ctx, topic, unreadable)
    except ForumbotError:
        raise
    except Exception as e:
        used = ", ".join(f"selectors.{k} = {profile.selectors[k]!r}" for k in _READ if k in profile.selectors)
        raise PageFormatChanged(f"{profile.engine}: reading the posts failed ({type(e).__name__}: {e}) with "
                                f"{used}") from e


_READ = ("post", "body", "author", "author_link", "time", "edit_notice", "quote", "signature")


def _extract_posts(tree: etree._Element, profile: HtmlProfile, ctx: Context, topic: str,
                   unreadable: list[UnreadablePost] | None) -> list[ForumPost]:
    sel = profile.selectors
    post_time = profile.hooks["post_time"]
    # Engines whose post element carries its own facts (Invision's data-quotedata): id, author, time from it
    post_meta = profile.hooks["post_meta"] if "post_meta" in profile.hooks else None
    edit_notice = profile.hooks["edit_notice"]
    elements = select(tree, sel["post"])
    members = set(elements)
    # Posts are siblings on every engine seen so far: search only their parent, not headers and footers.
    parents = {el.getparent() for el in elements}
    scope = parents.pop() if len(parents) == 1 else tree
    if scope is None:  # the root itself is the post (a profile override): search the whole page
        scope = tree
    found = {name: by_post(scope, members, sel[name])
             for name in ("body", "author", "author_link", "time", "edit_notice", "quote")}
    skip: set[etree._Element] = set()
    for strip in (*profile.strip, sel["signature"]):
        skip.update(select(scope, strip))
    flattened = set(by_post(scope, members, f"[{FLATTENED}]"))
    undecodable = undecodable_posts(tree, elements) or set()
    held = _held(tree, members, sel.get("held", ""))
    posts: list[ForumPost] = []
    for el in elements:
        meta = post_meta(el, ctx) if post_meta is not None else {}
        pid = meta.get("id") or post_id(el)
        body = _first(found["body"], el)
        if pid is None or body is None:
            continue  # an ignored or deleted-post placeholder: no body to read
        author_el = _first(found["author"], el)
        author = meta.get("author") or (" ".join(text(author_el).split()) if author_el is not None else "")
        if el in flattened:  # too deep to read faithfully: skipped, and the GMs are told (forumbot.forum.unreadable)
            if unreadable is not None:
                unreadable.append(UnreadablePost(topic, pid, author))
            continue
        if el in undecodable:  # bytes the page's charset cannot show: its words unknown, so skipped and told too
            if unreadable is not None:
                unreadable.append(UnreadablePost(topic, pid, author.replace(UNDECODABLE, "?"), why="bytes"))
            continue
        time_el = _first(found["time"], el)
        when = meta.get("time") or (post_time(time_el, ctx) if time_el is not None else None)  # a Span (C-1)
        if when is None:
            raise PageFormatChanged(f"{profile.engine}: post {pid} has no readable time")
        content, markup = post_content(body, skip)
        edited_at, edits = None, 0
        notice = _first(found["edit_notice"], el)
        if notice is not None:
            edited_at, edits = edit_notice(notice, ctx)
            # An edit is never earlier than its post; phpBB prints edit times to the minute, so an edit in the
            # minute of the post would read as before it and be dropped (C-11, issue 7 item 8).
            if edited_at is not None and edited_at < when.earliest:
                edited_at = when.earliest
        posts.append(ForumPost(
            id=pid, topic=topic,
            author=author,
            author_id=meta.get("author_id") or user_id(_first(found["author_link"], el)),
            posted_at=when.earliest, posted_latest=when.latest if when.rough else None,
            edited_at=edited_at, edit_count=edits,
            text=content, html=markup,
            quoted=any(body in q.iterancestors() for q in found["quote"].get(el, ())),
            held=el in held,
        ))
    return posts


def _held(tree: etree._Element, posts: set[etree._Element], selector: str) -> set[etree._Element]:
    """The posts that the engine's mark for a post held for a moderator is on, around or inside (Invision:
    `ipsModerated` on the article around the comment); none where the profile names no mark."""
    out: set[etree._Element] = set()
    for mark in select(tree, selector) if selector else ():
        if mark in posts:
            out.add(mark)
            continue
        out.update(el for el in posts if mark in el.iterancestors())  # around: the marks are few
        out.update(a for a in mark.iterancestors() if a in posts)  # inside
    return out


def _first(groups: dict[etree._Element, list], post: etree._Element) -> etree._Element | None:
    items = groups.get(post)
    return items[0] if items else None


@dataclass(frozen=True)
class PageInfo:
    """Where a topic page sits: its first post index, posts per page, how many pages, is there a next one."""

    start: int
    per_page: int | None
    pages: int | None
    has_next: bool


def page_info(tree: etree._Element, profile: HtmlProfile, current_start: int) -> PageInfo:
    """Read pagination links: offsets (phpBB `start=`) or page numbers (MyBB `page=`)."""
    pag = profile.pagination
    values = set()
    pattern = re.compile(pag.pattern) if pag.pattern else None
    for a in select(tree, profile.selectors["page_link"]):
        href = a.get("href", "")
        m = pattern.search(href) if pattern else None
        q = {pag.param: [m.group(1)]} if m else query_params(href)
        # a board without friendly URLs carries the path in the query (XenForo: index.php?threads/x.1/page-3)
        in_path = (re.search(pag.in_path, urlparse(href).path) or re.search(pag.in_path, urlparse(href).query)
                   if pag.in_path else None)
        if in_path:
            values.add(int(in_path.group(1)))
        elif pag.param in q and q[pag.param][0].isdigit():
            values.add(int(q[pag.param][0]))
        elif text(a).strip() == "1":
            values.add(0 if pag.kind == "offset" else 1)
    has_next = select_one(tree, profile.selectors["next_page"]) is not None
    if pag.kind == "offset":
        offsets = sorted(values | {current_start})
        steps = [b - a for a, b in zip(offsets, offsets[1:]) if b > a]
        per_page = min(steps) if steps else None
        pages = (max(offsets) // per_page + 1) if per_page else (1 if not values else None)
        return PageInfo(current_start, per_page, pages, has_next)
    numbers = values | {current_start}
    return PageInfo(current_start, None, max(numbers) if numbers else 1, has_next)
