"""The GM's dashboard in the game's language (issue 28 item 14): what a GM opens it for, said in words: the phase
and its deadline («через 9 ч»), who has not voted, whose night moves are missing, who has not confirmed a role,
whose role PM never went out, what the outbox holds and what is stuck, the last tick. Never raw JSON or English
in a Russian game. Private: it names roles, so it is served only behind the dashboard's token."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.config.types import Config
from forumbot.engine.activity import below, on as post_minimum_on
from forumbot.engine.fold import folded
from forumbot.engine.history import history_now
from forumbot.engine.replacement import reserve_order
from forumbot.engine.signup import run_signup
from forumbot.engine.signup_values import SignupRun
from forumbot.engine.seats import missing_moves
from forumbot.engine.work import Work
from forumbot.errors import ForumbotError
from forumbot.game import signed_up
from forumbot.model import GameSetup
from forumbot.pages.daydata import day_data
from forumbot.pages.words import Words
from forumbot.store.game import load_game
from forumbot.store.models import GameRow, OutboxRow

NOT_OUT = ("pending", "attempted", "uncertain", "refused", "queued")  # a message not (known to be) delivered

RU: dict[str, str] = {
    "title": "Панель ведущего", "at": "На {at}", "none": "Игр нет.",
    "status.running": "идёт", "status.ended": "окончена",
    "deadline": "срок {at}", "paused": "на паузе",
    "not_voted": "Не проголосовали ({n}): {names}", "all_voted": "Проголосовали все живые.",
    "posts_below": "Ниже минимума сообщений в игровой теме: {items}", "posts_item": "{nick} — {got} из {need}",
    "posts_all": "Минимум сообщений в игровой теме ({need}) набрали все живые.",
    "moves": "Не сданы ночные ходы: {items}", "all_moves": "Все ночные ходы сданы.",
    "unconfirmed": "Не подтвердили роль: {names}", "all_confirmed": "Роли подтвердили все.",
    "role_pm": "ЛС с ролью не ушло: {items}",
    "pm.pending": "ещё в очереди", "pm.attempted": "отправка не закончена", "pm.uncertain": "неизвестно, дошло ли",
    "pm.refused": "форум отказал: {why}", "pm.queued": "ждёт разбора",
    "outbox": "Очередь сообщений: {items}", "outbox.empty": "Очередь сообщений пуста.",
    "outbox.oldest": "самое старое ждёт {age}",
    "outbox.sent": "отправлено {n}", "outbox.pending": "ждут {n}", "outbox.attempted": "в отправке {n}",
    "outbox.uncertain": "под вопросом {n}", "outbox.refused": "отказано {n}", "outbox.queued": "ждут разбора {n}",
    "stuck": "Застряло ({status}): {what}, попыток {attempts}{why}",
    "to.pm": "ЛС игроку {to}", "to.game": "пост в игровой теме", "to.vote": "пост в теме голосования",
    "majority.pending": "{day}: большинство у {nick} с {at}",
    "majority.ended": "{day} закончился досрочно: большинство у {nick} с {at}",
    "tick": ("Последний тик: {state}{phase}; сохранено {stored}, в очередь {queued}, отправлено {sent}{error} "
             "(так с {since})"),
    "tick.done": "выполнен", "tick.broken": "сломался", "tick.skipped": "пропущен", "tick.locked": "игра занята",
    "unread": "Состояние игры не прочитано: {why}",
    "move.check": "проверка", "move.shot": "выстрел", "move.heal": "лечение", "move.hunt": "охота",
    "move.confirm": "подтверждение", "move.don": "выбор дона", "move.modkill": "модкилл",
    "age.minutes": "{n} мин", "age.hours": "{n} ч",
    "reserve": "Запас: {names}", "reserve.empty": "Запас пуст.",
    "offer": "Место игрока {nick} предложено {to} до {until}",
    "signup": "Набор: записались {n} из {seats}: {names}",
}

EN: dict[str, str] = {
    "title": "GM dashboard", "at": "As of {at}", "none": "No games.",
    "status.running": "running", "status.ended": "ended",
    "deadline": "deadline {at}", "paused": "paused",
    "not_voted": "Not voted ({n}): {names}", "all_voted": "Every living player has voted.",
    "posts_below": "Below the post minimum in the game thread: {items}", "posts_item": "{nick}: {got} of {need}",
    "posts_all": "Every living player has the post minimum in the game thread ({need}).",
    "moves": "Night moves missing: {items}", "all_moves": "Every night move is in.",
    "unconfirmed": "Roles not confirmed: {names}", "all_confirmed": "Every role is confirmed.",
    "role_pm": "Role PM never went out: {items}",
    "pm.pending": "still queued", "pm.attempted": "sending unfinished", "pm.uncertain": "unknown whether delivered",
    "pm.refused": "the forum refused: {why}", "pm.queued": "waiting for a GM",
    "outbox": "Outbox: {items}", "outbox.empty": "The outbox is empty.",
    "outbox.oldest": "the oldest waiting {age}",
    "outbox.sent": "{n} sent", "outbox.pending": "{n} waiting", "outbox.attempted": "{n} being sent",
    "outbox.uncertain": "{n} uncertain", "outbox.refused": "{n} refused", "outbox.queued": "{n} waiting for a GM",
    "stuck": "Stuck ({status}): {what}, {attempts} attempt(s){why}",
    "to.pm": "a PM to {to}", "to.game": "a post in the game thread", "to.vote": "a post in the vote thread",
    "majority.pending": "{day}: a majority for {nick} since {at}",
    "majority.ended": "{day} ended early: a majority for {nick} since {at}",
    "tick": "Last tick: {state}{phase}; {stored} stored, {queued} queued, {sent} sent{error} (so since {since})",
    "tick.done": "done", "tick.broken": "broken", "tick.skipped": "skipped", "tick.locked": "the game was busy",
    "unread": "The game's state was not read: {why}",
    "move.check": "check", "move.shot": "shot", "move.heal": "heal", "move.hunt": "hunt",
    "move.confirm": "confirmation", "move.don": "Don's nomination", "move.modkill": "modkill",
    "age.minutes": "{n} min", "age.hours": "{n} h",
    "reserve": "Reserve: {names}", "reserve.empty": "The reserve is empty.",
    "offer": "The seat of {nick} is offered to {to} until {until}",
    "signup": "Sign-up: {n} of {seats} signed up: {names}",
}


@dataclass(frozen=True)
class Said:
    """The dashboard's words in one game's language and zone."""

    words: Words

    def __call__(self, key: str, **kw: object) -> str:
        table = EN if self.words.language == "en" else RU
        return table[key].format(**kw) if kw else table[key]

    def either(self, key: str, fallback: str) -> str:
        table = EN if self.words.language == "en" else RU
        return table.get(key, fallback)

    def age(self, seconds: int) -> str:
        return self("age.hours", n=seconds // 3600) if seconds >= 3600 else self("age.minutes", n=max(1, seconds // 60))


def said_for(language: str, timezone: str) -> Said:
    return Said(Words(language, timezone))


def game_lines(session: Session, config: Config | None, row: GameRow, g: dict[str, Any],
               now: datetime) -> tuple[str, str, list[str], dict[str, Any] | None]:
    """(the game's language, its time zone, its lines, R-11's minimum on the open day as data or None): the game's
    state from its fold (with `config`, which routes its inputs) and `g`, the outbox figures `dashboard` gathered."""
    setup: GameSetup | None = None
    w: Work | None = None
    signup: SignupRun | None = None
    unread = ""
    if config is not None and row.name in config.games:
        try:
            setup, w, signup = _folded(session, config, row, now)
        except (ForumbotError, KeyError, ValueError) as e:  # a config changed under a running game, a bad input
            unread = str(e) or type(e).__name__
    configured = config.games.get(row.name) if config is not None else None
    language = setup.language if setup else (configured.language if configured else "ru")
    zone = setup.schedule.timezone if setup else "Europe/Moscow"
    s = said_for(language, zone)
    words = s.words
    head = f"{row.name}: {s.either('status.' + row.status, row.status)}"
    winner = w.g.winner if w is not None else None
    if g["phase"] == "ended" and winner and f"winner.{winner}" in words.table:
        head += ", " + words(f"winner.{winner}")  # «окончена, Игра окончена» said it twice: who won instead
    elif g["phase"]:
        head += ", " + words.inline(g["phase"])
    if g["deadline"]:
        at = datetime.fromisoformat(g["deadline"])
        ahead = words.ahead(at, now)
        head += ", " + s("deadline", at=words.deadline(at)) + (f" ({ahead})" if ahead else "")
    elif w is not None and w.g.paused_at and w.g.phase.kind != "ended":
        head += ", " + s("paused")
    lines = [head]
    if unread:
        lines.append(s("unread", why=unread))
    m = g.get("majority")
    if m:
        lines.append(s("majority.ended" if m["ended"] else "majority.pending", day=words.label(m["day"]),
                       nick=m["nick"], at=words.time(datetime.fromisoformat(m["at"]))))
    activity = _post_minimum(w, now) if w is not None else None
    if w is not None:
        lines += _owed(w, s)
        lines += _activity_line(activity, s)
        lines += _role_pms(session, row, w, s)
        lines += _reserve(w, s)
    elif signup is not None and signup.state == "open":  # S-2: the list as it stands
        lines.append(s("signup", n=len(signup.players), seats=setup.signup.seats,  # type: ignore[union-attr]
                       names=", ".join(signup.players) or "—"))
        lines.append(s("reserve", names=", ".join(signup.reserve)) if signup.reserve else s("reserve.empty"))
    lines.append(_outbox(g, s))
    for st in g["stuck"]:
        lines.append(_stuck(st, s))
    return words.language, zone, lines, activity


def tick_line(last: dict[str, Any], language: str, timezone: str = "Europe/Moscow") -> str:
    s = said_for(language, timezone)
    phase = s.words.inline(last["phase"]) if last.get("phase") else ""
    return s("tick", state=s.either("tick." + last["state"], last["state"]), phase=f", {phase}" if phase else "",
             stored=last["stored"], queued=last["queued"], sent=last["sent"],
             error=f"; {last['error']}" if last.get("error") else "",
             since=s.words.time(datetime.fromisoformat(last["since"])) if last.get("since") else "—")


def _folded(session: Session, config: Config, row: GameRow,
            now: datetime) -> tuple[GameSetup, Work | None, SignupRun | None]:
    """The game's setup and its fold at `now`; while its sign-up is not closed, no fold but the sign-up's."""
    setup, inputs, _ = load_game(session, config, row.id)
    if setup.signup is not None:  # S-1: the game's seats exist once its sign-up has closed
        played, _, rest = signed_up(setup, inputs, now)
        if played is None:
            return setup, None, run_signup(setup.signup, inputs, now)  # type: ignore[arg-type]
        return played, folded(played, rest, now), None
    return setup, folded(setup, inputs, now), None


def _reserve(w: Work, s: Said) -> list[str]:
    """S-4: the reserve in order and the seats offered to it now, in a game from a sign-up."""
    if w.tb.setup.reserve is None or w.g.phase.kind == "ended":
        return []
    names = reserve_order(w)
    offers = [s("offer", nick=w.g.seats[o.seat].nick, to=o.to, until=s.words.time(o.until)) for o in w.g.reserve.offers]
    return [s("reserve", names=", ".join(names)) if names else s("reserve.empty"), *offers]


def _owed(w: Work, s: Said) -> list[str]:
    """What the open phase still waits for: votes by day, night moves by night, confirmations in Setup."""
    g = w.g
    kind = g.phase.kind
    alive = [sid for sid, seat in g.seats.items() if seat.alive]
    if kind in ("day", "runoff"):
        days = history_now(w)
        open_day = days[-1] if days else None
        if open_day is None or open_day.closed is not None:
            return []
        missing = day_data(open_day).not_voted
        return [s("not_voted", n=len(missing), names=", ".join(missing)) if missing else s("all_voted")]
    if kind == "night":
        owed = [f"{g.seats[sid].nick} ({', '.join(s.either('move.' + str(k), str(k)) for k in kinds)})"
                for sid in alive if (kinds := missing_moves(w, sid))]
        return [s("moves", items="; ".join(owed)) if owed else s("all_moves")]
    if kind == "setup":
        waiting = [seat.nick for seat in g.seats.values() if not seat.confirmed]
        return [s("unconfirmed", names=", ".join(waiting)) if waiting else s("all_confirmed")]
    return []


def _post_minimum(w: Work, now: datetime) -> dict[str, Any] | None:
    """R-11 on the open day: the minimum and who is below it with his posts, counted by the function the vote
    counts list them with (engine/activity.py's `below`); None when the minimum is off or no day is open."""
    if not post_minimum_on(w) or w.g.phase.kind != "day":
        return None
    return {"need": w.tb.variant.house.post_minimum,
            "below": [{"nick": nick, "posts": got} for nick, got in below(w, now)]}


def _activity_line(activity: dict[str, Any] | None, s: Said) -> list[str]:
    if activity is None:
        return []
    need = activity["need"]
    items = [s("posts_item", nick=p["nick"], got=p["posts"], need=need) for p in activity["below"]]
    return [s("posts_below", items=", ".join(items)) if items else s("posts_all", need=need)]


def _role_pms(session: Session, row: GameRow, w: Work, s: Said) -> list[str]:
    """Each seat whose role PM (C-2, `setup/role/<seat>`) is not known to have gone out, and why."""
    rows = session.scalars(select(OutboxRow).where(
        OutboxRow.game_id == row.id, OutboxRow.key.startswith("setup/role/"), OutboxRow.status.in_(NOT_OUT))
        .order_by(OutboxRow.id))
    items = []
    for r in rows:
        sid = r.key.removeprefix("setup/role/")
        nick = w.g.seats[sid].nick if sid in w.g.seats else r.to
        why = (s("pm.refused", why=r.last_error or "—") if r.status == "refused"
               else s.either("pm." + r.status, r.status))
        items.append(f"{nick} ({why})")
    return [s("role_pm", items="; ".join(items))] if items else []


def _outbox(g: dict[str, Any], s: Said) -> str:
    if not g["outbox"]:
        return s("outbox.empty")
    items = [s.either("outbox." + k, k + " {n}").format(n=n) for k, n in g["outbox"].items()]
    if g["oldest_pending_seconds"] is not None:
        items.append(s("outbox.oldest", age=s.age(g["oldest_pending_seconds"])))
    return s("outbox", items=", ".join(items))


def _stuck(st: dict[str, Any], s: Said) -> str:
    what = s("to.pm", to=st["to"]) if st["where"] == "pm" else s.either("to." + str(st["where"]), str(st["where"]))
    return s("stuck", status=s.either("pm." + st["status"], st["status"]).format(why="").rstrip(": "), what=what,
             attempts=st["attempts"], why=f": {st['last_error']}" if st["last_error"] else "")
