"""The static site of a game (issue 20 items 3 and 6): the game page, a page and a picture per day, game.json,
votes.csv, and the season index; HTML from Jinja2 templates with autoescape on.

Privacy: everything here is a function of the vote-thread posts (the fold's DayRecords) and of what the bot
announced publicly: deaths with the cause and role as posted, roles, seed and draw only after the end. PMs,
night moves and outbox keys are never read."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shlex
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from forumbot.engine import draw_seats
from forumbot.engine.setup import commitment_text
from forumbot.engine.results import GameRun
from forumbot.model import GameSetup
from forumbot.names import checked_name
from forumbot.pages.activity import activity_rows, iso_files, iso_pages, public_posts
from forumbot.pages.botposts import BotPost, bot_posts, by_key, first_line
from forumbot.pages.daydata import DayData, day_data, lead
from forumbot.pages.nicktext import nick_parts
from forumbot.pages.standings import counted, standings_rows
from forumbot.pages.picture import PHONE_WIDTH, WIDTH, alt_text, data_uri, file_name, outcome, render, to_png
from forumbot.pages.words import Words
from forumbot.rules import get_variant
from forumbot.rules.house import configure

NIGHT_KILLS = frozenset({"mafia", "maniac", "hunt", "failed_hunt"})


@dataclass(frozen=True)
class GamePages:
    """One game's inputs to its pages: the fold's result and how the pages are to be built."""

    name: str
    setup: GameSetup
    run: GameRun
    base_url: str = ""  # the site's public URL (frozen into the game at `game start`); "" gives relative links
    threads: dict[str, str] = field(default_factory=dict)  # "game" / "vote" -> the thread's URL
    post_url: str = ""  # a vote post's URL with "{id}" for the forum's post id; "" for no post links
    links: dict[str, str] = field(default_factory=dict)  # input id -> the forum's post id, where they differ
    # message key -> the forum's post id of each bot post delivered in the threads (the outbox's record, or the
    # export's); a post not in it is not mentioned
    posts: dict[str, str] = field(default_factory=dict)
    vote_history: str = "live"
    picture: bool = True
    png: bool = False
    built: datetime | None = None  # when the pages are built (the tick's time): the open day's picture runs to it
    title: str = ""  # the game's name as players read it (its `title`); "" shows `name`, the folder's

    @property
    def shown_name(self) -> str:
        return self.title or self.name


_ENV: Environment | None = None


def env() -> Environment:
    global _ENV
    if _ENV is None:
        _ENV = Environment(loader=PackageLoader("forumbot.pages", "templates"),
                           autoescape=select_autoescape(default=True, default_for_string=True),
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return _ENV


def public_days(g: GamePages) -> list[DayData]:
    """The days the vote history shows now: `live` all, the open one too; `after_day` the resolved ones;
    `after_end` none before the end."""
    ended = g.run.result.winner is not None
    records = g.run.history
    if g.vote_history == "after_end" and not ended:
        return []
    if g.vote_history != "live":
        records = tuple(r for r in records if r.closed is not None)
    return [day_data(r, modkilled(g, r.label)) for r in records]


def modkilled(g: GamePages, label: str) -> dict[str, datetime]:
    """Seat id -> when the game thread announced its modkill during the phase `label` (C-10): the rows before
    it read the player as the counts of that time did, in the game."""
    head = f"{label}/modkill/"
    return {m.key.removeprefix(head): m.at for m in g.run.messages if m.key.startswith(head)}


def pictures(g: GamePages, days: list[DayData], words: Words) -> dict[str, tuple[str, str]]:
    """Phase label -> (file name, SVG) for each resolved day and runoff: the picture its result post shows (a
    runoff's holds its day's panel above its own). An open day has none: every picture a post points at stays
    as it was posted, and the site built later from the same game holds the same files."""
    out: dict[str, tuple[str, str]] = {}
    if not g.picture:
        return out
    for d in days:
        if d.closed is None:
            continue
        svg = render_closed(days, d, words)
        out[d.label] = (file_name(f"day-{d.number}", svg), svg)
    return out


def render_closed(days: list[DayData], d: DayData, words: Words, width: int = WIDTH) -> str:
    """A resolved day's picture (a runoff's holds its day's panel above its own)."""
    panels = [d] if d.kind == "day" else [x for x in days if x.number == d.number and x.kind == "day"] + [d]
    return render(panels, words, words("picture.title", phase=words.phase("day", d.number)), width=width)


def closed_pictures(g: GamePages, words: Words) -> dict[str, str]:
    """Phase label -> the file name of its picture, for the posts that show it."""
    return {label: name for label, (name, _) in pictures(g, public_days(g), words).items()}


def live_pictures(g: GamePages, days: list[DayData], words: Words, width: int = WIDTH) -> dict[str, str]:
    """Phase label -> the open day's (or runoff's) picture as a data URI, its tally marked as not final
    (`vote_history = "live"`), its axis to the deadline and its votes to the build's time (issue 28 item 11).
    Drawn into its page, not written as a file: it changes with every vote, and no post points at it, so no
    stale copy is left behind and a later build of the same game gives the same folder."""
    if not g.picture:
        return {}
    out = {}
    for d in days:
        if d.closed is None:
            panels = [x for x in days if x.number == d.number and x.kind == "day"] + [d] if d.kind == "runoff" else [d]
            title = words("picture.title", phase=words.phase("day", d.number)) + " — " + words("picture.open")
            until = g.run.next_deadline if d.label == g.run.phase else None
            out[d.label] = data_uri(render(panels, words, title, until, g.built, width))
    return out


def phone_pictures(g: GamePages, days: list[DayData], words: Words) -> dict[str, str]:
    """Phase label -> its picture drawn at a phone's width, as a data URI (issue 28 item 12): what the day page
    shows below 40rem instead of the desktop picture shrunk to unreadable labels. Never a file: no post shows it."""
    if not g.picture:
        return {}
    out = {label: data_uri(render_closed(days, d, words, PHONE_WIDTH)) for label, d in
           ((d.label, d) for d in days if d.closed is not None)}
    return out | live_pictures(g, days, words, PHONE_WIDTH)


def build_game(g: GamePages) -> dict[str, bytes]:
    """The game's files, by path relative to the site's folder (under the game's own folder)."""
    words = Words(g.setup.language, g.setup.schedule.timezone)
    days = public_days(g)
    pics = pictures(g, days, words)
    players = _players(g, words)
    ended = g.run.result.winner is not None
    base = checked_name(g.name, "game") + "/"
    files: dict[str, bytes] = {}
    numbers = sorted({d.number for d in days})
    posts = bot_posts(g.run.messages, g.posts, g.post_url)
    urls = by_key(posts)
    ctx = dict(w=words, g=g, lang=words.language, players=players, ended=ended, numbers=numbers,
               roles_shown=any(p["role"] for p in players),  # no column of blanks while the roles are secret
               days=days, pics=pics, nights=_nights(g, words, urls), link=lambda i: _post_link(g, i),
               alt=lambda d: alt_text(d, words), outcome=lambda d: outcome(d, words), check=_check(g) if ended else None,
               check_words=_check_words(g, players, words) if ended else None,
               phase=words.label(g.run.phase) if g.run.phase else "", timeline=lambda d: _timeline(g, d, urls), since=since_counts,
               events=_events(g, urls), posts=posts, result_url=lambda d: urls.get(f"{d.label}/result", ""),
               opening=urls.get("setup/players", ""), live=live_pictures(g, days, words), lead=lead,
               end_why=_end_why(g, words) if ended else "")
    nicks = {p[key] for p in players for key in ("nick", "seat")}  # who plays, and whom a newcomer replaced
    ctx.update(nick_parts=lambda text: nick_parts(text, nicks))
    iso = iso_files(g.run, [p["seat"] for p in players])  # the game thread's public posts, when it has any
    ctx.update(iso=iso, activity=(lambda n: activity_rows(g.run, n, players, iso)) if public_posts(g.run) else None,
               post_minimum=_post_minimum(g))
    files[base + "index.html"] = _html("game.html", ctx)
    for name, page in iso_pages(g.run, players, iso, words.label, lambda more: _html("iso.html", dict(ctx, **more))).items():
        files[base + name] = page
    for n in numbers:
        panels = [d for d in days if d.number == n]
        shown = next((pics[d.label][0] for d in reversed(panels) if d.label in pics), "")
        phone = phone_pictures(g, panels, words)
        files[base + f"day-{n}.html"] = _html("day.html", dict(ctx, n=n, panels=panels, picture=shown, phone=phone))
    for name, svg in pics.values():
        files[base + name] = svg.encode()
        if g.png:
            png = to_png(svg)
            if png is not None:
                files[base + name.removesuffix(".svg") + ".png"] = png
    files[base + "game.json"] = _json(g, days, players, words, posts)
    files[base + "votes.csv"] = _csv(g, days, words)
    return files


def build_index(games: list[dict], language: str = "ru", timezone: str = "Europe/Moscow",
                standings: dict | None = None) -> bytes:
    """The season index from the games' game.json documents (what the folder holds, whoever wrote it), with the
    season's standings (S-6) when the folder holds them."""
    words = Words(language, timezone)
    rows = [(d["game"], d.get("title") or d["game"], words.label(d["phase"]) if d.get("phase") else "",
             words(f"winner.{d['winner']}") if d.get("winner") else "") for d in games]
    table = standings_rows(standings, words, {d["game"] for d in games})
    return _html("index.html", dict(w=words, lang=words.language, rows=sorted(rows), standings=table,
                                    counted=counted(standings)))


def has_png() -> bool:
    """Whether the `png` extra is installed: a board that checks image sizes (phpBB) reads PNG, not SVG."""
    return importlib.util.find_spec("resvg_py") is not None


def _html(template: str, ctx: dict) -> bytes:
    return env().get_template(template).render(**ctx).encode()


def _events(g: GamePages, urls: dict[str, str]) -> list[tuple[datetime, str, str]]:
    """The GM's public acts as the bot announced them in the game thread (a pause, an extension, a
    replacement, a modkill, an undo, a GM's own words): time, first line (markup removed), the post's link."""
    return [(m.at, first_line(m.text), urls.get(m.key, "")) for m in g.run.messages
            if str(m.where) == "game" and (m.key.startswith(("gm/", "undo/")) or "/modkill/" in m.key)]


def _timeline(g: GamePages, d: DayData, urls: dict[str, str]) -> list[tuple[str, object]]:
    """The day's posts with the bot's count posts between them ("count", (its time, its link)): what changed
    since the previous count reads off the table. The counts are public posts of the vote thread."""
    counts = sorted((m.at, urls.get(m.key, "")) for m in g.run.messages
                    if str(m.where) == "vote" and m.key.startswith(f"{d.label}/count/"))
    out: list[tuple[str, object]] = []
    k = 0
    for row in d.rows:
        while k < len(counts) and counts[k][0] <= row.at:
            out.append(("count", counts[k]))
            k += 1
        out.append(("row", row))
    out += [("count", c) for c in counts[k:]]
    return out


def since_counts(timeline: list[tuple[str, object]]) -> list[tuple[object, list[tuple[str, object, object]]]]:
    """What changed from count to count (issue 20 item 3, "since the previous count"): for the day's start
    (None) and each count the bot posted ((its time, its link)), each vote that moved after it and before the
    next: (voter, the target before or None, the target after)."""
    out: list[tuple[object, list[tuple[str, object, object]]]] = [(None, [])]
    held: dict[str, object] = {}
    for kind, item in timeline:
        if kind == "count":
            out.append((item, []))
            continue
        row = item
        if not row.counted or row.target is None or held.get(row.lane) == row.target:  # type: ignore[attr-defined]
            continue
        out[-1][1].append((row.voter, held.get(row.lane), row.target))  # type: ignore[attr-defined]
        held[row.lane] = row.target  # type: ignore[attr-defined]
    return out


def _post_link(g: GamePages, input_id: str) -> str:
    if not g.post_url:
        return ""
    return g.post_url.replace("{id}", g.links.get(input_id, input_id))


def _post_minimum(g: GamePages) -> int:
    """R-11's N, 0 when off: the activity table then also shows what the count post counted (a quote-only post is
    a public post, but not one the minimum counts, and the count post's number must not read as contradicted)."""
    return int(configure(get_variant(g.setup.variant), g.setup.options).house.post_minimum)


def _open_roles(g: GamePages) -> bool:
    return bool(configure(get_variant(g.setup.variant), g.setup.options).open_roles)


def _players(g: GamePages, words: Words) -> list[dict]:
    """Seat, nick, state; the cause and role as the bot announced them (a night's cause and a role only with
    open roles, every role after the end)."""
    ended = g.run.result.winner is not None
    open_roles = _open_roles(g)
    out = []
    for spec, p in zip(g.setup.players, g.run.result.players):
        cause = ""
        if p.died:
            # a closed-role night post says only «Жертва этой ночи»: who killed stays unsaid, after the end too (M-2)
            cause = "night" if p.died.cause in NIGHT_KILLS and not open_roles else p.died.cause
        shown = ended or (open_roles and p.died is not None)
        out.append(dict(seat=spec.nick, nick=p.nick, alive=p.alive, phase=p.died.phase if p.died else "",
                        phase_words=words.inline(p.died.phase) if p.died else "", cause=cause,
                        cause_words=words.cause(cause) if cause else "",
                        role=str(p.role) if shown else "", role_words=words.role(str(p.role)) if shown else ""))
    return out


def _nights(g: GamePages, words: Words, urls: dict[str, str]) -> list[tuple[str, list[str], str, str]]:
    """Each resolved night with who died in it, as announced, the link to its result post and its misfire
    sentence, if the post had one."""
    label = g.run.phase
    days = [r for r in g.run.history if r.kind == "day"]
    if label == "ended":
        last = max((r.number for r in days), default=0)
        ended_after_day = bool(days) and days[-1].closed == g.run.result.ended_at
        count = last - 1 if ended_after_day else last
    else:
        kind, _, number = label.partition(" ")
        count = int(number) - 1 if number else 0
    out = []
    for n in range(1, count + 1):
        died = [p["nick"] + " — " + p["cause_words"] + (f" ({p['role_words']})" if p["role_words"] else "")
                for p in _players(g, words) if p["phase"] == f"night {n}"]
        out.append((words.phase("night", n), died, urls.get(f"night {n}/result", ""),
                    _misfire(g, words, f"night {n}/result")))
    return out


def _misfire(g: GamePages, words: Words, key: str) -> str:
    """M-5: the night post's «несострел» sentence where that post announced a misfire, else "". Read off the
    public post itself, so the page names it exactly where the thread did (the night's moves stay unread)."""
    said = words.said("night.misfire")
    return said if any(m.key == key and said in m.text for m in g.run.messages) else ""


def _end_why(g: GamePages, words: Words) -> str:
    """Why the game ended as its end post said it (M-6's three misfires, a stalemate, ...), else ""."""
    ended = next((m.text for m in g.run.messages if m.key == "ended/result"), "")
    return next((text for key, text in words.posts.v.T.items()
                 if key.startswith("end.why.") and "{" not in text and text in ended), "")


def _check_words(g: GamePages, players: list[dict], words: Words) -> tuple[str, str]:
    """The end post's own sentences around the draw string and the command (C-2): the roles are the draw's, a Don
    chosen later written «mafia» while the table names him, and macOS has no sha256sum."""
    has_don = any(p["role"] == "don" for p in players)
    return words.said("end.drawn" if has_don else "end.drawn_no_don", seed=g.setup.seed), words.said("end.check")


def _check(g: GamePages) -> dict:
    """After the end: the seed and the string whose SHA-256 the opening post gave (C-2), with the command."""
    roles = {sid: seat.role for sid, seat in draw_seats(g.setup).items()}
    drawn = commitment_text(g.setup.seed, roles)
    return dict(seed=g.setup.seed, drawn=drawn, command=f"printf '%s' {shlex.quote(drawn)} | sha256sum")


def _target(t) -> dict:
    return {"name": t.name, "special": t.special} if t is not None else None  # type: ignore[return-value]


def _json(g: GamePages, days: list[DayData], players: list[dict], words: Words, posts: list[BotPost]) -> bytes:
    ended = g.run.result.winner is not None
    doc: dict[str, Any] = {
        "game": g.name, **({"title": g.title} if g.title else {}), "variant": g.setup.variant, "language": words.language, "phase": g.run.phase,
        "deadline": _iso(g.run.next_deadline), "winner": g.run.result.winner,
        "ended_at": _iso(g.run.result.ended_at),
        "players": [{k: p[k] for k in ("seat", "nick", "alive", "phase", "cause", "role")} for p in players],
        "days": [{
            "kind": d.kind, "number": d.number, "opens": _iso(d.opens), "closed": _iso(d.closed),
            "final": [{"target": _target(t), "voters": list(v)} for t, v in d.final],
            "not_voted": list(d.not_voted), "majority": d.majority, "lynch": d.lynch, "leaders": list(d.leaders),
            "deaths": [{"nick": n, "cause": c, "role": r} for n, c, r in d.deaths], "cancelled": d.cancelled,
            "posts": [{"id": g.links.get(r.post_id, r.post_id), "at": _iso(r.at), "voter": r.voter,
                       "seat": r.lane, "text": r.text, "reading": r.reading, "detail": r.detail, "target": _target(r.target),
                       "tally": [[_target(t), c] for t, c in r.tally]} for r in d.rows],
        } for d in days],
        "bot_posts": [{"at": _iso(p.at), "thread": p.thread, "title": p.title, "url": p.url} for p in posts],
    }
    if ended:
        doc["check"] = _check(g)
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n", "|", "%")


def csv_cell(value: str) -> str:
    """A spreadsheet reads a cell starting with = + - @ (and tab, CR) as a formula: prefixed with ' it is text."""
    return "'" + value if value.startswith(_FORMULA) else value


def _csv(g: GamePages, days: list[DayData], words: Words) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(["phase", "post", "at", "voter", "reading", "detail", "target", "text"])
    for d in days:
        for r in d.rows:
            target = words.target(r.target.name, r.target.special) if r.target else ""
            w.writerow([csv_cell(x) for x in (d.label, g.links.get(r.post_id, r.post_id), _iso(r.at) or "", r.voter, r.reading, r.detail,
                                               target, r.text)])
    return out.getvalue().encode()
