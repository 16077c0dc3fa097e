"""`forumbot probe`'s report for a person, one field a line, in the GM's language (issue 28 item 4: a Russian GM
reads Russian, the flow names too); the JSON report keeps its English ids."""

from __future__ import annotations

from datetime import datetime

from forumbot.localtime import local
from forumbot.probe.board import NEEDED_ON_INBOX, NEEDED_ON_TOPIC, WRITES_NOTHING, ProbeReport
from forumbot.texts import TABLES

# an API flow's state as `_probe_api` words it, by its first word: the text key it is shown with
STATES = {"verified": "probe.state.verified", "failing": "probe.state.failing", "not tried": "probe.state.not_tried"}


def to_text(report: ProbeReport, zone: str = "", language: str = "ru") -> str:
    """Times shown in `zone` (the game's), else in the zone they are read in, else UTC (issue 17 item 13: a Moscow
    GM reads Moscow times)."""
    t = TABLES.get(language, TABLES["ru"])
    who = t["probe.guest" if report.guest else "probe.api" if report.api else "probe.logged_in"]
    shown = zone or report.timezone

    def at(iso: str) -> str:
        return local(datetime.fromisoformat(iso), shown)

    out = [t["probe.head"].format(forum=report.forum or "-", thread=report.thread, who=who),
           t["probe.engine"].format(engine=report.engine) + (
               t["probe.engine_api"] if report.api
               else t["probe.engine_seen"].format(seen=report.detected or t["probe.nothing_seen"])),
           t["probe.times"].format(read=t["probe.times_api"] if report.api
                                   else report.timezone or t["probe.times_page"], shown=shown or "UTC"),
           t["probe.posts"].format(count=len(report.posts))]
    for p in report.posts:
        flags = [f for f, on in ((t["probe.edited"].format(at=at(p["edited_at"]) if p["edited_at"] else ""),
                                  p["edited_at"]),
                                 (t["probe.quote_stripped"], p["quote_stripped"]),
                                 (t["probe.signature_stripped"], p["signature_stripped"])) if on]
        when = at(p["posted_at"]) + (f" .. {at(p['posted_latest'])}" if p["posted_latest"] else "")
        words = " ".join(p["text"].split())
        out.append(t["probe.post"].format(id=p["id"], author=p["author"] or t["probe.no_author"], at=when)
                   + (" [" + ", ".join(flags) + "]" if flags else "")
                   + f": «{words[:60]}{'...' if len(words) > 60 else ''}»")
    pg = report.pagination
    if pg:
        # the kind said once, in the GM's language, with what the second page's address shows
        example = pg.get("example") or f"{pg['param']}=2"
        kind = t[f"probe.page_kind.{pg['kind']}"].format(example=example) if pg["kind"] in ("page", "offset") \
            else pg["kind"]
        out.append(t["probe.pages"].format(kind=kind, current=pg["current"],
                                           pages=pg["pages"] or "?", per_page=pg["per_page"] or "?",
                                           next=t["probe.yes" if pg["has_next"] else "probe.no"]))
    out.extend(_inbox_lines(report, t))
    if report.flows:
        out.append(t["probe.flows"])
        out.extend(f"  {_flow(name, state, t)}" for name, state in report.flows.items())
    out.append(t["probe.limits"].format(limits=", ".join(f"{k} {v:g} {t['probe.seconds']}"
                                                          for k, v in report.limits.items()) or t["probe.none"]))
    # only a needed selector that matched nothing is a problem; the others (a quote, an edit notice, a next page,
    # an error box) are simply absent from these pages, which a GM cannot tell from a real miss
    needed = {f"selectors.{n}" for n in (*NEEDED_ON_TOPIC, *NEEDED_ON_INBOX)}
    out.append(t["probe.selectors_api" if report.api else "probe.selectors"])
    out.extend(f"  {'ok  ' if ok else 'MISS' if name in needed else '--  '} {name}"
               for name, ok in report.selectors.items())
    out.append(t["probe.unverified"].format(parts=", ".join(report.unverified) or t["probe.none"]))
    if report.problems:
        out.append(t["probe.problems"])
        out.extend(f"  {p}" for p in report.problems)
    else:
        out.append(t["probe.no_problems"])
    return "\n".join(out)


def _inbox_lines(report: ProbeReport, t: dict[str, str]) -> list[str]:
    out = []
    if report.inbox is not None:
        unread = report.inbox["unread"]
        out.append(t["probe.inbox"].format(rows=report.inbox["rows"] if report.inbox["rows"] is not None else "?",
                                           unread=unread if unread is not None else t["probe.not_shown"]))
    else:
        out.append(t["probe.inbox_guest" if report.guest else "probe.inbox_unread"])
    header = report.pm_header
    if header.get("engine_reads_it") and header.get("unread") is not None:
        out.append(t["probe.header"].format(unread=header["unread"]))
    elif header.get("engine_reads_it") and not report.guest:
        out.append(t["probe.header_unreadable"])
    return out


def _flow(name: str, state: str, t: dict[str, str]) -> str:
    """An API flow ("login", "thread", ...) and its state ("failing: why") as the GM reads them."""
    label = t.get(f"probe.flow.{name}", name)
    if state == WRITES_NOTHING:
        return f"{label}: {t['probe.state.writes_nothing']}"
    head, _, why = state.partition(": ")
    shown = t[STATES[head]] if head in STATES else state
    return f"{label}: {shown}" + (f": {why}" if why and head in STATES else "")
