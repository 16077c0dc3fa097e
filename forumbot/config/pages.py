"""The `[pages]` table of forumbot.toml (issue 20 item 4):

    [pages]
    folder = "/var/www/mafia"                 # the static site is written here
    url = "https://mafia.example.org/"        # its public https URL; frozen into a game at `game start`
    picture = true                            # the day's picture in its result post
    vote_history = "after_day"                # live | after_day | after_end
    post_url = "https://forum.example.org/viewtopic.php?p={id}#p{id}"   # optional: links to vote posts
    png = false                               # also a PNG of each picture (the `png` extra)

A game is published unless its own table says `publish = false`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import quote, urlsplit

HISTORY_MODES = ("live", "after_day", "after_end")
KEYS = {"folder", "url", "picture", "vote_history", "post_url", "png", "dashboard"}


@dataclass(frozen=True)
class PagesConfig:
    folder: Path
    url: str
    picture: bool = True
    vote_history: str = "after_day"
    post_url: str = ""
    png: bool = False
    dashboard: Path | None = None  # the private dashboard file (0600), never under `folder`

    def game_url(self, base: str, game: str) -> str:
        return f"{base.rstrip('/')}/{quote(game)}/"


def parse_pages(raw: Any, config_path: Path, problems: list[str], t: Mapping[str, str]) -> PagesConfig | None:
    """The table, or None (nothing published, or a problem named in `problems` in the GMs' language `t`)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.append(f"pages: {t['config.expected_table']}")
        return None
    before = len(problems)
    for key in sorted(set(raw) - KEYS):
        problems.append(f"pages.{key}: " + t["config.pages.unknown"].format(known=", ".join(sorted(KEYS))))
    folder_raw = raw.get("folder")
    if not isinstance(folder_raw, str) or not folder_raw.strip():
        problems.append(f"pages.folder: {t['config.pages.folder']}")
        folder_raw = "."
    folder = (config_path.parent / folder_raw).resolve()
    url = raw.get("url")
    if not isinstance(url, str) or not (_https(url) or _loopback(url)):
        problems.append("pages.url: " + t["config.pages.url"].format(got=url))
    post_url = raw.get("post_url", "")
    if post_url and (not isinstance(post_url, str) or not _https(post_url.replace("{id}", "1"), http=True)
                     or "{id}" not in post_url):
        problems.append("pages.post_url: " + t["config.pages.post_url"].format(got=post_url))
    mode = raw.get("vote_history", "after_day")
    if mode not in HISTORY_MODES:
        problems.append("pages.vote_history: " + t["config.pages.vote_history"].format(
            modes=", ".join(HISTORY_MODES), got=mode))
    flags = {}
    for key, default in (("picture", True), ("png", False)):
        value = raw.get(key, default)
        if not isinstance(value, bool):
            problems.append(f"pages.{key}: " + t["config.pages.bool"].format(got=value))
        flags[key] = bool(value)
    dashboard = None
    if "dashboard" in raw:
        d = raw["dashboard"]
        if not isinstance(d, str) or not d.strip():
            problems.append(f"pages.dashboard: {t['config.pages.dashboard']}")
        else:
            dashboard = (config_path.parent / d).resolve()
            if dashboard == folder or folder in dashboard.parents:
                problems.append(f"pages.dashboard: {t['config.pages.dashboard_inside']}")
    if len(problems) > before:
        return None
    return PagesConfig(folder=folder, url=str(url), picture=flags["picture"], vote_history=str(mode),
                       post_url=str(post_url), png=flags["png"], dashboard=dashboard)


def _loopback(url: str) -> bool:
    """http on this machine (`forumbot serve` on 127.0.0.1, a board that fetches the picture from it)."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return _https(url, http=True) and host in ("127.0.0.1", "localhost", "::1")


def _https(url: str, http: bool = False) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    schemes = ("https", "http") if http else ("https",)
    return (parts.scheme in schemes and bool(parts.hostname) and not any(c.isspace() or c in "[]<>\"'" for c in url))
