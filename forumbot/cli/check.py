"""`forumbot check-config [--online]`: the configuration validated, each problem named; with --online, each forum
logged in to and each game's threads read (issue 17 item 15: what "ok" covered is said)."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from forumbot.cli.common import config_from_args, now_of
from forumbot.config.types import Config
from forumbot.errors import ConfigError, ForumError, LoginRequired
from forumbot.forum.adapter import LOCK, can
from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK, EXIT_UNREACHABLE
from forumbot.store import open_engine
from forumbot.store.models import GameRow
from forumbot.texts import TABLES, gm_language


def cmd_check_config(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import config_warnings
    from forumbot.config.cast_summary import cast_summaries
    from forumbot.config.checks import check_forums, check_setups, late_starts
    from forumbot.config.conference import conference_warnings
    from forumbot.games.start import thread_warnings

    config = config_from_args(args)
    t = texts_of(config)
    for warning in config_warnings(config, t):  # the engines' own findings too, in the GMs' language (issue 28)
        print(f"forumbot: {t['check.warning'].format(text=warning)}", file=sys.stderr)
    problems = check_setups(config) + check_forums(config, os.environ, t)
    for problem in problems:
        print(f"forumbot: {problem}", file=sys.stderr)
    if problems:
        return EXIT_CONFIG
    statuses = _game_statuses(config)
    for warning in (late_starts(config, now_of(args), t, set(statuses)) + thread_warnings(config, statuses, t)
                    + conference_warnings(config, t)):
        print(f"forumbot: {t['check.warning'].format(text=warning)}", file=sys.stderr)
    for line in cast_summaries(config, t):
        print(line)
    if args.online:
        verified: list[str] = []
        wrong, unreachable, warnings = check_online(config, os.environ, now=now_of(args), verified=verified)
        for line in verified:
            print(line)
        for warning in warnings:
            print(f"forumbot: {t['check.warning'].format(text=warning)}", file=sys.stderr)
        for problem in wrong + unreachable:
            print(f"forumbot: {problem}", file=sys.stderr)
        if wrong:
            return EXIT_CONFIG
        if unreachable:
            return EXIT_UNREACHABLE
        # imported here: pages/ (templates, jinja2) is loaded only by check-config --online
        from forumbot.pages.commands import probe_public_url

        public_problem = probe_public_url(config, t)
        if public_problem:
            print(f"forumbot: {public_problem}", file=sys.stderr)
            return EXIT_CONFIG
    print(t["check.ok"].format(path=config.path, forums=len(config.forums), games=len(config.games)))
    return EXIT_OK


def texts_of(config: Config) -> dict[str, str]:
    """The texts of the GMs' language (issue 28 item 4)."""
    return TABLES[gm_language([g.language for g in config.games.values()])]

def _game_statuses(config: Config) -> dict[str, str]:
    """The games already in the database, by name, with their status; none when there is no usable database
    yet (check-config creates nothing)."""
    url = config.database_url
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).exists():
        return {}
    try:
        engine = open_engine(url)
        try:
            with engine.connect() as connection:
                return dict(connection.execute(select(GameRow.name, GameRow.status)).all())
        finally:
            engine.dispose()
    except SQLAlchemyError:
        return {}


def check_online(config: Config, environ, factory=None, now: datetime | None = None,
                 verified: list[str] | None = None) -> tuple[list[str], list[str], list[str]]:
    """`check-config --online`: log in to each forum, compare the zone its board shows the bot with the one
    its dates are read in, and read each game's threads. Returns (what the config gets wrong, what could not
    be reached, warnings), one line each naming the setting; `verified` gets one line per check that passed, so
    the GM knows what "ok" covered (issue 17 item 15)."""
    verified = [] if verified is None else verified
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.forum.registry import rough_times_warning
    from forumbot.cycle.daemon import build_adapter

    # imported on first use, as above: games/ is loaded only by check-config --online
    from forumbot.games.accounts import look_up

    factory = factory or build_adapter
    now = now or datetime.now(timezone.utc)
    t = texts_of(config)
    wrong: list[str] = []
    unreachable: list[str] = []
    warnings: list[str] = []
    for forum in config.forums.values():
        try:
            adapter = factory(forum, environ)
            adapter.login()
        except ConfigError as e:
            wrong.append(str(e))
            continue
        except LoginRequired as e:  # the board answered and refused: a config to fix, not a board away
            wrong.append(t["check.cannot_login"].format(forum=forum.name, error=f"{e}{forum.login_refused_hint()}"))
            continue
        except ForumError as e:
            unreachable.append(t["check.cannot_login"].format(forum=forum.name, error=e))
            continue
        verified.append(t["check.logged_in"].format(forum=forum.name, login=forum.login))
        try:
            mismatch, zone_seen = _zone_mismatch(forum, adapter, now)
        except ForumError as e:
            unreachable.append(t["check.cannot_zone"].format(forum=forum.name, error=e))
        else:
            if mismatch:
                wrong.append(mismatch)
            elif zone_seen:
                verified.append(t["check.zone_ok"].format(forum=forum.name, zone=zone_seen))
            else:
                verified.append(t["check.zone_unknown"].format(
                    forum=forum.name, zone=forum.timezone_name or t["check.zone_each_page"]))
        threads: list[str] = []
        named: list[str] = []  # threads the engine can name, read or not: the probe says what it failed to find
        for game in config.games.values():
            if game.forum != forum.name:
                continue
            spans = []
            for key, thread in game.keyed_threads:  # the sign-up's own thread too (S-1)
                try:
                    adapter.topic_id(thread)
                    named.append(thread)
                    posts, _ = adapter.fetch_posts(thread)
                except ValueError as e:  # not a topic this engine can name
                    wrong.append(t["check.not_a_topic"].format(game=game.name, key=key, error=e))
                except ForumError as e:
                    unreachable.append(t["check.cannot_read"].format(game=game.name, key=key, thread=thread, error=e))
                else:
                    spans += [(p.posted_at, p.posted_latest) for p in posts]
                    threads.append(thread)
                    verified.append(t["check.read"].format(game=game.name, key=key, thread=thread, count=len(posts)))
            rough = rough_times_warning(forum.engine, spans)  # a warning only: the game runs either way (C-1)
            if rough:
                warnings.append(f"games.{game.name}: {rough}")
        if named and adapter.profile is not None:
            # issue 9 item 4: what `forumbot probe` checks, quietly: each selector the bot needs matched
            from forumbot.probe.board import probe

            try:
                report = probe(adapter, named[0], forum=forum.name, login=False, language=gm_language(
                    [g.language for g in config.games.values()]))
            except ForumError as e:
                unreachable.append(f"forums.{forum.name}: cannot read {named[0]} or the inbox: {e}")
            else:
                wrong.extend(p if p.startswith("forums.") else f"forums.{forum.name}: {p}" for p in report.problems)
                if not report.problems:
                    verified.append(t["check.selectors" if report.inbox is None else "check.selectors_inbox"]
                                    .format(forum=forum.name))
        for game in config.games.values():  # read from the thread page's controls, nothing locked
            if game.forum == forum.name and game.options.get("lock_threads") and game.vote_thread in threads:
                _check_lock(adapter, game, wrong, unreachable, verified, t)
        for game in config.games.values():  # issue 28 item 4: a typo in a name is found before anything is posted
            if game.forum != forum.name:
                continue
            try:
                found = look_up(adapter, game, t)
            except ForumError as e:  # the threads were read: a member list that fails is no board away
                warnings.append(t["accounts.unreachable"].format(game=game.name, error=e))
            else:
                wrong.extend(found.problems)
                verified.extend(found.notes)
        try:  # what the account lacks, where the engine can tell (Discourse, XenForo's API)
            wrong.extend(f"forums.{forum.name}: {p}" for p in adapter.check_account(threads))
        except ForumError as e:
            unreachable.append(f"forums.{forum.name}: cannot read the account: {e}")
    return wrong, unreachable, warnings


def _check_lock(adapter, game, wrong: list[str], unreachable: list[str], verified: list[str], t) -> None:
    """R-13: a game with lock_threads on a board where the bot's account has no lock control is a config to fix.
    Read from the vote thread's page (the controls the board shows the bot's account); nothing is locked."""
    setting = f"games.{game.name}.options.lock_threads"
    if not can(adapter, LOCK):
        wrong.append(f"{setting}: the bot cannot lock threads on this engine; set it to false")
        return
    try:
        may = adapter.may_lock(game.vote_thread)
    except ForumError as e:
        unreachable.append(f"{setting}: cannot read the lock control on {game.vote_thread}: {e}")
        return
    if may is None:
        verified.append(t["check.lock_unknown"].format(setting=setting, thread=game.vote_thread))
    elif may:
        verified.append(t["check.lock_yes"].format(setting=setting, thread=game.vote_thread))
    else:
        wrong.append(f"{setting}: the bot's account has no lock control on {game.vote_thread}: give it a "
                     "moderator's right in the game's forum, or set lock_threads = false")


def _zone_mismatch(forum, adapter, now: datetime) -> tuple[str | None, str | None]:
    """issue 7 item 3: a board showing the bot another zone than the adapter reads its dates in shifts every
    PM and edit by the difference."""
    # the zone the adapter really reads dates in (the HTML adapters keep it as `tz`), else the configured one
    zone = adapter.tz or (ZoneInfo(forum.timezone_name) if forum.timezone_name else None)
    if zone is None:
        return None, None
    shown = adapter.board_utc_offset()
    if shown is None:
        return None, None
    expected = now.astimezone(zone).utcoffset()
    if shown == expected:
        return None, f"{_utc(shown)} ({zone})"
    return (f"forums.{forum.name}.timezone_name: the board shows the bot's account times in {_utc(shown)}, but "
            f"they are read in {zone} ({_utc(expected)}): set timezone_name to the board's zone, "
            "or the account's time zone on the board to this one"), None


def _utc(offset) -> str:
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
