"""What the pages commands do, apart from argument parsing (forumbot/cli/pages.py): build a stored game's site,
a transcript's site (`replay --pages`, the same bytes the ticks wrote), and the probe of the public URL."""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

import requests
from sqlalchemy import select

from forumbot.config.types import Config
from forumbot.errors import ConfigError, TranscriptError
from forumbot.engine.results import GameRun
from forumbot.pages.output import write_site
from forumbot.pages.publish import delivered, frozen_url, game_pages
from forumbot.config.pages import HISTORY_MODES
from forumbot.pages.site import GamePages, build_game
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
    return GamePages(transcript.game or name, transcript.setup, run, base_url=fields["url"], threads=threads,
                     post_url=fields["post_url"], links=dict(transcript.links), vote_history=mode,
                     picture=fields["picture"], png=fields["png"], posts={k: str(v) for k, v in posts.items()},
                     built=transcript.until, title=fields["title"])


def write_pages(folder: Path, g: GamePages) -> list[str]:
    return write_site(folder, build_game(g), g.setup.language, g.setup.schedule.timezone)


def build_stored(sessions, config: Config, names: list[str], folder: Path | None,
                 now: datetime) -> list[str]:
    """`forumbot pages build`: each named (default: every published) stored game's site, folded as a tick
    would now; returns the files written."""
    from datetime import timedelta


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
        setup, game_id = _setup(sessions, config, name)
        with sessions.begin() as session:
            run = as_sent(session, game_id, run)  # C-14: the counts that were sent, as the ticks' pages have them
        url = frozen_url(rows[name]) or config.pages.url
        written += write_pages(out, game_pages(config, game, setup, run, url, posts=delivered(sessions, game_id),
                                               built=until))
    return sorted(set(written))


def _setup(sessions, config: Config, name: str):

    with sessions.begin() as session:
        game_id = session.scalar(select(GameRow.id).where(GameRow.name == name))
        setup, _, _ = load_game(session, config, game_id)
    return setup, game_id


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
        response = (http or requests.Session()).get(url, timeout=15)
        if response.status_code != 200 or response.text.strip() != token:
            return texts["check.pages_not_served"].format(url=url, folder=pages.folder, status=response.status_code)
        return None
    except requests.RequestException as e:
        return texts["check.pages_unreachable"].format(url=url, error=e)
    finally:
        path.unlink(missing_ok=True)
