"""`forumbot probe`: what the bot understands of a board, field by field (issue 9 item 4).

It logs in (unless `guest`), reads one thread page and the inbox page, and reports: the engine the pages show,
each post as read (id, author, time and the zone assumed, edit notice, whether a quote or signature was
stripped), the pagination, the unread PMs (in the inbox, and in the thread page's header where the engine reads
it there), the pacing limits, every profile selector matched or not, and the
profile parts nobody has seen on a real board. Nothing is posted, no PM is opened (opening marks it read).
`check-config --online` runs the same checks and keeps only the problems.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping
from urllib.parse import urlparse
from zoneinfo import ZoneInfo

from forumbot.forum.registry import (  # the bundled adapters' page reading, through the one door to them
    detect_engine, extract_posts, inbox_problems, page_info, post_id, query_params, select, select_one, text,
    topic_problems,
)
from forumbot.texts import TABLES
from forumbot.errors import CaptchaRequired, FormRejected, ForumbotError, LoginRequired, PageFormatChanged
from forumbot.forum.adapter import THREAD_PAGE, can

# A login the board refused or could not be done as written: reported, not raised (the network failing is).
LOGIN_REFUSED = (LoginRequired, CaptchaRequired, FormRejected, PageFormatChanged)

# What the bot cannot read a thread without; every other selector may rightly match nothing on a given page
# (no post quotes anyone, the inbox is empty).
NEEDED_ON_TOPIC = ("post", "author", "time", "body", "page_end")
NEEDED_ON_INBOX = ("logged_in", "page_end")
WRITES_NOTHING = "not tried: probe writes nothing"  # an API adapter's reply and PM flows (`--handshake` tries them)


@dataclass
class ProbeReport:
    forum: str
    engine: str  # the engine configured (or given with --engine)
    detected: str | None  # the engine the pages show
    guest: bool
    thread: str
    timezone: str  # the zone local times are read in
    posts: list[dict[str, Any]] = field(default_factory=list)
    pagination: dict[str, Any] = field(default_factory=dict)
    inbox: dict[str, Any] | None = None
    # the unread-PM count the thread page's header shows, where the engine reads it (idle ticks then skip the
    # inbox while it is 0): {"engine_reads_it": bool, "unread": int | None}
    pm_header: dict[str, Any] = field(default_factory=dict)
    limits: dict[str, float] = field(default_factory=dict)
    selectors: dict[str, bool] = field(default_factory=dict)
    unverified: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # an adapter through a board's API (XenForo's REST API) has no pages: each flow it can try without writing,
    # "verified", "failing: why" or "not tried: why"
    api: bool = False
    flows: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["engine_detected"] = out.pop("detected")
        return out


def probe(adapter: Any, thread: str, *, forum: str = "", guest: bool = False, login: bool = True,
          language: str = "en") -> ProbeReport:
    """Read `thread` (and the inbox unless `guest`) through an HTML adapter and report what it made of them;
    `login=False` when the adapter has logged in already. A network failure propagates (ForumError); what the
    profile fails to find is in `problems`, worded in `language` (the GMs', issue 28 item 4)."""
    t = TABLES[language]
    profile = adapter.profile
    engine = profile.engine if profile is not None else adapter.engine
    tz = adapter.tz.key if isinstance(adapter.tz, ZoneInfo) else ""
    report = ProbeReport(forum=forum, engine=engine, detected=None, guest=guest, thread=thread, timezone=tz)
    if profile is None and can(adapter, THREAD_PAGE):
        return _probe_api(adapter, thread, report, t, login=login)
    if profile is None:
        report.problems.append(t["probe.html_only"].format(engine=engine))
        return report
    report.unverified = sorted(profile.unverified)
    # what the bot paces by: the profile's flood timers, as the forum table's `intervals` or `limits` changed them
    report.limits = dict(sorted(adapter.transport.intervals.items()))
    where = f"forums.{forum}" if forum else t["probe.where.profile"]
    if not guest and login:
        try:
            adapter.login()
        except LOGIN_REFUSED as e:
            report.problems.append(t["probe.cannot_log_in"].format(where=where, error=e))
            guest = True  # read what a guest sees: the thread may still tell what else is wrong
    try:
        tid = adapter.topic_id(thread)
    except ValueError as e:
        report.problems.append(t["probe.not_a_topic"].format(thread=thread, error=e))
        return report
    path = thread if re.match(r"https?://", thread) else adapter.url("topic", topic=tid)
    pages = []
    topic_page = adapter.get(path)
    topic_tree = topic_page.tree()
    pages.append(topic_tree)
    cookies = [c.name for c in adapter.transport.session.cookies]
    report.detected = detect_engine(topic_tree, topic_page.content.decode(topic_page.charset or "utf-8", "replace"),
                                    cookies)
    if report.detected and report.detected != engine:
        report.problems.append(t["probe.other_engine"].format(where=where, seen=report.detected, engine=engine))
    _read_posts(adapter, profile, topic_page, topic_tree, tid, report, t)
    report.problems.extend(topic_problems(adapter, topic_page))  # the tick's own checks (issue 17 item 20)
    _pagination(profile, topic_page.url, topic_tree, report)
    reads_header = adapter.shows_unread_pms
    report.pm_header = {"engine_reads_it": reads_header,
                        "unread": adapter.inbox.header_unread_pms(topic_tree) if reads_header else None}
    inbox_tree = None
    if not guest:
        inbox_page = adapter.get(adapter.url("inbox"))
        inbox_tree = inbox_page.tree()
        pages.append(inbox_tree)
        report.inbox = _inbox(adapter, profile, inbox_tree)
        report.inbox["url"] = inbox_page.url
        report.problems.extend(f"inbox: {p}" for p in inbox_problems(adapter, inbox_page))
    for name, css in profile.selectors.items():
        report.selectors[f"selectors.{name}"] = any(select_one(t, css) is not None for t in pages)
    for i, css in enumerate(profile.strip):
        report.selectors[f"strip[{i}]"] = any(select_one(t, css) is not None for t in pages)
    for name in NEEDED_ON_TOPIC:
        if select_one(topic_tree, profile.selectors[name]) is None:
            report.problems.append(t["probe.selector_missed"].format(
                name=name, css=repr(profile.selectors[name]), url=topic_page.url, forum=forum or "NAME"))
    if inbox_tree is not None:
        for name in NEEDED_ON_INBOX:
            if select_one(inbox_tree, profile.selectors[name]) is None:
                report.problems.append(t["probe.selector_missed_inbox"].format(
                    name=name, css=repr(profile.selectors[name]), url=inbox_page.url, forum=forum or "NAME"))
    return report


def _probe_api(adapter: Any, thread: str, report: ProbeReport, t: Mapping[str, str], *, login: bool) -> ProbeReport:
    """The flows an API adapter can try without writing (issue 28 item 7): who the key acts as, the thread's first
    page, the conversation list (not opened: opening marks a conversation read); each verified or failing.
    Posting and sending PMs are not tried: probe writes nothing."""
    report.api = True
    where = f"forums.{report.forum}" if report.forum else t["probe.where.api"]
    if not report.guest:
        if login:
            try:
                adapter.login()
                report.flows["login"] = "verified"
            except LOGIN_REFUSED as e:
                report.flows["login"] = f"failing: {e}"
                report.problems.append(t["probe.key_refused"].format(where=where, error=e))
        else:
            report.flows["login"] = "verified"
    try:
        posts, pages = adapter.thread_page(thread, 1)
    except ValueError as e:
        report.flows["thread"] = f"failing: {e}"
        report.problems.append(t["probe.not_a_topic"].format(thread=thread, error=e))
    except LOGIN_REFUSED as e:
        report.flows["thread"] = f"failing: {e}"
        report.problems.append(f"thread: {e}")
    else:
        report.flows["thread"] = "verified"
        report.posts = [_post_row(p) for p in posts]
        report.pagination = {"param": "page", "kind": "page", "current": 1, "pages": pages, "per_page": None,
                             "has_next": pages > 1, "example": "page=2"}  # the page size is the board's setting: not in the answer
    if not report.guest:
        try:
            rows, unread = adapter.inbox_counts()
        except LOGIN_REFUSED as e:
            report.flows["inbox"] = f"failing: {e}"
            report.problems.append(f"inbox: {e}")
        else:
            report.flows["inbox"] = "verified"
            report.inbox = {"rows": rows, "unread": unread}
    report.flows["reply"] = report.flows["pm"] = WRITES_NOTHING
    return report


def _post_row(p: Any, *, notice: bool = False, signed: bool = False) -> dict[str, Any]:
    return {
        "id": p.id, "author": p.author, "author_id": p.author_id,
        "posted_at": p.posted_at.isoformat(),
        "posted_latest": p.posted_latest.isoformat() if p.posted_latest else None,
        "edited_at": p.edited_at.isoformat() if p.edited_at else None,
        "edit_notice": notice, "quote_stripped": p.quoted, "signature_stripped": signed,
        "text": p.text,
    }


def _read_posts(adapter: Any, profile: Any, page: Any, tree: Any, tid: str, report: ProbeReport,
                t: Mapping[str, str]) -> None:
    sel = profile.selectors
    try:
        posts = extract_posts(tree, profile, adapter.ctx(page), tid)
    except ForumbotError as e:
        report.problems.append(f"posts: {e}")
        return
    elements = {post_id(el): el for el in select(tree, sel["post"])}
    for p in posts:
        el = elements.get(p.id)
        signed = el is not None and "signature" in sel and select_one(el, sel["signature"]) is not None
        notice = el is not None and "edit_notice" in sel and select_one(el, sel["edit_notice"]) is not None
        report.posts.append(_post_row(p, notice=notice, signed=signed))
    if not posts and select(tree, sel["post"]):
        report.problems.append(t["probe.no_post_read"].format(count=len(select(tree, sel["post"]))))


def _pagination(profile: Any, url: str, tree: Any, report: ProbeReport) -> None:
    pag = profile.pagination
    current = 0 if pag.kind == "offset" else 1
    value = query_params(url).get(pag.param)
    if value and value[0].isdigit():
        current = int(value[0])
    elif pag.in_path and (m := re.search(pag.in_path, urlparse(url).path)):
        current = int(m.group(1))
    info = page_info(tree, profile, current)
    report.pagination = {"param": pag.param, "kind": pag.kind, "current": info.start, "pages": info.pages,
                         "per_page": info.per_page or pag.per_page, "has_next": info.has_next,
                         "example": second_page_address(pag, info.per_page or pag.per_page)}


def second_page_address(pag: Any, per_page: int | None) -> str:
    """How the second page's address shows it («page=2», «/page-2», «topic=N.15», «start=10»), for a GM to
    recognise (issue 28: «страницы: page (page)» named the parameter twice and said nothing)."""
    second = "2" if pag.kind == "page" else str(per_page or "N")
    shape = pag.in_path or pag.pattern
    if not shape:
        return f"{pag.param}={second}"
    shape = re.sub(r"^\[[^\]]*\]", "", shape).replace(r"(\d+)", second).replace(r"\d+", "N")
    return shape.replace("\\", "")


def _inbox(adapter: Any, profile: Any, tree: Any) -> dict[str, Any]:
    sel = profile.selectors
    rows = len(select(tree, sel["pm_row_link"])) if "pm_row_link" in sel else None
    unread: int | None = None
    if "pm_unread" in sel:
        unread = len(select(tree, sel["pm_unread"]))
    elif "pm_unread_badge" in sel:
        badge = select_one(tree, sel["pm_unread_badge"])
        digits = re.findall(r"\d+", text(badge)) if badge is not None else []
        unread = int(digits[0]) if digits else 0
    else:  # XenForo: the count every page carries
        unread = adapter.unread_count_seen()
    return {"rows": rows, "unread": unread}
