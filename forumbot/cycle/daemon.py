"""The shell around the cycle: open the database and the forums, run `tick` once (cron) or forever (`run`).

Adapters are found by engine name through forumbot.forum.registry (the "forumbot.adapters" entry-point group, or a
"module:attr" engine name for an adapter not installed as a package). An adapter class is built with `from_config(forum,
password)` when it has that classmethod, else called with those of base_url, login, username, bot and password
that its signature names, plus the forum table's other keys (all of them if it takes **kwargs). Its session, when it offers
`export_cookies() -> str` and `import_cookies(str)` (every HTML adapter does: cookies and flood times), is kept in the
database, so a cron tick neither logs in anew nor posts before the forum's flood timer allows it.
"""

from __future__ import annotations

import inspect
import logging
import os
import signal
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Mapping

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from forumbot.forum.adapter import COOKIES, ConfigWarning, ForumAdapter, can
from forumbot.config.types import Config, ForumConfig
from forumbot.disk import disk_problem
from forumbot.errors import ConfigError, FloodLimited, ForumError, LoginRequired
from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK, EXIT_UNREACHABLE
from forumbot.forum.registry import adapter_factory, constructor_from_config, engine_class
from forumbot.store import open_engine, require_current, session_factory
from forumbot.store.locks import locks_for
from forumbot.store.models import ForumRow, GameRow
from forumbot.store.records import forum_id
from forumbot.cycle.context import Context, TickReport
from forumbot.store.game import Fold, default_fold
from forumbot.forum.retry import Retry
from forumbot.cycle.season import open_next_signups
from forumbot.cycle.tick import tick
from forumbot.texts import TABLES

log = logging.getLogger("forumbot.daemon")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def build_adapter(forum: ForumConfig, environ: Mapping[str, str]) -> ForumAdapter:
    factory = adapter_factory(forum.engine)
    if forum.password_env and forum.password_env not in environ:
        raise ConfigError(f"forums.{forum.name}.password_env: environment variable {forum.password_env} is not set")
    password = forum.password(dict(environ))
    from_config = constructor_from_config(factory)
    if from_config is not None:
        return from_config(forum, password)
    parameters: Mapping[str, inspect.Parameter]
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        parameters = {}
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    # the bot's account under whichever name the adapter uses for it; only names it declares
    named = {"base_url": forum.base_url, "login": forum.login, "username": forum.login, "bot": forum.login,
             "password": password, "environ": environ}
    kwargs = {k: v for k, v in named.items() if k in parameters}
    kwargs.update({k: v for k, v in forum.extra.items() if takes_all or k in parameters})
    return factory(**kwargs)


class Forums:
    """The open adapters, by forum name: opened when a forum first has a running game, then kept (so `run`
    logs in once, not every cycle). The session (cookies and flood times) is restored from the database on
    opening, in which case there is no login (an expired session is met by the adapter's own re-login), and
    saved after each cycle when it changed."""

    def __init__(self, config: Config, sessions, environ: Mapping[str, str],
                 factory: Callable[[ForumConfig, Mapping[str, str]], ForumAdapter]) -> None:
        self.config, self.sessions, self.environ, self.factory = config, sessions, environ, factory
        self.live: dict[str, ForumAdapter] = {}
        self._saved: dict[str, str | None] = {}

    def open(self, names: set[str], retry: Retry) -> dict[str, ForumAdapter | ForumError]:
        opened: dict[str, ForumAdapter | ForumError] = {}
        for name in sorted(names):
            if name in self.live:
                opened[name] = self.live[name]
                continue
            adapter = self.factory(self.config.forums[name], self.environ)
            with self.sessions.begin() as session:
                jar = session.scalar(select(ForumRow.cookies).where(ForumRow.name == name))
            self._saved[name] = jar
            try:
                if not (jar and _restore(adapter, name, jar)):
                    retry(adapter, adapter.login)
                    # kept at once: a tick killed later in its cycle (cron's timeout, a reboot) would otherwise
                    # leave the next one to log in again, the request the stored session is there to save
                    self._save(name, adapter)
            except FloodLimited as e:
                # kept, so the next process waits as the forum asked instead of logging in again at once
                log.info("%s: logging in deferred by the forum: %s", name, e)
                self._save(name, adapter)
                opened[name] = e
                continue
            except ForumError as e:
                hint = self.config.forums[name].login_refused_hint() if isinstance(e, LoginRequired) else ""
                log.error("%s: cannot log in: %s%s", name, e, hint)
                # kept too: what the adapter learnt of the refusal (XenForo: no new try with that password for
                # a while) reaches the next tick, which would otherwise post the wrong password again
                self._save(name, adapter)
                opened[name] = e  # opened afresh next cycle
                continue
            self.live[name] = opened[name] = adapter
        return opened

    def save(self) -> None:
        for name, adapter in self.live.items():
            self._save(name, adapter)

    def _save(self, name: str, adapter: ForumAdapter) -> None:
        if not can(adapter, COOKIES):
            return
        export = adapter.export_cookies  # type: ignore[attr-defined]
        if export() == self._saved.get(name):
            return
        with self.sessions.begin() as session:
            row = session.scalar(select(ForumRow).where(ForumRow.name == name).with_for_update())
            if row is None:
                return
            if row.cookies and row.cookies != self._saved.get(name):
                # another process (an overlapping tick) saved since we read: keep its later flood times
                _restore(adapter, name, row.cookies)
            jar = export()
            row.cookies = jar
        self._saved[name] = jar


def _restore(adapter: ForumAdapter, name: str, jar: str) -> bool:
    """Hand a stored session to the adapter; False when it cannot take it (then the caller logs in)."""
    if not can(adapter, COOKIES):
        return False
    try:
        adapter.import_cookies(jar)  # type: ignore[attr-defined]
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        log.warning("%s: the stored session is unreadable (%s); logging in afresh", name, type(e).__name__)
        return False
    return True


def _register_forums(sessions, config: Config) -> None:
    with sessions.begin() as session:
        known = set(session.scalars(select(ForumRow.name)))
        for forum in config.forums.values():
            if forum.name not in known:
                forum_id(session, forum.name, forum.engine)


@dataclass
class Daemon:
    """Everything one process needs to run cycles; built once, used by `tick` once and by `run` repeatedly."""

    config: Config
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    fold: Fold = default_fold
    clock: Callable[[], datetime] = utcnow
    sleep: Callable[[float], None] | None = None
    factory: Callable[[ForumConfig, Mapping[str, str]], ForumAdapter] = build_adapter

    def __post_init__(self) -> None:
        self.engine = open_engine(self.config.database_url)
        require_current(self.engine, self.config.gm_texts)
        self.sessions = session_factory(self.engine)
        self.locks = locks_for(self.engine, self.config.state_dir)
        _register_forums(self.sessions, self.config)
        self.forums = Forums(self.config, self.sessions, self.environ, lambda f, env: self.factory(f, env))

    def cycle(self, hook=None) -> TickReport:
        open_next_signups(self.config, self.sessions, self.clock())  # S-5: a sign-up opened now is ticked now
        with self.sessions.begin() as session:
            names = {name for name, in session.execute(select(GameRow.name).where(
                GameRow.status.in_(("running", "stopping"))))}  # stopping: `game stop`'s post is still owed
        retry = Retry(self.config.retries, self.config.backoff_seconds)
        if self.sleep is not None:
            retry.sleep = self.sleep
        adapters = self.forums.open({self.config.games[n].forum for n in names if n in self.config.games}, retry)
        ctx = Context(config=self.config, sessions=self.sessions, locks=self.locks, adapters=adapters,
                      clock=self.clock, fold=self.fold, retry=retry)
        if hook is not None:
            ctx.hook = hook
        try:
            report = tick(ctx)
        finally:
            self._save_sessions()
        if self.config.pages is not None and self.config.pages.dashboard is not None:
            # imported here: the dashboard's builder loads only where [pages] asks for it, not in every tick
            from forumbot.pages.dashboard import write_after_tick

            write_after_tick(self.config.pages.dashboard, self.sessions, self.clock(), report)
        return report

    def _save_sessions(self) -> None:
        """The forums' cookies; on a full or read-only disk they stay unsaved (the next tick logs in again) and
        the games' own lines say what could not be written (issue 26 item 10)."""
        try:
            self.forums.save()
        except (DBAPIError, OSError) as e:
            problem = disk_problem(e, self.config.database_url)
            if problem is None:
                raise
            log.error("the forums' sessions are not saved: %s", problem)

    def close(self) -> None:
        self.engine.dispose()


def exit_code(report: TickReport) -> int:
    if report.unreachable:
        return EXIT_UNREACHABLE
    return EXIT_CONFIG if report.broken else EXIT_OK


def describe(report: TickReport) -> str:
    parts = [f"{forum}: {error}" for forum, error in report.unreachable.items()]
    text = "forum unreachable: " + "; ".join(parts) if parts else ""
    broken = "; ".join(report.broken.values())
    return "; ".join(t for t in (text, broken) if t) or "ok"


def run_forever(daemon: Daemon, stop: threading.Event | None = None) -> int:
    """Run a cycle every poll_seconds until SIGTERM or SIGINT; the cycle in progress finishes first."""
    # imported here: only `forumbot run` loops; a cron tick does not load schedule
    import schedule

    stop = stop or threading.Event()

    def on_signal(signum, _frame) -> None:
        log.info("signal %d: stopping after the current cycle", signum)
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    scheduler = schedule.Scheduler()

    def one() -> None:
        try:
            report = daemon.cycle()
        except ForumError as e:  # a forum error escaping the per-game handling must not end the service
            log.error("cycle failed: %s", e)
            return
        except (DBAPIError, OSError) as e:  # nor a full or read-only disk: the next cycle tries again
            problem = disk_problem(e, daemon.config.database_url)
            if problem is None:
                raise
            log.error("cycle failed: %s", problem)
            return
        if report.unreachable:
            log.error("%s", describe(report))

    for warning in config_warnings(daemon.config):
        log.warning("%s", warning)
    scheduler.every(daemon.config.poll_seconds).seconds.do(one)
    try:
        one()
        while not stop.is_set():
            scheduler.run_pending()
            stop.wait(min(1.0, max(0.0, scheduler.idle_seconds or 1.0)))
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return EXIT_OK


def config_warnings(config: Config, t: Mapping[str, str] = TABLES["en"]) -> list[str]:
    """What an adapter finds unwise in its forum table (a class method `config_warnings(forum, poll_seconds)`);
    warnings, not problems: check-config prints them in the GMs' language `t`, `run` logs them in English."""
    out: list[str] = []
    for forum in config.forums.values():
        try:
            cls = engine_class(forum.engine)
        except ConfigError:
            continue
        if cls is not None:
            out.extend(f"forums.{forum.name}: {w.said(t) if isinstance(w, ConfigWarning) else w}"
                       for w in cls.config_warnings(forum, config.poll_seconds))
    return out
