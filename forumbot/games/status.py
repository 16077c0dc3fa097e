"""`game list` and `game status`: every game and its state; one game's phase, seats, roles (for the GMs) and
outbox, or how it ended."""

from __future__ import annotations

from datetime import datetime
from typing import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import SetupError
from forumbot.games.lookup import STOPPED, configured_game, language_of, setup_of
from forumbot.model import Role
from forumbot.outbox.store import MERGED
from forumbot.games.pm_pace import pm_eta_line
from forumbot.store.models import GameRow, OutboxRow, SeatRow
from forumbot.rules import get_variant
from forumbot.engine.signup import run_signup
from forumbot.texts import PLURALS, TABLES, get_texts, setup_said
from forumbot.texts.voice import Voice
from forumbot.store.game import fold_game, load_game


# --- game list / status ------------------------------------------------------------------------------------


def list_games(sessions: sessionmaker[Session], config: Config) -> list[tuple[str, str, str]]:
    """(name, status, mode) for every game in the config or the database, each in its game's language."""
    with sessions.begin() as session:
        stored = {g.name: g for g in session.scalars(select(GameRow))}
    rows = []
    for name in sorted(set(config.games) | set(stored)):
        game = stored.get(name)
        t = TABLES[language_of(config, name, game)]
        status = _word(t, "gs.status.", game.status) if game else t["gs.not_started"]
        if game and name not in config.games:
            status += t["gs.gone_from_config"]
        mode = config.games[name].mode if name in config.games else (game.mode if game else "")
        rows.append((name, status, mode))
    return rows


def game_status(sessions: sessionmaker[Session], config: Config, name: str, now: datetime | None = None) -> str:
    with sessions.begin() as session:
        game = session.scalar(select(GameRow).where(GameRow.name == name))
        if game is None:
            configured_game(config, name)
            return TABLES[language_of(config, name, None)]["gs.not_started.hint"].format(name=name)
        language = language_of(config, name, game)
        t = TABLES[language]
        zone = setup_of(game).schedule.timezone
        # issue 28: every time as the posts write it (02.12 22:00 МСК), not 2026-12-02 22:00:00 Europe/Moscow
        voice = get_texts(language, str, zone or "UTC").v
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game.id).order_by(SeatRow.seat_no)))
        counts = dict(session.execute(select(OutboxRow.status, func.count()).where(
            OutboxRow.game_id == game.id).group_by(OutboxRow.status)).all())
        uncertain = list(session.scalars(select(OutboxRow.key).where(
            OutboxRow.game_id == game.id, OutboxRow.status == "uncertain")))
        merged = list(session.execute(select(OutboxRow.key, OutboxRow.where).where(
            OutboxRow.game_id == game.id, OutboxRow.status == "sent", OutboxRow.remote_id.startswith(MERGED))
            .order_by(OutboxRow.due_at, OutboxRow.id)))
        refused = list(session.execute(select(OutboxRow.key, OutboxRow.where, OutboxRow.to, OutboxRow.last_error)
                                       .where(OutboxRow.game_id == game.id, OutboxRow.status == "refused")
                                       .order_by(OutboxRow.due_at, OutboxRow.id)))
        pm_eta = pm_eta_line(session, config, game, now, t, voice)
    lines = [
        t["gs.head"].format(name=name, status=_word(t, "gs.status.", game.status), mode=game.mode,
                            at=when(voice, game.started_at), closed=_closed(t, game, voice) if game.ended_at else ""),
        t["gs.commitment"].format(commitment=game.commitment),
        t["gs.seats"].format(seats=", ".join(
            t["gs.seat.replaced"].format(nick=s.current_nick, seat=s.nick) if s.current_nick != s.nick
            else s.current_nick for s in seats)),
        t["gs.outbox"].format(items=", ".join(
            _word(t, "gs.outbox.", k, "{k} {n}").format(k=k, n=v) for k, v in sorted(counts.items()))
            or t["gs.outbox.empty"]),
    ]
    if pm_eta:
        lines.append(pm_eta)
    if uncertain:
        lines.append(t["gs.uncertain"].format(keys=", ".join(uncertain)))
    if merged:  # delivered, but inside the bot's previous post: players may miss it, and it reads as one post
        lines.append(t["gs.merged"].format(posts=_posts(t, len(merged)), items=", ".join(
            t["gs.merged.item"].format(key=key, thread=_word(t, "gs.thread.", where)) for key, where in merged)))
    for key, where, to, why in refused:  # issue 7 item 2: set aside, the GMs were told
        whom = (t["gs.refused.pm"].format(to=to) if where == "pm"
                else _word(t, "gs.target.", where, f"{where} thread"))
        lines.append(t["gs.refused"].format(key=key, to=whom, why=why))
    if now is not None and name in config.games:
        try:
            # an ended game is shown as it ended, not folded on past its end
            run = fold_game(sessions, config, name, game.ended_at or now)
        except SetupError as e:  # a stored setup the fold cannot run on: say so, with the rest of the status
            lines.insert(1, t["gs.not_played"].format(error=setup_said(e, t)))
        else:
            alive = [p.nick for p in run.result.players if p.alive]
            deadline = (t["gs.until"].format(at=until(voice, run.next_deadline, now))
                        if run.next_deadline and not game.ended_at else "")
            if run.next_deadline is None and game.ended_at is None and run.phase != "ended":
                deadline = t["gs.paused"]  # GameRun: None when paused
            lines.insert(1, t["gs.phase"].format(phase=phase_words(t, run.phase), deadline=deadline,
                                                 count=len(alive), names=", ".join(alive)))
            if run.phase.startswith("signup"):
                lines.insert(2, signup_line(sessions, config, name, now, voice, t))
            elif game.ended_at is not None:
                lines[2:2] = _the_end(t, game, run, voice)
            else:  # GMs are trusted with the roles (issue 17 item 13); the public never sees this command's output
                lines[2:2] = [t["gs.roles"], *_seat_lines(t, run), *_don_line(t, game, run),
                              *_reserve_lines(t, run, voice, now)]
            for day in run.history:  # a day a majority ended early (or will, after its delay)
                if day.majority is None:
                    continue
                nick, at = day.majority
                if day.closed is not None:
                    lines.append(t["gs.majority.ended"].format(day=phase_words(t, day.label), nick=nick,
                                                               at=when(voice, at)))
                else:
                    ends = (t["gs.majority.ends"].format(at=until(voice, run.next_deadline, now))
                            if run.next_deadline else "")
                    lines.append(t["gs.majority.pending"].format(day=phase_words(t, day.label), nick=nick,
                                                                 at=when(voice, at), ends=ends))
            for item, phase, stamped, where in run.late:  # C-13: stored, the GMs told; the announced results stand
                lines.append(t["gs.late"].format(where=_word(t, "gs.where.", where), item=item,
                                                 at=when(voice, stamped), phase=phase_words(t, phase)))
    return "\n".join(lines)


def when(voice: Voice, at: datetime | None) -> str:
    """A time as the posts write it, in the game's zone («02.12 22:00 МСК»); "-" for one the store does not hold."""
    return "-" if at is None else voice.time(at)


def until(voice: Voice, at: datetime, now: datetime | None) -> str:
    """A time still ahead, with how long until it («02.12 22:00 МСК (через 11 ч)»), as the dashboard says it."""
    ahead = voice.ahead(at, now)
    return when(voice, at) + (f" ({ahead})" if ahead else "")


def phase_words(t: Mapping[str, str], label: str) -> str:
    """A phase as the engine labels it ("day 2", "signup open") in the table's words; an unknown one as it is."""
    kind, _, rest = label.partition(" ")
    if kind == "signup":
        return t["gs.phase.signup"].format(state=_word(t, "gs.signup.", rest))
    key = f"gs.phase.{kind}"
    if key not in t:
        return label
    return t[key].format(n=rest) if rest else t[key]


def _word(t: Mapping[str, str], prefix: str, value: str, fallback: str | None = None) -> str:
    """The table's word for a stored value (a status, a thread, a cause); the value itself where it has none."""
    return t.get(prefix + value, value if fallback is None else fallback)


def signup_line(sessions: sessionmaker[Session], config: Config, name: str, now: datetime, voice: Voice,
                t: Mapping[str, str]) -> str:
    """S-2: who holds a place, who is in the reserve, the close in force (`game status`)."""
    with sessions.begin() as session:
        setup, inputs, _ = load_game(session, config, session.scalars(select(GameRow.id).where(GameRow.name == name)).one())
    s = run_signup(setup.signup, inputs, now)  # type: ignore[arg-type]
    return t["gs.signup"].format(state=_word(t, "gs.signup.", s.state), count=len(s.players),
                                 seats=setup.signup.seats,  # type: ignore[attr-defined]
                                 at=until(voice, s.closes, now), extended=t["gs.signup.extended"] if s.extended else "",
                                 players=", ".join(s.players) or "-", reserve=", ".join(s.reserve) or "-")


def _closed(t: Mapping[str, str], game: GameRow, voice: Voice) -> str:
    """When the bot closed the game: a GM's walk-through read two end times (this tick's and the game's own
    "game over at", the deciding deadline) and could not tell which was the game's end."""
    if game.status in STOPPED:
        return t["gs.closed.stopped"].format(at=when(voice, game.ended_at))
    return t["gs.closed.tick"].format(at=when(voice, game.ended_at))


def _posts(t: Mapping[str, str], n: int) -> str:
    language = "en" if t is TABLES["en"] else "ru"
    return f"{n} {t['forms.post'].split('|')[PLURALS[language](n)]}"


def _the_end(t: Mapping[str, str], game: GameRow, run, voice: Voice) -> list[str]:
    """How an ended game ended: who won (or that `game stop` ended it), the seed and every seat's role."""
    result = run.result
    if game.status in STOPPED:
        how = t["gs.result.stopped"].format(at=when(voice, game.ended_at))
        if game.stop_reason:
            how += t["gs.result.reason"].format(reason=game.stop_reason)
    else:
        how = t["gs.result.over"].format(at=when(voice, result.ended_at or game.ended_at),
                                         winner=_word(t, "gs.winner.", result.winner or "none"))
    return [t["gs.result"].format(how=how, seed=game.seed), *_seat_lines(t, run)]


def _seat_lines(t: Mapping[str, str], run) -> list[str]:
    lines = []
    for p in run.result.players:
        if p.alive:
            fate = t["gs.alive"]
        elif p.died:
            fate = t["gs.out.how"].format(cause=_word(t, "gs.cause.", p.died.cause), phase=phase_words(t, p.died.phase))
        else:
            fate = t["gs.out"]
        lines.append(t["gs.seat"].format(nick=p.nick, role=_word(t, "role.", str(p.role)), fate=fate))
    return lines


def _reserve_lines(t: Mapping[str, str], run, voice: Voice, now: datetime | None) -> list[str]:
    """S-4: the reserve in order and the seats offered to it now (a game without a sign-up has none)."""
    if run.reserve is None:
        return []
    return [t["gs.reserve"].format(names=", ".join(run.reserve) or "-"),
            *(t["gs.offer"].format(nick=nick, to=to, at=until(voice, due, now)) for nick, to, due in run.offers)]


def _don_line(t: Mapping[str, str], game: GameRow, run) -> list[str]:
    """M-1: who the Don is, or that the mafia have not chosen him yet (a variant without one says nothing)."""
    don = [p.nick for p in run.result.players if p.role is Role.DON]
    if don:
        return [t["gs.don"].format(nick=don[0])]
    if Role.DON in get_variant(setup_of(game).variant).roles:
        return [t["gs.don.not_chosen"]]
    return []
