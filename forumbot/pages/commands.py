"""What the pages commands do, apart from argument parsing (forumbot/cli/pages.py): build a stored game's site,
a transcript's site (`replay --pages`, the same bytes the ticks wrote), and the probe of the public URL."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Mapping

import requests
from sqlalchemy import select

from forumbot.config.types import Config
from forumbot.errors import ConfigError, TranscriptError
from forumbot.engine.results import GameRun
from forumbot.model import GameSetup
from forumbot.engine.signup_values import SignupRun
from forumbot.game import for_pages
from forumbot.pages.output import write_site
from forumbot.pages.publish import delivered, frozen_url, game_pages
from forumbot.config.pages import HISTORY_MODES
from forumbot.pages.site import GamePages
from forumbot.pages.signup_page import build_site
from forumbot.store.game import as_sent, fold_game, load_game
from forumbot.store.models import GameRow


def transcript_pages(transcript, run: GameRun, name: str) -> GamePages:
    """A transcript's pages as its game's ticks built them: `game export` records how (URL, threads, post links,
    vote history) and each event's forum id."""
    p: dict[str, Any] = transcript.pages or {}
    mode = p.get("vote_history", "after_day")
    if mode not in HISTORY_MODES:
        raise TranscriptError(f"transcript: pages.vote_history must be one of {', '.join(HISTORY_MODES)}")
    threads = p.get("threads", {})
    posts = p.get("posts", {})
    fields = {"url": p.get("url", ""), "post_url": p.get("post_url", ""), "picture": p.get("picture", True),
              "png": p.get("png", False), "title": p.get("title", "")}
    if not isinstance(posts, dict) or not all(isinstance(k, str) and isinstance(v, (str, int))
                                              for k, v in posts.items()):
        raise TranscriptError("transcript: pages.posts is a table of message keys to the forum's post ids")
    if (not isinstance(threads, dict) or not all(isinstance(v, str) for v in threads.values())
            or not isinstance(fields["url"], str) or not isinstance(fields["post_url"], str)
            or not isinstance(fields["title"], str)
            or not isinstance(fields["picture"], bool) or not isinstance(fields["png"], bool)):
        raise TranscriptError("transcript: pages holds url, post_url, title (strings), threads (a table of URLs), "
                              "picture and png (true or false)")
    setup, _ = transcript_signup(transcript)
    return GamePages(transcript.game or name, setup, run, base_url=fields["url"], threads=threads,
                     post_url=fields["post_url"], links=dict(transcript.links), vote_history=mode,
                     picture=fields["picture"], png=fields["png"], posts={k: str(v) for k, v in posts.items()},
                     built=transcript.until, title=fields["title"])


def transcript_signup(transcript) -> tuple[GameSetup, SignupRun | None]:
    """A transcript's setup as its pages show it, and the list of its sign-up if still open at its end (S-1..S-3;
    without `until`, the end `replay` folds to: the close plus `extend`, or the last event)."""
    setup = transcript.setup
    if setup.signup is None:
        return setup, None
    until = transcript.until or max([setup.signup.closes + setup.signup.extend] + [e.at for e in transcript.events])
    return for_pages(setup, transcript.events, until)


def write_pages(folder: Path, g: GamePages, signup: SignupRun | None = None) -> list[str]:
    return write_site(folder, build_site(g, signup), g.setup.language, g.setup.schedule.timezone)


def build_stored(sessions, config: Config, names: list[str], folder: Path | None,
                 now: datetime) -> list[str]:
    """`forumbot pages build`: each named (default: every published) stored game's site, folded as a tick
    would now; returns the files written."""
    if config.pages is None:
        raise ConfigError(f"{config.path}: no [pages] table (folder, url): there is nothing to build")
    with sessions.begin() as session:
        rows = {g.name: g.setup_json for g in session.scalars(select(GameRow))}
    unknown = [n for n in names if n not in rows or n not in config.games]
    if unknown:
        raise ConfigError(f"no started game named {', '.join(map(repr, unknown))} in {config.path}")
    chosen = names or sorted(n for n in rows if n in config.games and config.games[n].publish)
    out = folder or config.pages.folder
    written: list[str] = []
    until = now - timedelta(seconds=config.grace_seconds)
    for name in chosen:
        game = config.games[name]
        run = fold_game(sessions, config, name, until)
        setup, game_id, signup = _setup(sessions, config, name, until)
        if setup.signup is not None and signup is None:
            continue  # a sign-up not open yet or cancelled has no page (S-1, S-3)
        with sessions.begin() as session:
            run = as_sent(session, game_id, run)  # C-14: the counts that were sent, as the ticks' pages have them
        url = frozen_url(rows[name]) or config.pages.url
        g = game_pages(config, game, setup, run, url, posts=delivered(sessions, game_id), built=until)
        written += write_pages(out, g, signup)
    return sorted(set(written))


def _setup(sessions, config: Config, name: str, until: datetime):
    """The stored game's setup as its pages show it (a sign-up's, S-1..S-3: `for_pages`), its id, and the list of
    a sign-up still open (or of one not open, or cancelled: no page)."""
    with sessions.begin() as session:
        game_id = session.scalar(select(GameRow.id).where(GameRow.name == name))
        setup, inputs, _ = load_game(session, config, game_id)
    shown, signup = for_pages(setup, inputs, until)
    return shown, game_id, (signup if signup is None or signup.state == "open" else None)


# how long `check-config --online` waits for the public URL to answer
PROBE_SECONDS = 15


def probe_public_url(config: Config, texts: Mapping[str, str], http: requests.Session | None = None) -> str | None:
    """`check-config --online`: a file written into the folder must come back through the public URL.
    Returns the problem in the words of `texts` (the GMs' language: forumbot.texts), or None."""
    pages = config.pages
    if pages is None:
        return None
    token = secrets.token_hex(8)
    name = f"forumbot-probe-{token}.txt"
    path = pages.folder / name
    try:
        pages.folder.mkdir(parents=True, exist_ok=True)
        path.write_text(token, encoding="utf-8")
    except OSError as e:
        return texts["check.pages_unwritable"].format(path=path, error=e.strerror or e)
    url = pages.url.rstrip("/") + "/" + name
    try:
        response = (http or requests.Session()).get(url, timeout=PROBE_SECONDS)
        if response.status_code != 200 or response.text.strip() != token:
            return texts["check.pages_not_served"].format(url=url, folder=pages.folder, status=response.status_code)
        return None
    except requests.RequestException as e:
        return texts["check.pages_unreachable"].format(url=url, error=_unreachable_reason(e, texts))
    finally:
        path.unlink(missing_ok=True)


def _unreachable_reason(error: requests.RequestException, texts: Mapping[str, str]) -> str:
    """Why the URL did not answer, in the GMs' language; the library's own text is English, so only its class
    name is kept, for whoever looks further."""
    if isinstance(error, requests.Timeout):  # before ConnectionError: ConnectTimeout is both
        kind = "timeout"
    elif isinstance(error, requests.exceptions.SSLError):
        kind = "tls"
    elif isinstance(error, requests.ConnectionError):
        kind = "connect"
    else:
        kind = "other"
    return texts[f"check.pages_unreachable.{kind}"].format(error=type(error).__name__, seconds=PROBE_SECONDS)
