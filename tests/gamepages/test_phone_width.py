"""Issue 28 item 12, the pages at a phone's width (412 px): the picture's labels readable (a picture drawn at the
phone's width, not the desktop one shrunk to ~4.5 px labels), the live picture opened large, the post log's
«Как прочитан» and «Счёт после» on screen, tally names not cut. Measured in headless Chromium (installed by
.ci/provision; under FORUMBOT_REQUIRE_LIVE=1 its absence fails) at 412 px, with a screenshot kept for a person."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import chromium, site  # noqa: E402

from forumbot.pages.nicktext import nick_parts  # noqa: E402
from forumbot.pages.picture import PHONE_WIDTH, SWATCH  # noqa: E402
from forumbot.pages.site import GamePages  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
LONG = "Ужасно_Длинный_Ник_Игрока_Без_Пробелов"
NEWCOMER = "Новичок_Из_Резерва"
# what the page measures of itself once loaded, written into its DOM for --dump-dom to carry out
MEASURE = """<script>addEventListener("load", () => {
  const pics = [...document.querySelectorAll("figure img")].map(i => ({
    phone: i.currentSrc.startsWith("data:") && i.naturalWidth === %d, scale: i.getBoundingClientRect().width / i.naturalWidth}));
  const cells = [...document.querySelectorAll(".cards td, .cards th")].map(c => c.getBoundingClientRect().right);
  const table = [...document.querySelectorAll(".players td, .players th")].map(c => c.getBoundingClientRect().right);
  // a cell cut: its text wider than the cell, or the cell (its table) past the screen's right edge
  const tally = [...document.querySelectorAll("td, th")].filter(
    c => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > innerWidth).length;
  // a nickname in a table (a card, the game page's players, a day page's «Что менялось» and «По игрокам»; a
  // word: no space) broken over two lines, or cut without its full name as the title
  const names = [...document.querySelectorAll("th bdi, td bdi")].filter(
    b => !/\\s/.test(b.textContent) && b.closest("[data-label]")?.dataset.label !== %s);
  const broken = names.filter(b => b.getClientRects().length !== 1 ||
    (b.scrollWidth > b.clientWidth && b.title !== b.textContent)).map(b => b.textContent);
  const cut = names.filter(b => b.scrollWidth > b.clientWidth).length;
  // LONG in a sentence (the game page's days, nights and announcements, a day page's leader and outcome, a card's
  // voters and tally): on how many lines it and the «:» or «,» (or a tally's count) right after it lie (boxes 8 px
  // or more apart in height: a line is ~23 px), whether its line cuts it (then its box must title it in full)
  const sentence = "main > p, main > ul > li, .cards td", said = [];
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  const lines = r => [...r.getClientRects()].map(q => q.top).sort((a, b) => a - b).filter(
    (top, k, tops) => k === 0 || top - tops[k - 1] >= 8).length;
  for (let t; (t = walk.nextNode()); ) {
    const line = t.parentElement.closest(".said") ? null : t.parentElement.closest(sentence);  // a post wraps
    for (let at = line ? t.data.indexOf(%s) : -1; at >= 0; at = t.data.indexOf(%s, at + 1)) {
      const r = document.createRange();
      r.setStart(t, at);
      r.setEnd(t, at + %d);
      const after = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      after.currentNode = t;
      const next = r.endOffset < t.data.length ? t : after.nextNode();
      const glued = next && /^(?: \\d+)?[:,;.]?/.exec(next.data.slice(next === t ? r.endOffset : 0))[0].length;
      if (glued) r.setEnd(next, (next === t ? r.endOffset : 0) + glued);
      said.push({lines: lines(r),
                 cut: r.getBoundingClientRect().right > line.getBoundingClientRect().right + 1,
                 titled: t.parentElement.closest("[title]")?.title === t.data.substr(at, %d)});
    }
  }
  parent.postMessage(JSON.stringify({width: innerWidth, scroll: document.documentElement.scrollWidth, pics, tally,
                                     right: Math.max(...cells), cells: cells.length,
                                     roles: document.querySelectorAll(".players.roles").length,
                                     table: Math.max(...table), names: names.length, broken,
                                     cut, said}), "*");
});</script>""" % (PHONE_WIDTH, json.dumps("Пост"),  # a post's text is no nickname
                   json.dumps(LONG), json.dumps(LONG), len(LONG), len(LONG))
# headless Chromium's window is at least 500 px wide: the page is measured in a frame 412 px wide, which tells
# its parent what it measured
FRAME = """<!DOCTYPE html><html><body style="margin:0"><pre id="measured"></pre>
<iframe src="%s" style="width:412px;height:900px;border:0"></iframe>
<script>addEventListener("message", e => { document.getElementById("measured").textContent = e.data; });</script>
</body></html>"""


def _game(thread_posts: bool = False, roles: bool = False) -> Game:
    """`thread_posts`: R-11's post minimum on and a game-thread post from each player on Day 1, so the day page
    has its activity table (issue 30: at 412 px its nicknames broke mid-letter and its last column was off screen).
    `roles`: open roles (R-9), so the game page's players table has its fourth column once М2 is lynched, and a
    long-named newcomer in М5's seat (S-4), «(вместо: М5)» beside the nickname."""
    cast = [(LONG if nick == "М4" else nick, role) for nick, role in Game.moscow().cast]
    options: dict[str, object] = {"post_minimum": 2} if thread_posts else {}
    g = Game("moscow", cast, options=options | ({"roles": "open"} if roles else {}))
    if thread_posts:
        for k, (nick, _) in enumerate(cast):
            g.post("day 1", f"+0h{k + 1}m", nick, f"Я {nick}, ищу мафию")
    g.votes("day 1", {"М1": "М2", "М3": "М2", LONG: "М2", "М5": "М2", "М6": "М2", "Шериф": "М2"})
    g.vote("day 2", "+1h", "М1", LONG)
    g.vote("day 2", "+2h", "М3", LONG)
    g.vote("day 2", "+2h", LONG, "привет всем, это не голос")
    g.vote("day 2", "+3h", "Шериф", "Маф1")
    if roles:
        g.gm("day 2", "+3h30m", f"замена М5 {NEWCOMER}")
    return g


def _files(g: Game) -> dict[str, bytes]:
    return site(GamePages("p", g.setup(), g.run("day 2", "+4h").run, built=g.at("day 2", "+4h")))


def _phone_svgs(page: str) -> list[ElementTree.Element]:
    return [ElementTree.fromstring(base64.b64decode(b))
            for b in re.findall(r'<source media="\(max-width: 40rem\)" srcset="data:image/svg\+xml;base64,([^"]+)"', page)]


def test_i28_12_every_day_page_has_a_phone_picture_with_full_size_labels() -> None:
    files = _files(_game())
    for n in (1, 2):  # the closed day's and the open day's
        (svg,) = _phone_svgs(files[f"p/day-{n}.html"].decode())
        assert svg.get("width") == str(PHONE_WIDTH)
        assert min(int(t.get("font-size", "0")) for t in svg.iter(f"{NS}text")) >= 10
        summary = ["".join(t.itertext()).strip("\u2068\u2069") for t in svg.iter(f"{NS}text")]
        # the tally's names broken onto lines, none longer than the picture holds at 12 px (~7 px a character)
        tally = [line for line in summary if "—" in line and ":" in line]
        assert tally and all(len(line) * 7 <= PHONE_WIDTH - 24 for line in tally)
        assert any(LONG[:20] in line for line in summary)
        whole = ["".join(t.itertext()).strip("\u2068\u2069") for t in svg.iter(f"{NS}text") if t.find(f"{NS}title") is None]
        assert not [line for line in whole if line.endswith("…")]  # a summary line is wrapped, never cut short


def test_i28_12_a_long_nickname_in_the_phone_picture_ends_with_an_ellipsis_and_is_named_in_full() -> None:
    """At 412 px the lane label of a long nickname was cut mid-letter by its clip (another name to a reader): it
    is shortened with «…» within its box, and the label's tooltip names the player in full."""
    files = _files(_game())
    for n in (1, 2):
        (svg,) = _phone_svgs(files[f"p/day-{n}.html"].decode())
        shortened = [t for t in svg.iter(f"{NS}text") if t.find(f"{NS}title") is not None]
        lanes = [t for t in shortened if "".join(t.find(f"{NS}title").itertext()).strip("\u2068\u2069") == LONG]
        assert lanes, f"day {n}: no shortened label names {LONG}"
        for label in lanes:
            shown = (label.find(f"{NS}title").tail or "").strip("\u2068\u2069")
            assert shown.endswith("…") and LONG.startswith(shown[:-1]) and len(shown) < len(LONG)
            clip = svg.find(f".//{NS}clipPath[@id='{label.get('clip-path')[5:-1]}']/{NS}rect")
            # within the box even at DejaVu Sans' widest (0.64 em a character)
            assert len(shown) * 0.64 * int(label.get("font-size")) <= float(clip.get("width"))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_segment_label_is_whole_or_a_readable_start_or_absent_and_the_legend_keys_the_colours(language: str) -> None:
    """Stop 35: at 412 px the segments' labels were cut to stubs of 1-3 letters («М…», «Ужа…»). A label is the
    target's name whole, or at least its first six characters and «…» (a long nickname's start), or none: the
    legend below the lanes names each colour (a swatch before each target's tally line), the tooltip the rest."""
    g = _game()
    g.language = language
    files = _files(g)
    for n in (1, 2):
        (svg,) = _phone_svgs(files[f"p/day-{n}.html"].decode())
        names = {"М2", "Маф1", LONG}
        shown = [(t.find(f"{NS}title").tail if t.find(f"{NS}title") is not None else "".join(t.itertext())).strip("\u2068\u2069")
                 for t in svg.iter(f"{NS}text") if t.get("font-size") == "11"]
        assert shown or n == 2, f"day {n}: no segment label"  # Day 2's segments are all too narrow for one
        for label in shown:
            assert label in names or (label.endswith("…") and len(label) - 1 >= 6
                                      and any(name.startswith(label[:-1]) for name in names)), (n, label)
        swatches = [r for r in svg.iter(f"{NS}rect") if r.get("width") == str(SWATCH)]
        lane_fills = {r.get("fill") for r in svg.iter(f"{NS}rect") if r.get("height") == "16"}
        assert swatches and {r.get("fill") for r in swatches} == lane_fills, (n, swatches, lane_fills)


def test_i28_12_the_live_picture_opens_large() -> None:
    page = _files(_game())["p/day-2.html"].decode()
    assert '<figure id="zoom-day-2" class="zoom">' in page and '<a href="#zoom-day-2" class="open">' in page
    assert ">Открыть крупно</a>" in page and ">Закрыть</a>" in page
    assert ".zoom:target img{max-width:none;width:60rem}" in page


def test_a_long_nickname_in_a_sentence_is_found_whole_and_the_longest_first() -> None:
    """What the pages keep on one line at 412 px: a nickname over 20 characters, never part of a longer one or of a
    word; the sentence joined back is the same text."""
    longer = LONG + "_2"
    text = f"Не проголосовали: Дон, {LONG}, {longer}, X{LONG}, М5"
    parts = nick_parts(text, ["Дон", "М5", LONG, longer])
    assert "".join("".join(part) for part in parts) == text
    # «Дон» is short: a word that wraps whole; the comma after a long one keeps to its line
    assert [(part.nick, part.tail) for part in parts if part.nick] == [(LONG, ","), (longer, ",")]


@pytest.mark.parametrize(("page", "thread_posts", "roles"),
                         [("day-1.html", False, False), ("day-2.html", False, False), ("index.html", False, False),
                          ("day-1.html", True, False), ("index.html", True, False), ("index.html", False, True)],
                         ids=["day-1", "day-2", "index", "day-1-activity", "index-activity", "index-roles"])
def test_i28_12_at_412_px_nothing_is_off_screen_and_labels_are_readable(tmp_path: Path, page: str,
                                                                        thread_posts: bool, roles: bool) -> None:
    """The game page (index.html): its players table broke «Ужасно_Длинн|ый_Ник_Игрока|_Без_Пробелов» over three
    lines at 412 px (stop 37); a nickname stays whole on one line or ends with «…», titled in full, with the
    roles column too (R-9) and a newcomer's «(вместо: М5)» (S-4). So does one in a sentence: the game page's days
    list broke it mid-word in the open day's leader line and its «Не проголосовали» (after stop 37), as did a day
    page's leader line, and the game page's list of each player's game-thread posts (R-11); and a day page's
    «Что менялось» and «По игрокам» tables broke it as the players table did."""
    for rel, data in _files(_game(thread_posts, roles)).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    shown = tmp_path / "p" / page
    measured = shown.with_name("measured-" + page)
    measured.write_text(shown.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    frame = shown.with_name("frame-" + page)
    frame.write_text(FRAME % measured.name, encoding="utf-8")
    profile = f"--user-data-dir={tmp_path / 'profile'}"
    # the virtual time budget: Chromium dumps the DOM once the page is idle (not after a fixed wait in seconds)
    dom = chromium([profile, "--window-size=600,1000", "--virtual-time-budget=10000", "--allow-file-access-from-files",
                     "--dump-dom", frame.as_uri()]).stdout
    found = re.search(r'<pre id="measured">([^<]+)</pre>', dom)  # filled by the frame's message
    assert found, dom[-500:]
    m = json.loads(found.group(1).replace("&quot;", '"'))
    assert m["width"] == 412 and m["scroll"] <= 412  # no part of the page off to the right
    if page != "index.html":
        assert m["cells"] and m["right"] <= 412  # «Как прочитан» and «Счёт после» on screen
        assert m["pics"] and all(p["phone"] for p in m["pics"])  # the phone's picture chosen ...
        assert all(p["scale"] * 11 >= 9.5 for p in m["pics"])  # ... its 11 px labels shown at 9.5 px or more
    assert m["tally"] == 0  # no cell's text cut
    # stop 35: «Ужасно_Длинный_Ник_Игрока_Без_Про|белов» broken mid-word in a card; stop 37: in the players table
    assert m["names"] and m["broken"] == [], m["broken"]
    assert m["cut"] > 0  # LONG is wider than a 412 px card or column: it ends with «…», titled in full
    if roles:
        assert m["roles"] and m["table"] <= 412, m  # the roles column on screen
    # h2 (after stop 37): the days list broke «Ужасно_Длинный_Ник_Игрока_Без_П|робелов» mid-word in its leader's
    # line and its «Не проголосовали»; a nickname in a sentence lies on one line with the «:» or «,» after it,
    # ending with «…» where longer than the line, titled in full
    assert all(s["lines"] == 1 and (s["titled"] or not s["cut"]) for s in m["said"]), m["said"]
    if page in ("index.html", "day-2.html"):  # the open day's leader is LONG, bold: wider than a 412 px line
        assert any(s["cut"] for s in m["said"]), m["said"]
    shot = tmp_path / f"{page}-412.png"  # for a person to look at (issue 28 item 12)
    chromium([profile, "--window-size=412,2400", f"--screenshot={shot}", shown.as_uri()])
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"\nscreenshot at 412 px: {shot}")
