"""The day's vote-flow picture as SVG, written with the standard library: deterministic (the same day gives the
same bytes) and escaped (a nickname is text, never markup). One lane per voter, coloured by whom he voted for,
a label on every segment, a cross for each post that did not count, the tally and outcome in words; a runoff is
a panel of its own (issue 20 item 2)."""

from __future__ import annotations

import base64
import hashlib
import re
import textwrap
from datetime import datetime
from xml.sax.saxutils import escape, quoteattr

from forumbot.pages.daydata import DayData, ShownTarget
from forumbot.pages.words import Words

# Okabe & Ito's colour-blind-safe palette, each with the label colour that reads on it
PALETTE = (("#E69F00", "#000"), ("#56B4E9", "#000"), ("#009E73", "#fff"), ("#F0E442", "#000"),
           ("#0072B2", "#fff"), ("#D55E00", "#fff"), ("#CC79A7", "#000"), ("#999999", "#000"))
WIDTH, NAME_W, LANE_H, PAD = 960, 170, 22, 12
# the special targets in greys apart from the palette's: light where nobody dies, dark for «повесить всех». A
# runoff votes only «повесить всех» or «помиловать всех», which one grey drew alike (issue 28 walk-through)
SPECIAL_COLOURS = {"no_lynch": ("#cccccc", "#000"), "pardon_all": ("#cccccc", "#000"), "hang_all": ("#595959", "#fff")}

# issue 28 item 12: the page's picture on a phone, drawn at about the phone's width so its 11-12 px labels stay
# that size (the desktop picture shrunk to 412 px had them at ~4.5 px)
PHONE_WIDTH, PHONE_NAME_W = 400, 96
FONT = "DejaVu Sans, Verdana, sans-serif"
# a segment's label: whole, or shortened keeping this many characters (the start of a long nickname still reads
# as that name); a narrower segment has none, its colour named by the legend below the lanes and its tooltip
# (stop 35: at 412 px labels were cut to stubs of 1-3 letters, «М…», «Ужа…»)
SEGMENT_LEAST = 6
SWATCH = 10  # the legend's colour square, px
# a character's advance in DejaVu Sans, in ems, on the wide side (Cyrillic capitals, Latin m/w): a label is cut
# or a line wrapped by this estimate, so it never reaches the clip
CHAR_EM = 0.64
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def text(value: str) -> str:
    """Escaped character data, with characters XML forbids dropped and bidi isolated (an RTL mark in a
    nickname must not turn the rest of the label around)."""
    return escape("\u2068" + _UNSAFE.sub("", value) + "\u2069")


def attr(value: str) -> str:
    return quoteattr(_UNSAFE.sub("", value))


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


class _Svg:
    def __init__(self, width: int = WIDTH) -> None:
        self.parts: list[str] = []
        self.clips = 0
        self.width = width
        self.name_w = NAME_W if width == WIDTH else PHONE_NAME_W
        self.wrap = int((width - 2 * PAD) // (CHAR_EM * 12))  # characters of a 12 px summary line

    def add(self, s: str) -> None:
        self.parts.append(s)

    def label(self, x: float, y: float, w: float, value: str, fill: str = "#000", size: int = 12,
              weight: str = "normal", least: int = 1) -> None:
        """A text that fits its box: a long nickname shortened with an ellipsis (issue 28 item 12: at phone width
        one was cut mid-letter, read as another name) and named in full in its tooltip; the clip stays as the
        guard for a font wider than the estimate. `least`: the fewest characters a shortened text keeps, else
        none is drawn."""
        shown = fitted(value, w, size, least)
        if not shown:
            return
        self.clips += 1
        cid = f"c{self.clips}"
        self.add(f'<clipPath id="{cid}"><rect x="{_n(x)}" y="{_n(y - size)}" width="{_n(max(w, 0))}" '
                 f'height="{_n(size * 1.5)}"/></clipPath>')
        tip = f"<title>{text(value)}</title>" if shown != value else ""
        self.add(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
                 f'clip-path="url(#{cid})">{tip}{text(shown)}</text>')


def fitted(value: str, width: float, size: int, least: int = 1) -> str:
    """`value` as it fits `width` px at font `size`: whole, or cut with «…» at the last character that fits,
    keeping at least `least` characters; "" where that does not fit (the tooltip and the legend name it)."""
    room = int(max(width, 0) // (CHAR_EM * size))
    if len(value) <= room:
        return value
    return value[:room - 1].rstrip() + "…" if room - 1 >= max(least, 1) else ""


def render(days: list[DayData], words: Words, title: str, until: datetime | None = None,
           now: datetime | None = None, width: int = WIDTH) -> str:
    """The picture of one day: its panel, and its runoff's below when it had one. An open panel's axis runs to
    `until` (its deadline) and its votes to `now` (the build's time), so the newest vote is not a sliver at the
    axis' end (issue 28 item 11)."""
    svg = _Svg(width)
    y: float = PAD + 18
    heads = [title] if width == WIDTH else _wrap(title, svg.wrap - 12)
    for i, line in enumerate(heads):
        svg.add(f'<text x="{PAD}" y="{y + 20 * i}" font-size="16" font-weight="bold">{text(line)}</text>')
    y += 20 * (len(heads) - 1)
    y += 14
    for day in days:
        y = _panel(svg, day, words, y + 10, until if day.closed is None else None, now)
    height = y + PAD
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_n(height)}" '
            f'viewBox="0 0 {width} {_n(height)}" role="img" aria-labelledby="t d" font-family={attr(FONT)}>'
            f'<title id="t">{text(title)}</title><desc id="d">{text(words("picture.desc"))}</desc>'
            f'<rect width="100%" height="100%" fill="#fff"/>')
    return head + "".join(svg.parts) + "</svg>\n"


def _panel(svg: _Svg, day: DayData, words: Words, y: float, until: datetime | None = None,
           now: datetime | None = None) -> float:
    start = day.opens
    held_to = day.closed or max(as_of(day), now or as_of(day))  # an open day's votes hold until now
    end = max(held_to, until or held_to)
    heading = words.phase(day.kind, day.number)
    if day.closed is None:  # the running day (`vote_history = "live"`): its tally is not final
        heading += " — " + words("picture.as_of", at=words.time(as_of(day)))
    heads = [heading] if svg.width == WIDTH else _wrap(heading, svg.wrap - 12)
    for i, line in enumerate(heads):
        svg.add(f'<text x="{PAD}" y="{_n(y + 12 + 18 * i)}" font-size="14" font-weight="bold">{text(line)}</text>')
    y += 22 + 18 * (len(heads) - 1)
    span = max((end - start).total_seconds(), 1.0)
    left, right = PAD + svg.name_w, svg.width - PAD
    colours = _colours(day)

    def x_of(at: datetime) -> float:
        return left + (right - left) * min(max((at - start).total_seconds() / span, 0.0), 1.0)

    svg.add(f'<text x="{_n(left)}" y="{_n(y + 10)}" font-size="10" fill="#444">{text(words.time(start))}</text>')
    svg.add(f'<text x="{_n(right)}" y="{_n(y + 10)}" font-size="10" fill="#444" text-anchor="end">'
            f'{text(words.time(end))}</text>')
    y += 16
    # an open day draws only who may vote now; a closed one also the voters it lost, as its result post showed
    lanes = list(day.lanes) + (sorted({r.lane for r in day.rows} - set(day.lanes)) if day.closed else [])
    if held_to < end:  # the open day's "now", the rest of the axis left to the deadline
        svg.add(f'<line x1="{_n(x_of(held_to))}" y1="{_n(y)}" x2="{_n(x_of(held_to))}" '
                f'y2="{_n(y + len(lanes) * LANE_H)}" stroke="#444" stroke-dasharray="3 3"/>')
    for i, voter in enumerate(lanes):
        top = y + i * LANE_H
        if i % 2:
            svg.add(f'<rect x="{PAD}" y="{_n(top)}" width="{svg.width - 2 * PAD}" height="{LANE_H}" fill="#f3f3f3"/>')
        svg.label(PAD + 2, top + 15, svg.name_w - 8, voter)
        rows = [r for r in day.rows if r.lane == voter]
        held = [r for r in rows if r.counted and r.target is not None]
        for k, row in enumerate(held):
            x0 = x_of(row.at)
            x1 = x_of(held[k + 1].at) if k + 1 < len(held) else x_of(held_to)
            fill, ink = colours[row.target]  # type: ignore[index]
            name = words.target(row.target.name, row.target.special)  # type: ignore[union-attr]
            svg.add(f'<g><title>{text(voter + " → " + name + " · " + words.time(row.at))}</title>'
                    f'<rect x="{_n(x0)}" y="{_n(top + 3)}" width="{_n(max(x1 - x0, 1))}" height="{LANE_H - 6}" '
                    f'fill="{fill}" stroke="#fff" stroke-width="0.5"/></g>')
            svg.label(x0 + 3, top + 15, x1 - x0 - 5, name, ink, 11, least=SEGMENT_LEAST)
        for row in rows:
            if row.counted:
                continue
            cx, cy = x_of(row.at), top + LANE_H / 2
            why = words.why(row)
            svg.add(f'<g><title>{text(voter + ": " + why + " · " + words.time(row.at))}</title>'
                    f'<path d="M{_n(cx - 5)} {_n(cy - 5)}L{_n(cx + 5)} {_n(cy + 5)}M{_n(cx - 5)} {_n(cy + 5)}'
                    f'L{_n(cx + 5)} {_n(cy - 5)}" stroke="#000" stroke-width="2"/></g>')
    y += len(lanes) * LANE_H + 18
    indent = SWATCH + 5
    for line, target in legend(day, words, svg.wrap):
        if target is not None:  # a target's first line: its colour, the lanes' key
            svg.add(f'<rect x="{PAD}" y="{_n(y - SWATCH)}" width="{SWATCH}" height="{SWATCH}" '
                    f'fill="{colours[target][0]}" stroke="#444" stroke-width="0.5"/>')
        shift = indent if target is not None or line.startswith(TALLY_INDENT) else 0
        svg.label(PAD + shift, y, svg.width - 2 * PAD - shift, line.removeprefix(TALLY_INDENT), size=12)
        y += 17
    return y


def as_of(day: DayData) -> datetime:
    """How far an open day's picture goes: its last post (the same for every build from the same posts)."""
    return max([day.opens] + [r.at for r in day.rows])


TALLY_INDENT = "\t"  # marks a target's wrapped line in the legend: drawn under its first, past the swatch


def legend(day: DayData, words: Words, width: int = 130) -> list[tuple[str, ShownTarget | None]]:
    """The final tally (an open day's running one, said to be not final) and the outcome in words, one a line
    of at most `width` characters (a long nickname broken, not cut off at the picture's edge), each target's
    first line with that target (its colour's key: a segment too narrow for its label is named here)."""
    head = words("final") if day.closed is not None else words("running", at=words.time(as_of(day)))
    lines: list[tuple[str, ShownTarget | None]] = [
        (line, None) for line in _wrap(f"{head}:" + ("" if day.final else " " + words("no_votes")), width)]
    for t, voters in day.final:
        wrapped = _wrap(f"{words.target(t.name, t.special)} — {len(voters)}: {', '.join(voters)}", width - 2)
        lines += [(wrapped[0], t)] + [(TALLY_INDENT + line, None) for line in wrapped[1:]]
    return lines + [(part, None) for line in outcome(day, words, width) for part in _wrap(line, width)]


def _wrap(line: str, width: int) -> list[str]:
    return textwrap.wrap(line, width, subsequent_indent="    ") or [line]


def alt_text(day: DayData, words: Words) -> str:
    """The summary as sentences for an image's alt text: «Итог: Маф1 — 2: М2, М4; Дон — 1: М1. Исход: ...»,
    never a heading left alone before a full stop («Итог:.»)."""
    head = words("final") if day.closed is not None else words("running", at=words.time(as_of(day)))
    tally = "; ".join(f"{words.target(t.name, t.special)} — {len(voters)}: {', '.join(voters)}"
                      for t, voters in day.final) or words("no_votes")
    sentences = [f"{head}: {tally}"]
    for part in outcome(day, words):
        if part.startswith(" ") and len(sentences) > 1:  # a wrapped line's continuation
            sentences[-1] += " " + part.strip()
        else:
            sentences.append(part)
    return " ".join(s if s.endswith((".", "!", "?")) else s + "." for s in sentences)


def outcome(day: DayData, words: Words, width: int = 130) -> list[str]:
    """Who did not vote, and what the day's end did (nothing yet while it is open)."""
    lines = []
    if day.not_voted:
        lines += textwrap.wrap(f"{words('not_voted')}: {', '.join(day.not_voted)}", width, subsequent_indent="    ")
    if day.closed is not None:
        autokilled = [nick for nick, cause, _ in day.deaths if cause == "autokill"]
        if day.cancelled:
            said = words("cancelled")
        elif autokilled:
            # H-6: an autokill at this vote means nobody leaves by it; said as the result post said it (H-4, H-5)
            said = " ".join([words.said("day.autokill", nick=nick, why=words.said(
                "autokill." + day.autokill_why.get(nick, "no_vote" if nick in day.not_voted else "agitation")))
                for nick in autokilled]
                + [words.said("day.no_vote_after_autokill")])
        elif day.deaths:
            names = [n for n, _, _ in day.deaths]  # a runoff's «повесить всех» hangs them all (M-7)
            said = words("leaves" if len(names) == 1 else "leave_many", names=", ".join(names))
        elif day.leaders and day.kind == "day":
            said = words("to_runoff", names=", ".join(day.leaders))
        else:
            said = words("nobody")
        lines.append(f"{words('outcome')}: {said}")
    return lines


def _colours(day: DayData) -> dict[ShownTarget, tuple[str, str]]:
    """Each target a colour, in the order of the final tally then of first appearance; specials grey, a
    runoff's two choices apart."""
    order: list[ShownTarget] = [t for t, _ in day.final]
    for row in day.rows:
        if row.target is not None and row.target not in order:
            order.append(row.target)
    colours: dict[ShownTarget, tuple[str, str]] = {}
    k = 0
    for t in order:
        if t.special:
            colours[t] = SPECIAL_COLOURS.get(t.name, SPECIAL_COLOURS["no_lynch"])
        else:
            colours[t] = PALETTE[k % (len(PALETTE) - 1)]
            k += 1
    return colours


def data_uri(svg: str) -> str:
    """The picture inside its page (an `<img>` runs no script of an SVG, and base64 needs no escaping)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def file_name(slug: str, svg: str, ext: str = "svg") -> str:
    """A name that carries the content's hash: a forum's image cache never shows a stale picture."""
    return f"{slug}-{hashlib.sha256(svg.encode()).hexdigest()[:12]}.{ext}"


def to_png(svg: str) -> bytes | None:
    """The PNG through resvg (the `png` extra) with Debian's DejaVu fonts; None without the extra."""
    # imported here: resvg_py is the optional png extra's
    try:
        import resvg_py
    except ImportError:
        return None
    data = resvg_py.svg_to_bytes(svg_string=svg, font_dirs=["/usr/share/fonts/truetype/dejavu"],
                                 skip_system_fonts=True)
    return bytes(data)
