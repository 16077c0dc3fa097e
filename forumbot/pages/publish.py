"""The pages in a running game (issue 20 item 4): the site URL frozen at `game start`, the files written by the
tick before it delivers, and the bot's posts that point at them: the opening post links the game page, each
day's result ends with the picture and a link to the day's page. A post whose picture could not be written
waits for a tick that can write it."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable
from urllib.parse import quote

from sqlalchemy import select

from forumbot.engine.results import GameRun
from forumbot.engine.signup_values import SignupRun
from forumbot.model import GameSetup, Message
from forumbot.pages.botposts import PUBLIC, forum_post_id
from forumbot.store.models import OutboxRow

if TYPE_CHECKING:  # types only: the builders load where a game is published, not in every tick
    from forumbot.pages.site import GamePages

log = logging.getLogger(__name__)

URL_KEY = "pages_url"  # beside the setup in the stored setup JSON: the URL players were given stays valid
RESULT = re.compile(r"^(day|runoff) (\d+)/(result|runoff)$")


def freeze_url(setup_json: str, config, game) -> str:
    """The stored setup with the site's public URL at `game start`, when the game is published."""
    pages = getattr(config, "pages", None)
    if pages is None or not game.publish:
        return setup_json
    d = json.loads(setup_json)
    d[URL_KEY] = pages.url
    return json.dumps(d, ensure_ascii=False, sort_keys=True)


def frozen_url(setup_json: str) -> str:
    return str(json.loads(setup_json).get(URL_KEY, ""))


def page_title(game) -> str:
    """The game's name on its pages (issue 28 item 9): its `title`, else its key as words ("осень_2026" reads
    «осень 2026»); "" where that is the key itself, so the pages show the key as they always did."""
    return game.title or (game.readable_name if game.readable_name != game.name else "")


def game_pages(config, game, setup: GameSetup, run: GameRun, url: str,
               links: dict[str, str] | None = None, posts: dict[str, str] | None = None,
               built: datetime | None = None) -> GamePages:
    # imported here: the builders (Jinja2, the SVG drawing) load only where a game is published, not in every tick
    from forumbot.pages.site import GamePages

    pages = config.pages
    threads = {k: t for k, t in (("game", game.game_thread), ("vote", game.vote_thread),
                                 ("signup", game.signup_thread)) if t.startswith("http")}
    return GamePages(game.name, setup, run, base_url=url, threads=threads, post_url=pages.post_url,
                     links=links or {}, vote_history=pages.vote_history, picture=pages.picture, png=pages.png,
                     posts={} if getattr(game, "mode", "") == "shadow" else dict(posts or {}), built=built,
                     title=page_title(game))


def delivered(sessions, game_id: int) -> dict[str, str]:
    """Message key -> the forum's post id of each of the game's posts in its threads that the outbox delivered
    (issue 20 item 3: the game page links every bot post). In shadow mode the posts went as PMs: none."""
    with sessions.begin() as session:
        rows = session.execute(select(OutboxRow.key, OutboxRow.remote_id).where(
            OutboxRow.game_id == game_id, OutboxRow.status == "sent", OutboxRow.origin == "core",
            OutboxRow.where.in_(PUBLIC))).all()
    return {key: forum_post_id(remote) for key, remote in rows if forum_post_id(remote)}


@dataclass
class Published:
    written: list[str]
    error: str = ""  # why the files could not be written; the posts that point at them wait


def publish(folder: Path, g: GamePages, signup: SignupRun | None = None) -> Published:
    """Write the game's changed files (and the season index); a quiet tick writes nothing. `signup`: the list of
    a sign-up still open, shown instead of the game (S-2)."""
    # imported here: the builders (Jinja2, the SVG drawing) load only where a game is published, not in every tick
    from forumbot.pages.output import write_site
    from forumbot.pages.signup_page import build_site

    try:
        return Published(write_site(folder, build_site(g, signup), g.setup.language, g.setup.schedule.timezone))
    except OSError as e:
        return Published([], f"cannot write the pages under {folder}: {e.strerror or e}")


def decorate(g: GamePages, messages: tuple[Message, ...], markdown: bool, written: bool) -> tuple[Message, ...]:
    """The posts with their links; without `written`, the posts that would show a picture are left out (they
    wait: a forum would fetch a picture that is not there)."""
    if not g.base_url:
        return messages
    # imported here: the builders (Jinja2, the SVG drawing) load only where a game is published, not in every tick
    from forumbot.pages.site import closed_pictures, has_png, public_days
    from forumbot.pages.words import Words

    words = Words(g.setup.language, g.setup.schedule.timezone)
    base = g.base_url.rstrip("/") + "/" + _quote(g.name) + "/"
    pics = closed_pictures(g, words)
    shown = {d.label for d in public_days(g) if d.closed is not None}
    out = []
    for m in messages:
        if m.key == "setup/players":
            m = replace(m, text=m.text + "\n\n" + _link(words("post.game_page"), base, markdown))
        found = RESULT.match(m.key)
        if found:
            kind, n, _ = found.groups()
            label = f"{kind} {n}"
            if label in shown:
                if not written:
                    continue
                lines = []
                if label in pics:
                    img = base + (pics[label].removesuffix(".svg") + ".png" if g.png and has_png() else pics[label])
                    lines.append(f"![{words('post.picture', n=n)}]({img})" if markdown else f"[img]{img}[/img]")
                lines.append(_link(words("post.day_page"), base + f"day-{n}.html", markdown))
                m = replace(m, text=m.text + "\n\n" + "\n".join(lines))
        out.append(m)
    return tuple(out)


def _link(label: str, url: str, markdown: bool) -> str:
    return f"[{label}]({url})" if markdown else f"{label}: [url]{url}[/url]"


def _quote(name: str) -> str:
    return quote(name)


def in_tick(config, game, setup: GameSetup, run: GameRun, setup_json: Callable[[], str],
            markdown: bool, posts: Callable[[], dict[str, str]] = dict,
            built: datetime | None = None, signup: SignupRun | None = None) -> tuple[GameRun, str]:
    """The tick's hook: write the game's pages, then give the fold's result with the posts linked. Returns the
    result to enqueue and why posts wait ("" when none does). `posts`: the delivered posts' forum ids. A game
    from a sign-up (S-1) is handed the setup its close gave (`game.for_pages`); while the sign-up is open, its
    list (`signup`), which the page shows; waiting or cancelled, it has no page."""
    if getattr(config, "pages", None) is None or not game.publish:
        return run, ""
    if setup.signup is not None and (signup is None or signup.state != "open"):
        return run, ""
    url = frozen_url(setup_json())
    if not url:  # started before [pages] was configured: its posts went out without links
        return run, ""
    g = game_pages(config, game, setup, run, url, posts=posts(), built=built)
    done = publish(config.pages.folder, g, signup)
    if setup.signup is not None:  # the sign-up's posts link no page
        return run, done.error
    if done.written:
        log.info("%s: pages written: %s", game.name, ", ".join(done.written))
    if done.error:
        log.warning("%s: %s; the posts showing a picture wait", game.name, done.error)
    return replace(run, messages=decorate(g, run.messages, markdown, not done.error)), done.error


def after_delivery(config, game, setup: GameSetup, run: GameRun, setup_json: Callable[[], str],
                   posts: Callable[[], dict[str, str]], built: datetime | None = None) -> None:
    """The tick's second hook, once it delivered posts: the pages link them now (their forum ids are known
    only now), so the folder is what `replay --pages` of an export builds. A failure only leaves them unlinked
    until the next tick that writes."""
    if getattr(config, "pages", None) is None or not game.publish or setup.signup is not None:
        return  # a sign-up's page links no post (S-2)
    url = frozen_url(setup_json())
    if not url:
        return
    done = publish(config.pages.folder, game_pages(config, game, setup, run, url, posts=posts(), built=built))
    if done.written:
        log.info("%s: pages linked to the posts delivered: %s", game.name, ", ".join(done.written))
    if done.error:
        log.warning("%s: %s", game.name, done.error)
