"""`forumbot probe --handshake`: the write path on the GM's own board, before any game (issue 18 item 5).

A first run logs in, reads the game's two threads, and sends the first GM one PM holding a code; a second run
(after the GM answered it) reads the GM's reply from the inbox. Each flow is reported verified, failing (with the
board's own words) or unverified (not tried yet, or the board asked to wait). Nothing is posted in any thread.
The code and what was sent wait between the runs in a 0600 file beside the configuration; a verified reply
removes it, so the next run starts over.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from forumbot.errors import FloodLimited, ForumError, PmNotAllowed
from forumbot.forum.adapter import LOCK, PREVIEW, can
from forumbot.names import inside
from forumbot.texts import en, ru
from forumbot.errors import ConfigError

VERIFIED, FAILING, UNVERIFIED = "verified", "failing", "unverified"


@dataclass
class Flow:
    name: str  # login, read:<thread>, reply:<thread>, lock:<thread>, pm_send, pm_reply
    status: str
    said: str = ""

    def label(self, t: dict[str, str]) -> str:
        """The flow as the GM reads it, in his language (issue 28 item 4: no English ids in a Russian report)."""
        kind, _, thread = self.name.partition(":")
        return t[f"handshake.flow.{kind}"].format(thread=thread)


@dataclass
class HandshakeReport:
    forum: str
    engine: str
    gm: str
    code: str = ""
    flows: list[Flow] = field(default_factory=list)

    @property
    def failing(self) -> list[Flow]:
        return [f for f in self.flows if f.status == FAILING]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _texts(language: str) -> dict[str, str]:
    return en.T if language == "en" else ru.T


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def lock_flow(adapter: Any, thread: str, wanted: bool, language: str = "ru") -> Flow:
    """R-13: whether the bot may close `thread`, read from the controls its page shows the bot's account (the
    adapter's `may_lock`), never by locking it. Failing only where a game asks for `lock_threads`."""
    t = _texts(language)
    name = f"lock:{thread}"
    if not can(adapter, LOCK):
        return Flow(name, FAILING if wanted else UNVERIFIED, t["handshake.lock_none"])
    try:
        may = adapter.may_lock(thread)
    except ForumError as e:
        return Flow(name, FAILING if wanted else UNVERIFIED, str(e))
    if may is None:
        return Flow(name, UNVERIFIED, t["handshake.lock_unknown"])
    if may:
        return Flow(name, VERIFIED, t["handshake.lock_yes"])
    return Flow(name, FAILING, t["handshake.lock_no"]) if wanted else Flow(name, UNVERIFIED,
                                                                             t["handshake.lock_no_unasked"])


def reply_flow(adapter: Any, thread: str, language: str = "ru") -> Flow:
    """Whether the bot can reply in `thread`: the reply form sent through the engine's preview, which posts nothing
    (phpBB's, MyBB's, SMF's, PunBB/FluxBB's, XenForo's, vBulletin 3.8's: the adapters' PREVIEW); «не проверено» where a reply cannot
    be checked without posting one (issue 28 item 4)."""
    t = _texts(language)
    name = f"reply:{thread}"
    if not can(adapter, PREVIEW):
        return Flow(name, UNVERIFIED, t["handshake.reply_unverified"])
    try:
        previewed = adapter.preview_reply(thread, t["handshake.preview"])
    except ForumError as e:
        return Flow(name, FAILING, str(e))
    if previewed is False:  # the board's version previews in a way no source shows: nothing was sent
        return Flow(name, UNVERIFIED, t["handshake.reply_unverified"])
    return Flow(name, VERIFIED, t["handshake.reply_previewed"])


def handshake(adapter: Any, threads: Sequence[str], gm: str, state_file: Path, *, forum: str = "",
              language: str = "ru", lock_threads: bool = False, new_code: Callable[[], str] = lambda: f"{secrets.randbelow(10 ** 6):06d}"
              ) -> HandshakeReport:
    """Run the handshake's flows through `adapter` (not logged in yet); see the module's doc."""
    engine = adapter.profile.engine if adapter.profile is not None else adapter.engine
    report = HandshakeReport(forum=forum, engine=engine, gm=gm)
    t = _texts(language)
    state = _load(state_file)
    if state.get("gm") != gm:
        state = {}
    try:
        adapter.login()
        report.flows.append(Flow("login", VERIFIED))
    except ForumError as e:
        report.flows.append(Flow("login", FAILING, str(e)))
        for name in [*(f"read:{th}" for th in threads), f"reply:{threads[0]}", "pm_send", "pm_reply"]:
            report.flows.append(Flow(name, UNVERIFIED, t["handshake.not_tried"]))
        return report
    for thread in threads:
        try:
            posts, _ = adapter.fetch_posts(thread)
            report.flows.append(Flow(f"read:{thread}", VERIFIED, t["handshake.posts_read"].format(count=len(posts))))
        except ForumError as e:
            report.flows.append(Flow(f"read:{thread}", FAILING, str(e)))
    report.flows.append(reply_flow(adapter, threads[0], language))
    if lock_threads:  # the vote thread is the one closed every night
        report.flows.append(lock_flow(adapter, threads[-1], True, language))
    if not state.get("code"):
        code = new_code()
        report.code = code
        try:
            adapter.send_pm(gm, t["handshake.subject"], t["handshake.pm"].format(code=code, gm=gm))
        except FloodLimited as e:
            report.flows.append(Flow("pm_send", UNVERIFIED, f"{t['handshake.wait']} {e}"))
            report.flows.append(Flow("pm_reply", UNVERIFIED, t["handshake.not_tried"]))
            return report
        except PmNotAllowed as e:  # the board's words, the rest in the GM's language (issue 28 item 3)
            report.flows.append(Flow("pm_send", FAILING, t["handshake.pm_not_allowed"].format(said=e.said)))
            report.flows.append(Flow("pm_reply", UNVERIFIED, t["handshake.not_tried"]))
            return report
        except ForumError as e:
            report.flows.append(Flow("pm_send", FAILING, str(e)))
            report.flows.append(Flow("pm_reply", UNVERIFIED, t["handshake.not_tried"]))
            return report
        _save(state_file, {"gm": gm, "code": code})
        report.flows.append(Flow("pm_send", VERIFIED, t["handshake.sent"].format(gm=gm, code=code)))
        report.flows.append(Flow("pm_reply", UNVERIFIED, t["handshake.ask"].format(gm=gm, code=code)))
        return report
    code = report.code = state["code"]
    report.flows.append(Flow("pm_send", VERIFIED, t["handshake.sent_before"].format(gm=gm, code=code)))
    try:
        pms, _ = adapter.fetch_pms(None)
    except ForumError as e:
        report.flows.append(Flow("pm_reply", FAILING, str(e)))
        return report
    answer = next((p for p in pms if _fold(p.author) == _fold(gm) and code in p.text), None)
    if answer is None:
        report.flows.append(Flow("pm_reply", UNVERIFIED, t["handshake.no_reply"].format(gm=gm, code=code)))
        return report
    report.flows.append(Flow("pm_reply", VERIFIED, t["handshake.replied"].format(gm=gm)))
    state_file.unlink(missing_ok=True)
    return report


def to_text(report: HandshakeReport, language: str = "ru") -> str:
    t = _texts(language)
    lines = [t["handshake.title"].format(forum=report.forum or "-", engine=report.engine, gm=report.gm)]
    for flow in report.flows:
        lines.append(f"  {t['handshake.status.' + flow.status]:<14} {flow.label(t)}" + (f": {flow.said}" if flow.said else ""))
    return "\n".join(lines)


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: Path, data: dict[str, Any]) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.chmod(path, 0o600)


def cmd_handshake(args: Any, config: Any, target: Callable[[Any], tuple[Any, ...]]) -> int:
    """The CLI's side: the forum's adapter (as `probe` builds it), the first game on it for the threads and the
    GM; exit 0 when no flow failed, 2 naming each that did."""
    adapter, forum, *_ = target(args)  # the thread and zone are the games'
    game = next((g for g in config.games.values() if g.forum == forum), None)
    if game is None or not game.gms:
        raise ConfigError(f"forums.{forum}: --handshake needs a game on this forum naming its threads and a GM")
    threads = [th for th in dict.fromkeys((args.url or game.game_thread, game.vote_thread)) if th]
    state = inside(Path(config.state_dir), forum, prefix=".handshake-", suffix=".json")
    report = handshake(adapter, threads, game.gms[0], state, forum=forum, language=game.language,
                       lock_threads=bool(game.options.get("lock_threads")))
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        print(to_text(report, game.language))
    for flow in report.failing:
        print(f"forumbot: handshake: {flow.label(_texts(game.language))}: {flow.said}", file=sys.stderr)
    return 2 if report.failing else 0
