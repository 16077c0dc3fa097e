"""Named hooks: the few things a profile cannot declare. Each is pure and reads the tree without changing it.

A profile names its hooks by role, as the functions themselves (`profile.hooks["post_time"] is mybb_post_date`).
Date and edit hooks get the element the profile's selector matched ("time", "edit_notice", "pm_time"). Post and
PM time hooks give the Span of instants the printed time allows (C-1); edit hooks give one datetime.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable
from zoneinfo import ZoneInfo

from lxml import etree

from adapters.html.antibot import antibot_fields
from adapters.dates import Span, forum_date_span, parse_forum_date, parse_iso
from adapters.html.dom import select, text
from adapters.html.profile import HtmlProfile


@dataclass(frozen=True)
class Context:
    """What date hooks need: the profile, the zone the forum shows the bot, and 'now' on the server."""

    profile: HtmlProfile
    tz: ZoneInfo | timezone
    now: datetime

    def date(self, text: str) -> datetime | None:
        return parse_forum_date(text, self.tz, self.now, self.profile.date_order)

    def span(self, text: str) -> Span | None:
        return forum_date_span(text, self.tz, self.now, self.profile.date_order)


# --- post times -----------------------------------------------------------------------------------------


def time_element(el: etree._Element, ctx: Context) -> Span | None:
    """phpBB 3.2+: <time datetime="2026-11-26T12:07:09+00:00">, exact and in UTC."""
    value = el.get("datetime")
    if value:
        at = parse_iso(value).astimezone(timezone.utc)
        return Span(at, at)
    return ctx.span(text(el))


def mybb_date_text(el: etree._Element) -> str:
    """MyBB prints `<span title="29.11.2026">Today</span>, 02:17` (or a title holding date and time):
    the exact value is the title plus the trailing time. The nested edit notice is not part of it."""
    rel = el.find(".//span[@title]")
    if rel is not None and rel.getparent() is el:
        title = rel.get("title", "")
        tail = (rel.tail or "").strip(" ,\t\n")
        return title if ":" in title or not tail else f"{title}, {tail}"
    parts = [el.text or ""]
    for child in el:
        if "post_edit" in (child.get("class") or ""):
            break
        parts.append(text(child))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def mybb_post_date(el: etree._Element, ctx: Context) -> Span | None:
    """MyBB: the span.post_date of a post or PM ("1 минуту назад", "Today, 02:17": rough, C-1)."""
    return ctx.span(mybb_date_text(el))


def phpbb_pm_sent_line(line: etree._Element, ctx: Context) -> Span | None:
    """phpBB PM view: `<p class="author"><strong>Sent:</strong> 29 ноя 2026, 10:27<br>...` (no <time>)."""
    first = line.find("strong")
    text = (first.tail if first is not None else line.text) or ""
    return ctx.span(text)


def text_date(el: etree._Element, ctx: Context) -> Span | None:
    """A date printed as text and nothing else in the element, as the range it allows (C-1): SMF ("29 ноября
    2026, 17:26", "<strong>Сегодня</strong> в 11:06", "November 29, 2026, 05:26:31 PM") and PunBB / FluxBB /
    mybb.ru permalinks ("29.11.2026 17:29", "Сегодня 10:08", "2026-03-16 15:14:23")."""
    return ctx.span(text(el))


def smf_pm_date(el: etree._Element, ctx: Context) -> Span | None:
    """SMF PM header: `<strong>To:</strong> <a>gm_bot</a> <strong>on:</strong> <strong>Today</strong> at 11:06`;
    the date is what follows the last name link (a name may hold digits and colons)."""
    links = el.findall(".//a")
    if not links:
        return ctx.span(text(el))
    parts = [links[-1].tail or ""]
    node = links[-1].getnext()
    while node is not None:
        parts.append(text(node) + (node.tail or ""))
        node = node.getnext()
    return ctx.span(" ".join(parts))


def xf_data_time(el: etree._Element, ctx: Context) -> Span | None:
    """XenForo: <time class="u-dt" datetime="2010-11-21T10:51:58+0000" data-time="1290336718">Nov 21, 2010</time>.
    data-time is unix time, exact; the text ("Сегодня в 10:54", "5 мин. назад") is only what people see."""
    value = (el.get("data-time") or "").strip()
    if value.isdigit():
        at = datetime.fromtimestamp(int(value), timezone.utc)
        return Span(at, at)
    iso = el.get("datetime")
    if iso:
        try:
            at = datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S%z").astimezone(timezone.utc)
            return Span(at, at)
        except ValueError:
            pass
    return ctx.span(text(el))


# --- edit notices -----------------------------------------------------------------------------------------

_EDIT_COUNT = re.compile(r"(\d+)\s*(?:раз|time)", re.IGNORECASE)


def phpbb_edit_notice(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """ "Последний раз редактировалось bob 26 ноя 2026, 17:35, всего редактировалось 2 раза. Причина: ..." """
    user = notice.find(".//a")
    said = (user.tail if user is not None else text(notice)) or ""
    m = _EDIT_COUNT.search(said)
    head = said[: m.start()] if m else said
    return ctx.date(head), int(m.group(1)) if m else 1


def time_element_edited(el: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """FlaskBB: "(Last modified: <time datetime=...> by alice)"; exact, but no edit count."""
    at = time_element(el, ctx)
    return (at.earliest if at else None), 1


def mybb_edit_notice(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """ "(Сообщение последний раз редактировалось: 26.11.2026, 17:35 bob. Причина...)"; MyBB shows no count."""
    text = notice.text or ""
    when = text.split(":", 1)[1] if ":" in text else text
    rel = notice.find(".//span[@title]")
    if rel is not None:
        when = mybb_date_text(notice)
    return ctx.date(when), 1


_SMF_EDITOR = re.compile(r"\s(?:от|by)\s", re.IGNORECASE)


def smf_edit_notice(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """SMF 2.1: `<span id="modified_20"><span class="lastedit">Последнее редактирование</span>: <strong>Сегодня</strong>
    в 10:06 от Ведущий&nbsp;<span id="reason" class="lastedit">Причина</span>: ...`. Unedited posts carry the span
    empty (so do posts their author edited within edit_wait_time, 90 s stock: SMF keeps no mark of those).
    No edit count is shown."""
    label = notice.find("span")
    if label is None:
        return None, 0
    parts = [label.tail or ""]
    node = label.getnext()
    while node is not None and "lastedit" not in (node.get("class") or ""):
        parts.append(text(node) + (node.tail or ""))
        node = node.getnext()
    said = " ".join(" ".join(parts).split()).lstrip(": ")
    when = _SMF_EDITOR.split(said, maxsplit=1)[0]
    return ctx.date(when), 1


def xf_last_edit(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """XenForo: <div class="message-lastEdit">Последнее редактирование: <time data-time=...></div>; no count."""
    el = notice.find(".//time")
    at = xf_data_time(el, ctx) if el is not None else ctx.span(text(notice).split(":", 1)[-1])
    return (at.latest if at else None), 1


_PAREN = re.compile(r"\(([^()]*)\)\s*$")


def punbb_edit_notice(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """ "Отредактировано bob (Сегодня 12:18)": the date in the closing parentheses; PunBB keeps no count."""
    said = " ".join(text(notice).split())
    m = _PAREN.search(said)
    return ctx.date(m.group(1) if m else said), 1


def vb_date_text(el: etree._Element) -> str:
    """vB3: the post's header cell ("2016-02-01, 02:21" after the status icon); vB4: <span class="date">
    06-15-2016,&nbsp;<span class="time">03:03 PM</span></span>. "Today"/"Сегодня" where the board enables it."""
    return " ".join(text(el).replace("\u00a0", " ").split())


def vb_post_date(el: etree._Element, ctx: Context) -> Span | None:
    try:
        return ctx.span(vb_date_text(el))
    except ValueError:  # a day/month order the profile does not expect ("06-15-2016" read as d-m-Y)
        return None


_VB_EDIT = re.compile(r";\s*(.+?)\.?\s*(?:(?:Reason|Причина):.*)?$", re.IGNORECASE | re.DOTALL)
_VB_AT = re.compile(r"\s+(?:at|в)\s+", re.IGNORECASE)


def vb_edit_notice(notice: etree._Element, ctx: Context) -> tuple[datetime | None, int]:
    """ "Last edited by bob; 2016-02-01 at <span class="time">03:31</span>." (vB3, real page); Russian packs
    "Последний раз редактировалось bob; 01.02.2016 в 03:31." (unverified). vB keeps no edit count."""
    said = " ".join(text(notice).replace("\u00a0", " ").split())
    m = _VB_EDIT.search(said)
    when = _VB_AT.sub(" ", m.group(1)) if m else said
    try:
        return ctx.date(when), 1
    except ValueError:
        return None, 1


def ips_quotedata(el: etree._Element, ctx: Context) -> dict[str, Any]:
    """Invision 4: the comment wrapper's data-quotedata JSON names the member, the unix time and the comment id
    ({"userid":13603,"username":"fabiobassa","timestamp":1578521393,...,"contentcommentid":92583}); exact."""
    try:
        data = json.loads(el.get("data-quotedata") or "{}")
    except ValueError:
        data = {}
    out: dict[str, Any] = {}
    pid = data.get("contentcommentid") or el.get("data-commentid")
    if pid is not None and str(pid).isdigit():
        out["id"] = str(pid)
    if data.get("username"):
        out["author"] = str(data["username"])
    if str(data.get("userid", "")).isdigit() and int(data["userid"]) > 0:
        out["author_id"] = str(data["userid"])
    stamp = data.get("timestamp")
    if isinstance(stamp, (int, float)) or str(stamp or "").isdigit():
        at = datetime.fromtimestamp(int(stamp), timezone.utc)
        out["time"] = Span(at, at)
    return out


# --- flows: pure decisions on pages the adapter fetched ---------------------------------------------------

_ADDRESS = re.compile(r"address_list\[u\]\[(\d+)\]")


# --- the unread-PM count in a page's header (issue 8: an idle tick skips the inbox when it reads 0) ----------
#
# Given the one element the profile's "pm_header" selector matched; None when it does not read as a count, so
# the caller reads the inbox instead. Never a guess: a wrong 0 would leave a PM unread until the next full read.

_COUNT = re.compile(r"\d+(?:[,.\u00a0\u202f ]\d{3})*")


def _count(value: str) -> int:
    return int(re.sub(r"\D", "", value))


def count_text(el: etree._Element) -> int | None:
    """An element whose whole text is the count: phpBB prosilver's header badge, `<strong class="badge">1</strong>`
    (`<strong class="badge hidden">0</strong>` with none unread)."""
    value = " ".join(text(el).split())
    return _count(value) if _COUNT.fullmatch(value) else None


def mybb_pm_usage(el: etree._Element) -> int | None:
    """MyBB's welcome block: `<a href=".../private.php">Private Messages</a> (Unread 1, Total 6)` (Russian pack:
    "(Непрочитано 2, Всего 6)"): the first of exactly two counts after the link."""
    numbers = _COUNT.findall(el.tail or "")
    return _count(numbers[0]) if len(numbers) == 2 else None


def phpbb_address_list(tree: etree._Element, profile: HtmlProfile) -> list[str]:
    """User ids the compose form now carries as recipients (after `username_list` + `add_to`)."""
    ids = []
    for el in select(tree, profile.selectors["pm_recipient"]):
        m = _ADDRESS.search(el.get("name", ""))
        if m and m.group(1) not in ids:
            ids.append(m.group(1))
    return ids


def phpbb_post_review(tree: etree._Element, profile: HtmlProfile) -> bool:
    """phpBB re-showed the form with "new posts since you started": nothing was posted."""
    return bool(select(tree, profile.selectors["stale_review"]))


def mybb_merged(new_pid: int, last_pid_before: int | None) -> bool:
    """MyBB appended the reply to the bot's previous post (postmergemins): no new post id appeared."""
    return last_pid_before is not None and new_pid <= last_pid_before


def no_fields(tree: etree._Element) -> list[tuple[str, str]]:
    """A reply form with nothing to add before it is sent (FluxBB)."""
    return []


def mybbru_antibot(tree: etree._Element) -> list[tuple[str, str]]:
    """mybb.ru: the hidden fields the page's process_form() would write into #formkey and #formetc."""
    return antibot_fields(tree)
