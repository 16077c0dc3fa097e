"""Which forum engine served a page: its generator marks, cookies and markup, as data (ENGINES.md section 12).

`detect_engine` scores every engine by the marks a page and its cookies carry; the engine with the highest
score wins. Marks shared by a family (PunBB's class names, which mybb.ru inherits) weigh less than those only
one engine has (mybb.ru's ForumAPITicket), so the descendant is told from its ancestor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from lxml import etree

from adapters.html.dom import select_one


@dataclass(frozen=True)
class Mark:
    kind: str  # "css": a selector matching the page; "text": a regex over its source; "cookie": a regex on a name
    pattern: str
    weight: int = 1


ENGINE_MARKS: dict[str, tuple[Mark, ...]] = {
    "phpbb": (Mark("css", "body#phpbb", 3), Mark("cookie", r"^phpbb\d?_", 2),
              Mark("css", "meta[name='copyright'][content*='phpBB']", 2), Mark("text", r"Powered by .{0,40}phpBB")),
    "mybb": (Mark("text", r"var my_post_key\s*=", 3), Mark("cookie", r"^mybbuser$", 3),
             Mark("text", r"Powered [Bb]y .{0,60}MyBB"), Mark("css", "a[href*='mybb.com']")),
    "flaskbb": (Mark("css", "footer.flaskbb-footer", 3), Mark("text", r"[Pp]owered by .{0,60}FlaskBB", 2),
                Mark("css", "a[href*='flaskbb.org']")),
    "discourse": (Mark("css", "meta[name='generator'][content^='Discourse']", 4), Mark("cookie", r"^_forum_session$")),
    "smf": (Mark("css", "body#smf", 2), Mark("text", r"\bsmf_(?:scripturl|session_var|theme_url|images_url)\b", 2),
            Mark("css", "a[title='Simple Machines Forum'], a[href*='simplemachines.org']", 2),
            Mark("cookie", r"^SMFCookie\d*$", 2)),
    "xenforo": (Mark("css", "html#XF, html#XenForo", 4), Mark("cookie", r"^xf_session$", 3)),
    "punbb": (Mark("css", "div#punwrap, div.punwrap, div.pun", 2), Mark("text", r"\b(?:FluxBB|PunBB)\b", 2),
              Mark("css", "div#brdfooter")),
    "mybbru": (Mark("text", r"\bForumAPITicket\b|\bvar BoardID\s*=", 4), Mark("css", "div#pun, div.punbb", 2),
               Mark("css", "a[href*='mybb.ru'], a[href*='rusff.me']"), Mark("cookie", r"^mybb_ru$", 3)),
    "vbulletin": (Mark("css", "html#vbulletin_html, style#vbulletin_css, "
                           "meta[name='generator'][content^='vBulletin']", 4),
                  Mark("text", r"\bSECURITYTOKEN\b", 2), Mark("cookie", r"^bb(?:sessionhash|lastvisit)$", 2)),
    # IPS 4's JavaScript controllers (`data-controller="core.front.core.comment"`) and hovercards are on every
    # post, so a post excerpt without the page's head or footer is still told (fixtures/invision/)
    "invision": (Mark("css", "#elCopyright", 2), Mark("text", r"\bipsSettings\b", 3), Mark("cookie", r"^ips4_", 3),
                 Mark("css", "[data-controller^='core.front.'], [data-controller^='core.global.']", 3),
                 Mark("css", "[data-ipshover]")),
}


def engine_scores(tree: etree._Element, html: str, cookies: Iterable[str] = ()) -> dict[str, int]:
    """Each engine's score on this page: the summed weights of the marks it shows (engines with none left out)."""
    names = list(cookies)
    scores: dict[str, int] = {}
    for engine, marks in ENGINE_MARKS.items():
        score = 0
        for mark in marks:
            if mark.kind == "css":
                hit = select_one(tree, mark.pattern) is not None
            elif mark.kind == "text":
                hit = re.search(mark.pattern, html) is not None
            else:
                hit = any(re.search(mark.pattern, n) for n in names)
            score += mark.weight if hit else 0
        if score:
            scores[engine] = score
    return scores


def detect_engine(tree: etree._Element, html: str, cookies: Iterable[str] = ()) -> str | None:
    """The engine whose marks the page shows most; None when it shows none."""
    scores = engine_scores(tree, html, cookies)
    return max(scores, key=lambda e: scores[e]) if scores else None
