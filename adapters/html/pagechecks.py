"""The checks a page the tick decides on must pass before anything is read off it (issue 17 items 16, 18, 19).

Shared by every HTML adapter (HtmlForum.get and read_page, its parts' forms and topic pages) and by `forumbot
probe`, which names each check a page fails instead of answering "all matched" on a page the tick refuses (item
20). Each check raises the typed error the tick reacts to; `problems` gives them all as text. They read the page
and the profile only, so the adapter's parts call them without going through the adapter."""

from __future__ import annotations

import codecs
import re
from typing import Any, Callable, Sequence

from lxml import etree

from adapters.html.extract import extract_posts, undecodable_posts
from adapters.html.dom import clean_text, find_form, select, select_one
from adapters.html.profile import HtmlProfile
from forumbot.forum.adapter import ForumPost
from forumbot.errors import CaptchaRequired, ForumbotError, PageFormatChanged, PageIncomplete, PageShowsError
from forumbot.forum.http_page import is_utf8_beyond_doubt
from forumbot.forum.http_page import Page
from forumbot.forum.unreadable import UnreadablePost

_HTML_END = re.compile(rb"</html\s*>", re.IGNORECASE)


def check_page(page: Page, profile: HtmlProfile) -> None:
    """Raise for pages that stand in the way: a captcha, or the login form where content was expected."""
    if page.status >= 400 and page.status not in (401, 403, 404):
        raise PageFormatChanged(f"{page.url}: HTTP {page.status}")
    tree = page.tree()
    if select_one(tree, profile.selectors["captcha"]) is not None:
        raise CaptchaRequired(f"{profile.engine}: captcha on {page.url}")


def is_login_page(page: Page, profile: HtmlProfile) -> bool:
    tree = page.tree()
    spec = profile.forms["login"]
    return (select_one(tree, profile.selectors["logged_in"]) is None
            and find_form(tree, spec.selector, spec.needs) is not None)


def check_complete(page: Page, profile: HtmlProfile) -> None:
    """A complete page has its closing </html> and the engine's page-end element (footer), which come after
    the posts and rows; a response cut short with HTTP 200 lacks them, and lxml would parse it silently."""
    if _HTML_END.search(page.content) is None or select_one(page.tree(), profile.selectors["page_end"]) is None:
        raise PageIncomplete(f"{profile.engine}: {page.url} came back incomplete "
                             f"({len(page.content)} bytes, no end of page); read again later")


def error_box(page: Page, profile: HtmlProfile, posts: Sequence[etree._Element] = ()) -> str:
    """The text of the engine's error box on `page` (its profile's `error` selector), outside the posts and
    outside forms other than the PM list's own; "" when it shows none. An error page's box stands alone; within a
    form, the selector also matches panels of ordinary pages (vBulletin 3.8's quick reply), which must not read as
    an error. A box inside the PM list's form is the inbox failing to show its rows (a fatal error SMF prints
    where the template stood, issue 26 item 9): read as "no PMs" it dropped the night's moves."""
    inside = set(posts)
    own_forms = _pm_list_forms(page, profile)
    said = []
    for el in select(page.tree(), profile.selectors["error"]):
        if any(a in inside or (a.tag == "form" and a not in own_forms) for a in el.iterancestors()):
            continue
        words = " ".join(clean_text(el).split())
        if words:
            said.append(words)
    return " ".join(said)


def _pm_list_forms(page: Page, profile: HtmlProfile) -> set[etree._Element]:
    """The forms that are (or hold) the profile's PM list container on `page`: none off the inbox."""
    sel = profile.selectors.get("pm_list")
    found: set[etree._Element] = set()
    for el in select(page.tree(), sel) if sel else ():
        found.update(a for a in (el, *el.iterancestors()) if a.tag == "form")
    return found


def check_error_box(page: Page, profile: HtmlProfile, posts: Sequence[etree._Element] = ()) -> None:
    """A page read to decide on (an inbox, a PM, a topic page) that shows the engine's error box, or answers
    403/404 with the logged-in marks intact, is no answer: read as "no PMs" it resolved a night without its
    moves (issue 17 item 16). PageShowsError, so the tick does not fold on it."""
    said = error_box(page, profile, posts)
    if said:
        raise PageShowsError(f"{profile.engine}: {page.url} shows an error (HTTP {page.status}): {said[:300]}")
    if page.status >= 400:
        raise PageShowsError(f"{profile.engine}: {page.url} answered HTTP {page.status}")


def check_posts_whole(page: Page, profile: HtmlProfile, posts: Sequence[ForumPost],
                      elements: Sequence[etree._Element]) -> None:
    """The posts read off a topic page are all it shows, each once (issue 17 item 19).

    Two posts with one id (ids are unique on a real board; the second would replace the first as an edit) are
    PageFormatChanged. A post body outside every post element read (SMF dropped a post silently once the posts
    stopped being direct children of form#quickModForm) means posts went unread: PageIncomplete."""
    seen: set[str] = set()
    for post in posts:
        if post.id in seen:
            raise PageFormatChanged(f"{profile.engine}: {page.url} shows post {post.id} twice; nothing is read "
                                    "off it")
        seen.add(post.id)
    members = set(elements)
    stray = [b for b in select(page.tree(), profile.selectors["body"])
             if not any(a in members for a in b.iterancestors())]
    if stray:
        raise PageIncomplete(f"{profile.engine}: {page.url} shows {len(stray)} post(s) outside the posts read "
                             f"({profile.selectors['post']!r} missed them); read again later")


def check_pm_list(page: Page, profile: HtmlProfile) -> None:
    """An inbox page without the engine's PM list container (its profile's `pm_list`, which the engine prints on
    an empty folder too) is no inbox: a theme, a changed template or a page in its place shows no rows the
    profile reads, and taken as "no PMs" it resolved a night without its moves (issue 17 item 16).
    PageFormatChanged naming the selector, so the tick folds nothing on it; engines whose empty folder is not
    known (no `pm_list`) are not checked."""
    sel = profile.selectors.get("pm_list")
    if sel and select_one(page.tree(), sel) is None:
        raise PageFormatChanged(f"{profile.engine}: {page.url} shows no PM list ({sel!r} matched nothing): not read "
                                "as an empty inbox (a custom style? override selectors.pm_list and pm_row)")


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
# Names browsers read as one encoding (WHATWG: latin-1 and ASCII labels mean windows-1252), or a subset of the
# other (ASCII of anything ASCII-based): no contradiction between them.
_SAME = {"latin-1": "cp1252", "ascii": None}


def _codec(name: str) -> str | None:
    try:
        found = codecs.lookup(name).name
    except LookupError:
        return name.lower()
    return _SAME.get(found, found)


def check_charset(page: Page, profile: HtmlProfile, posts: Sequence[etree._Element] = ()) -> None:
    """A page whose bytes are not in the charset it is decoded by reads as mojibake names, and those votes are
    "not in this game" (issue 17 item 18): a meta charset contradicting the header's, or bytes that do not decode
    in the charset used (a decode that would put U+FFFD in), is PageFormatChanged naming the charsets. Bytes that
    are UTF-8 beyond doubt are read as UTF-8 (forumbot.forum.http_page.page_charset): their labels do not matter.

    `posts`, a topic page's post elements: bytes that do not decode only inside some of them are those posts'
    problem, not the page's (issue 26 item 9: one post's damaged bytes refused its whole page, every vote on it
    unread for as long as the post stood). The page reads; the reader skips those posts and the GMs are told
    (adapters.html.extract, forumbot.forum.unreadable). Bytes outside every post, or in every post of a page of several,
    are the page's charset: refused."""
    by_bytes = page.charset in ("utf-8", "utf8") and is_utf8_beyond_doubt(page.content)
    header = _HEADER_CHARSET.search(page.headers.get("Content-Type", "") or "")
    meta = _META_CHARSET.search(page.content[:4096])
    if header and meta and not by_bytes:
        said, meant = header.group(1).lower(), meta.group(1).decode("ascii").lower()
        a, b = _codec(said), _codec(meant)
        if a and b and a != b:
            raise PageFormatChanged(f"{profile.engine}: {page.url} is labelled {said} by the server but {meant} "
                                    "by the page itself; nothing is read off it (a misconfigured board or proxy)")
    try:
        page.content.decode(page.charset)
    except UnicodeDecodeError as e:
        if posts and _only_in_some_posts(page.tree(), posts):
            return
        raise PageFormatChanged(f"{profile.engine}: {page.url} does not decode as {page.charset} (byte "
                                f"{page.content[e.start:e.start + 1].hex()} at {e.start}); nothing is read off it "
                                "(a page in another charset than it is labelled)") from None


def _only_in_some_posts(tree: etree._Element, posts: Sequence[etree._Element]) -> bool:
    """Whether every place the page's bytes did not decode lies inside a post, and (with two posts or more) not
    inside all of them."""
    damaged = undecodable_posts(tree, posts)
    return damaged is not None and (len(posts) < 2 or len(damaged) < len(posts))


_SKIPPED_FOR = {"nesting": "nests too deep to read", "bytes": "holds bytes the page's charset cannot show"}


def topic_problems(adapter: Any, page: Page) -> list[str]:
    """The tick's checks of a topic page, each failing one named (`forumbot probe`, issue 17 item 20): a probe
    that answers "all matched" on a page the tick refuses or misreads sends a GM into a game that stalls."""
    profile = adapter.profile
    tree = page.tree()

    def posts_whole() -> None:
        skipped: list[UnreadablePost] = []
        posts = extract_posts(tree, profile, adapter.ctx(page), "", skipped)
        elements = select(tree, profile.selectors["post"])
        if not elements:
            check_error_box(page, profile)
        check_posts_whole(page, profile, posts, elements)
        if skipped:
            raise PageFormatChanged("; ".join(f"post {p.id} by {p.author or '?'} {_SKIPPED_FOR[p.why]}: the tick "
                                              "skips it and tells the GMs" for p in skipped))

    return _run([("page end", lambda: check_complete(page, profile)),
                 ("charset", lambda: check_charset(page, profile, select(tree, profile.selectors["post"]))),
                 ("posts", posts_whole)])


def inbox_problems(adapter: Any, page: Page) -> list[str]:
    """The tick's checks of the inbox page (read_page's), each failing one named."""
    profile = adapter.profile

    def logged_in() -> None:
        if select_one(page.tree(), profile.selectors["logged_in"]) is None:
            raise PageFormatChanged(f"{page.url} shows no logged-in marks ({profile.selectors['logged_in']!r})")

    return _run([("logged in", logged_in), ("page end", lambda: check_complete(page, profile)),
                 ("charset", lambda: check_charset(page, profile)),
                 ("error box", lambda: check_error_box(page, profile)),
                 ("PM list", lambda: check_pm_list(page, profile))])


def _run(checks: Sequence[tuple[str, Callable[[], None]]]) -> list[str]:
    out = []
    for name, check in checks:
        try:
            check()
        except ForumbotError as e:
            out.append(f"check {name}: {e}")
    return out
