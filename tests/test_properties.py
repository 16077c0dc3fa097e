"""Properties of the fold over random games, legal and illegal inputs alike (hypothesis).

Each example is a compact game (3-6 days) of either variant: votes for players, dead players and unknown
names, garbage, agitation, moves of every kind from every seat, GM commands (modkill, undo, extend,
end-phase, pause, ...), edited posts, non-players and the bot itself, times inside phases and exactly at
their deadlines. The invariants hold for every input a forum can deliver:

- `run()` never raises (a setup that breaks a rule is the only error, and these setups are valid);
- the game ends, or waits in an open phase with a next deadline (or paused by the GM);
- every dead player has exactly one Death with a valid cause and a phase label; the living have none;
- dead players never act: no accepted-move ack after their death, no vote of theirs in a later count;
- the number of alive players never grows between two cut-offs, except across a GM `undo`;
- what the bot said up to a cut-off it still says, word for word, when the game runs further;
- the same setup and inputs give the same messages, result and log; message keys are unique; message
  times never go back.
"""

from __future__ import annotations

import functools
import random
import re
from datetime import datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forumbot.engine.results import GameRun
from forumbot.game import run
from forumbot.model import Input, Role, Where

from gamekit import DAY, HUNT_CAST, MOSCOW_CAST, NIGHT, START, Game, plain

CAUSES = {"vote", "runoff", "mafia", "maniac", "hunt", "failed_hunt", "modkill", "autokill"}
PHASE_LABEL = re.compile(r"^(setup|day [1-9][0-9]*|night [1-9][0-9]*)$")
BOT, GM = "Бот", "ГМ"
STRANGER = "Зритель"
UNKNOWN = ["Вася", "Нико", "Г99", "Ф 1"]

VARIANTS = {"moscow": MOSCOW_CAST, "free_hunt": HUNT_CAST}
EXAMPLES = 500


# ----------------------------------------------------------------------------------------- strategies
# Hypothesis draws a few integers per event (fast to draw, and shrinking drops events); each event is then
# built from its integer with a seeded random generator, from the pools below.

GARBAGE = ["", "   ", "???", "[b][/b]", "лол", "\u200b", "[quote=Г1]Г2[/quote]", "<b>x</b>", "1234", "ннв ннв", "/",
           "Г1/Г2/Г3", "[url=http://x]Ф1[/url]", "Ман\nМан", "М1 М2"]
DECOR = ["{}", "[b]{}[/b]", "{}!", "  {}  ", "{} потому что", "{}, Г1", "{} / ннв", "{}\nещё", "{} / помиловать всех",
         "{} / повесить всех", "{} / {}", "[i]{}[/i] / ннв", "{}."]
AGITATION = ["голосуем за", "давайте", "все на", "vote", "let's", "голосую за", "предлагаю", "Голосуйте за"]
SPECIALS = ["ннв", "помиловать всех", "повесить всех", "НнВ"]
MOVE_WORDS = ["убить", "kill", "стреляю", "лечу", "heal", "проверка", "check", "охота", "hunt", "дон", "don", "модкилл",
              "подтверждаю", "confirm"]
HUNT_STATUS = ["", "маф", "маньяк", "mafia", "вор"]
GM_PLAIN = ["undo", "отмена", "status", "pause", "resume", "end-phase", "конец фазы", "blah", "", "undo", "end-phase"]
DURATIONS = ["30m", "2h", "1d", "12ч", "0h", "-1h", "abc", ""]


def _name(rnd: random.Random, nicks: list[str]) -> str:
    return rnd.choice(nicks) if rnd.random() < 0.85 else rnd.choice(UNKNOWN)


def _vote_text(rnd: random.Random, nicks: list[str]) -> str:
    kind = rnd.randrange(6)
    if kind <= 1:
        return _name(rnd, nicks)
    if kind == 2:
        return rnd.choice(DECOR).replace("{}", _name(rnd, nicks), 1).replace("{}", _name(rnd, nicks))
    if kind == 3:
        return f"{rnd.choice(AGITATION)} {_name(rnd, nicks)}"
    if kind == 4:
        return rnd.choice(SPECIALS)
    return rnd.choice(GARBAGE)


def _pm_line(rnd: random.Random, nicks: list[str]) -> str:
    kind = rnd.randrange(7)
    if kind <= 1:
        return f"{rnd.choice(MOVE_WORDS)} {_name(rnd, nicks)}"
    if kind == 2:
        return f"kill {_name(rnd, nicks)} by {_name(rnd, nicks)}"
    if kind == 3:
        return f"охота {_name(rnd, nicks)} {rnd.choice(HUNT_STATUS)}".strip()
    if kind == 4:
        return _name(rnd, nicks)
    if kind == 5:
        return rnd.choice(["модкилл", "принял", "confirm", "дон"])
    return rnd.choice(GARBAGE)


def _gm_text(rnd: random.Random, nicks: list[str]) -> str:
    kind = rnd.randrange(8)
    if kind <= 1:
        return f"modkill {_name(rnd, nicks)} {rnd.choice(['', 'флуд'])}".strip()
    if kind <= 3:
        return rnd.choice(GM_PLAIN)
    if kind == 4:
        return f"extend {rnd.choice(DURATIONS)}"
    if kind == 5:
        return f"setvote {_name(rnd, nicks)} {rnd.choice([_name(rnd, nicks), *SPECIALS])}"
    if kind == 6:
        return rnd.choice([f"alias Кузя {_name(rnd, nicks)}", f"say {rnd.choice(['привет', '[b]x[/b]', ''])}"])
    return f'replace {rnd.choice(nicks)} "{rnd.choice(["Новичок", nicks[0], BOT, GM])}"'


HOUSE_CHOICES: dict[str, list] = {  # RULES.md section R (issue 12): values drawn per game
    "vote_changes": [0, 2, 3, "unlimited"],
    "final_word": ["окончательно"],
    "vote_format": ["bold", "color"],
    "pass_words": [["ннв", "пас"], ["пас"]],
    "lynch": ["majority"],
    "tie": ["nobody", "all", "first_reached"],
    "no_show": ["nothing", "autokill", "self_vote"],
    "draw_at": [0, 3, 6],
    "roles": ["open", "closed"],
}
HOUSE_CAST = {"moscow": {"mafia": 2, "don": 1, "sheriff": 1}, "free_hunt": {"mafia": 3, "doctor": 1, "maniac": 1}}


def house_options(variant: str, pick: int) -> dict:
    """A random set of house rules (none for a third of the games, keeping the variants' clauses covered)."""
    rnd = random.Random(pick)
    if pick % 3 == 0:
        return {}
    out = {k: rnd.choice(v) for k, v in HOUSE_CHOICES.items() if rnd.random() < 0.4}
    if out.get("vote_format") == "color":
        out["vote_colors"] = ["red"]
    if rnd.random() < 0.2:
        out["cast"] = HOUSE_CAST[variant]  # the kit's cast, given through R-10
    return out


def _formatted(options: dict, text: str, rnd: random.Random) -> str:
    """A vote in the game's required format (R-3), mostly: now and then plain, to be refused."""
    if "vote_format" not in options or rnd.random() < 0.1:
        return text
    if options.get("vote_format") == "bold":
        return f"[b]{text}[/b]"
    if options.get("vote_format") == "color":
        return f"[color=red]{text}[/color]"
    return text


def build_game(variant: str, seed: int, language: str, edited: str | None, count_every: int, days: int, tail: bool,
               ballots: list[int], nights: list[int], events: list[tuple[int, int, int]],
               house: int = 0) -> tuple[Game, datetime]:
    cast = VARIANTS[variant]
    nicks = [n for n, _ in cast]
    options: dict = {"edited_votes": edited} if edited else {}
    options.update(house_options(variant, house))
    if count_every != 60:
        options["vote_count_minutes"] = count_every  # the hourly count costs most of a fold's time
    g = Game(variant, list(cast), options=options, seed=seed, language=language)
    # An early input (here the bot's own, which the fold ignores) opens Setup before Day 1, as a real start does.
    opened = START - timedelta(hours=6)
    g.events.append(Input(opened, Where.GAME, BOT, "", id="start"))
    used: set[datetime] = {opened}
    # Days where every seat votes (the dead too: those posts must not count), so that games go on.
    for day, ballot in enumerate(ballots[:days], 1):
        if ballot % 6 == 0:
            continue
        rnd = random.Random(ballot)
        pool = rnd.sample(nicks, rnd.randint(1, 4))
        for i, voter in enumerate(nicks):
            at = g.at(f"day {day}", "+30m") + timedelta(seconds=i)
            used.add(at)
            g.vote(at, "", voter, _formatted(options, rnd.choice(pool), rnd) if rnd.random() < 0.9 else _vote_text(rnd, nicks))
    # Nights where every seat with a move sends one (the mafia mostly agree), so that nights kill.
    for night, moves in enumerate(nights[:days], 1):
        if moves % 5 == 0:
            continue
        rnd = random.Random(moves)
        agreed = rnd.choice(nicks)
        for i, (nick, role) in enumerate(cast):
            at = g.at(f"night {night}", "+1h") + timedelta(seconds=i)
            used.add(at)
            if role in (Role.MAFIA, Role.DON):
                text = f"убить {agreed if rnd.random() < 0.85 else rnd.choice(nicks)}"
                if role is Role.DON or variant == "moscow" and rnd.random() < 0.3:
                    text += f"\nпроверка {rnd.choice(nicks)}"
            elif role is Role.MANIAC:
                text = f"kill {rnd.choice(nicks)}"
            elif role is Role.DOCTOR:
                text = f"heal {rnd.choice(nicks)}"
            elif role is Role.SHERIFF:
                text = f"check {rnd.choice(nicks)}"
            elif variant == "free_hunt" and rnd.random() < 0.2:
                text = f"охота {rnd.choice(nicks)} {rnd.choice(HUNT_STATUS)}".strip()
            else:
                continue
            g.pm(at, "", nick, text)
    for phase_no, when, content in events:
        rnd = random.Random(content)
        k = phase_no % (2 * days + 1) - 1  # -1: setup; then day 1, night 1, day 2, ...
        if k < 0:
            phase, length, base = "setup", timedelta(hours=6), opened
        else:
            phase = f"{'day' if k % 2 == 0 else 'night'} {k // 2 + 1}"
            length = DAY if k % 2 == 0 else NIGHT
            base = g.at(phase, "+0h")
        # a quarter of the inputs fall on a boundary: the phase's opening, its deadline, a second before it
        offset = [timedelta(0), length, length - timedelta(seconds=1)][when % 3] if when % 4 == 0 \
            else timedelta(minutes=when % int(length.total_seconds() // 60))
        at = base + offset
        while at in used:  # one input per instant, so a cut-off just before an input sees all that came earlier
            at += timedelta(seconds=1)
        used.add(at)
        kind = rnd.choice(["vote", "vote", "vote", "pm", "pm", "pm", "gm", "game"])
        if kind == "gm":
            g.gm(at, "", _gm_text(rnd, nicks))
            continue
        who = rnd.choice(nicks) if rnd.random() < 0.9 else rnd.choice([STRANGER, BOT])
        if kind == "vote":
            extra: dict = {}
            if rnd.random() < 0.15:
                extra["edited_at"] = at + rnd.choice([timedelta(0), timedelta(minutes=5), timedelta(hours=30)])
                extra["first_text"] = rnd.choice([None, _vote_text(rnd, nicks)])
            g.vote(at, "", who, _vote_text(rnd, nicks), **extra)
        elif kind == "pm":
            g.pm(at, "", who, "\n".join(_pm_line(rnd, nicks) for _ in range(rnd.randint(1, 3))))
        else:
            g.post(at, "", who, rnd.choice(["последнее слово", *GARBAGE]))
    until = g.at(f"night {days}", "+12h") + (timedelta(hours=30) if tail else timedelta(0))
    return g, until


def games(variant: str) -> st.SearchStrategy[tuple[Game, datetime]]:
    return st.builds(
        functools.partial(build_game, variant),
        seed=st.integers(0, 2**16),
        language=st.sampled_from(["ru", "en"]),
        edited=st.sampled_from([None, "void", "first_seen"]),
        count_every=st.sampled_from([60, 360, 360, 720]),
        days=st.integers(3, 6),
        tail=st.booleans(),
        ballots=st.lists(st.integers(0, 2**32), min_size=6, max_size=6),
        nights=st.lists(st.integers(0, 2**32), min_size=6, max_size=6),
        events=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 2000), st.integers(0, 2**32)), max_size=30),
        house=st.integers(0, 2**32),
    )


# ----------------------------------------------------------------------------------------- invariants


def _run(g: Game, until: datetime) -> GameRun:
    return run(g.setup(), list(g.events), until)


def _alive(r: GameRun) -> set[str]:
    return {p.nick for p in r.result.players if p.alive}


def _check_one(r: GameRun, g: Game) -> None:
    # keys unique, times non-decreasing
    keys = [m.key for m in r.messages]
    assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]
    times = [m.at for m in r.messages]
    assert times == sorted(times), "message times go back"
    # ends or waits
    if r.result.winner is not None:
        assert r.result.winner in ("town", "mafia", "maniac", "draw")
        assert r.phase == "ended" and r.next_deadline is None and r.result.ended_at is not None
    else:
        assert r.phase != "ended"
        paused = any(re.search(r"pause|пауза", e.text, re.I) for e in g.events if e.author == GM)
        assert r.next_deadline is not None or paused, r.phase
    # one Death per dead player, with a valid cause and phase
    for p in r.result.players:
        if p.alive:
            assert p.died is None, p
        else:
            assert p.died is not None, p
            assert p.died.cause in CAUSES, p.died
            assert PHASE_LABEL.match(p.died.phase), p.died
    # PMs go to players, GMs or (never) someone else
    seats = {n for n, _ in g.cast} | {p.nick for p in r.result.players} | _replacements(g)
    for m in r.messages:
        if m.where is Where.PM:
            assert m.to in seats or m.to == GM, m


def _replacements(g: Game) -> set[str]:
    return {m.group(1) for e in g.events if e.author == GM for m in [re.search(r'replace .* "(.+)"', e.text)] if m}


ACCEPTED = ("Accepted", "Принято")
COUNT_LINE = re.compile(r"^(.+) — (\d+): (.+)$")
COUNT_KEY = re.compile(r"^(day|runoff) (\d+)/(count/\d+|result|runoff)$")


def _acks(r: GameRun, inp: Input) -> list[str]:
    return [plain(m.text) for m in r.messages if m.key == f"pm/{inp.id}"]


def _renamed(g: Game) -> bool:
    return bool(_replacements(g))


def _is_undo(e: Input) -> bool:
    return e.author == GM and re.match(r"\s*(undo|отмена)\b", e.text, re.I) is not None


def _check_counts(r: GameRun) -> None:
    """No vote by a player who was already out when the count was made (C-3)."""
    deaths = {p.nick: p.died for p in r.result.players if p.died is not None}
    for m in r.messages:
        km = COUNT_KEY.match(m.key)
        if not km:
            continue
        day = int(km.group(2))
        final = km.group(3) == "result"
        for line in plain(m.text).splitlines():
            lm = COUNT_LINE.match(line)
            if not lm:
                continue
            voters = lm.group(3).split(", ")
            assert len(voters) == int(lm.group(2)), line
            for v in voters:
                d = deaths.get(v)
                if d is None:
                    continue
                if d.phase == "setup":
                    raise AssertionError(f"{v}, out since setup, votes in {m.key}: {line}")
                kind, n = d.phase.split()
                assert int(n) >= day, f"{v}, out since {d.phase}, votes in {m.key}: {line}"
                if final and d.cause == "modkill" and int(n) == day and kind == "day":
                    # modkilled during that day (or its runoff): out before the final count
                    raise AssertionError(f"{v}, modkilled on {d.phase}, counted in {m.key}: {line}")


def _rules_winner(variant: str, roles: list[Role], draw_at: int | None = None) -> str | None:
    """The win check of RULES.md on the alive roles, written apart from the engine (M-13, H-14; not M-6)."""
    mafia = sum(1 for x in roles if x in (Role.MAFIA, Role.DON))
    maniac = sum(1 for x in roles if x is Role.MANIAC)
    town = len(roles) - mafia - maniac
    if variant == "moscow":
        if mafia == 0:
            return "town"
        if len(roles) <= (4 if draw_at is None else draw_at):
            return "draw"
        return "mafia" if mafia >= town else None
    if not roles:
        return "draw"
    if mafia == 0 and maniac == 0:
        return "town"
    if maniac and mafia == 0 and len(roles) - maniac <= 1:
        return "maniac"
    if draw_at and len(roles) <= draw_at:
        return "draw"
    if maniac == 0 and mafia >= town:
        return "mafia"
    return None


def _check_winner(r: GameRun, g: Game) -> None:
    """C-7: the game ends as soon as a win condition holds, with that winner (or by M-6 / H-14's stalemate)."""
    alive = [p.role for p in r.result.players if p.alive]
    expected = _rules_winner(g.variant, alive, g.options.get("draw_at"))
    if r.result.winner is None:
        assert expected is None, f"{expected} should have won: {sorted(alive)}"
    elif expected is not None:
        assert r.result.winner == expected, (r.result.winner, expected, sorted(alive))
    elif g.variant == "moscow":
        assert r.result.winner == "town" and any("misfires" in line for line in r.log), r.log[-3:]  # M-6
    else:
        only_bad = alive and all(x in (Role.MAFIA, Role.MANIAC) for x in alive)
        assert r.result.winner == "draw" and only_bad, (r.result.winner, sorted(alive))  # H-14 stalemate
    if r.result.ended_at is not None:
        # after the end nothing happens in the game; a GM command sent then is only told so (C-9), a `статус`
        # with the result (issue 17 item 13)
        late = [m for m in r.messages if m.at > r.result.ended_at and not (
            m.key.startswith("gm/") and m.where is Where.PM
            and any(w in m.text for w in ("окончена", "is over", "Game over")))]
        assert not late, late[:3]


def _death_times(r: GameRun) -> dict[str, datetime]:
    """When each dead player left: his modkill post, or the resolution of the phase he died in."""
    opened = {m.key.split("/")[0]: m.at for m in r.messages if m.key.endswith("/opens")}
    out: dict[str, datetime] = {}
    for p in r.result.players:
        d = p.died
        if d is None:
            continue
        if d.cause == "modkill":
            posts = [m.at for m in r.messages if m.where is Where.GAME and m.key.endswith(f"/modkill/{p.nick}")]
            if posts:
                out[p.nick] = posts[-1]
            continue
        if d.phase == "setup":
            continue
        kind, n = d.phase.split()
        follows = f"night {n}" if kind == "day" else f"day {int(n) + 1}"
        at = opened.get(follows, r.result.ended_at)
        if at is not None:
            out[p.nick] = at
    return out


def _check_dead_do_not_act(r: GameRun, g: Game) -> None:
    """C-5: no accepted move from a player already out (his PM at or after his death)."""
    if _renamed(g):
        return
    died = _death_times(r)
    causes = {p.nick: p.died.cause for p in r.result.players if p.died}
    for m in r.messages:
        if m.where is not Where.PM or m.to not in died or not m.key.startswith("pm/") or m.at < died[m.to]:
            continue
        lines = plain(m.text).splitlines()
        if m.at == died[m.to] and causes[m.to] == "modkill":
            # his own PM asked the modkill (M-12): nothing after that line is accepted
            own = [i for i, line in enumerate(lines) if "по просьбе" in line or "on request" in line]
            assert own, m
            lines = lines[own[0] + 1 :]
        assert not any(line.startswith(ACCEPTED) for line in lines), (m, died[m.to])


def check_game(g: Game, until: datetime) -> None:
    r = _run(g, until)
    _check_one(r, g)
    _check_counts(r)
    _check_winner(r, g)
    _check_dead_do_not_act(r, g)

    # determinism: same setup and inputs, same messages, result and log
    r2 = _run(g, until)
    assert r2.messages == r.messages and r2.result == r.result and r2.log == r.log

    # cut-offs just before a few inputs, then the end
    events = sorted((e for e in g.events if e.id != "start"), key=lambda e: e.at)
    picks = events[len(events) // 3 :: max(1, len(events) // 3)][:2]
    cuts = sorted({e.at - timedelta(microseconds=1) for e in picks} | {until})
    runs = {cut: (r if cut == until else _run(g, cut)) for cut in cuts}
    for (t1, r1), (t2, rr) in zip(list(runs.items()), list(runs.items())[1:]):
        _check_one(rr, g)
        if not any(_is_undo(e) and t1 < e.at <= t2 for e in g.events):
            alive1, alive2 = _alive(r1), _alive(rr)
            assert len(alive2) <= len(alive1), (t1, t2)
            assert _renamed(g) or alive2 <= alive1, (t1, t2, alive2 - alive1)
        # what was said up to the earlier cut-off is still said, word for word (stable outbox keys)
        later = {m.key: m for m in rr.messages}
        for m in r1.messages:
            assert later.get(m.key) == m, m

    # dead players never act: a PM from a player out before it gets no acceptance
    for inp in picks:
        if inp.where is not Where.PM or inp.author in (GM, BOT, STRANGER) or _renamed(g):
            continue
        before = runs[inp.at - timedelta(microseconds=1)]
        if before.result.winner is None and inp.author not in _alive(before):
            assert not any(a.startswith(ACCEPTED) for a in _acks(r, inp)), (inp, _acks(r, inp))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games("free_hunt"))
def test_properties_free_hunt(game: tuple[Game, datetime]) -> None:
    check_game(*game)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games("moscow"))
def test_properties_moscow(game: tuple[Game, datetime]) -> None:
    check_game(*game)


# ------------------------------------------------------------------ regressions the properties found (C-9)


def test_C9_undo_of_an_end_phase_is_refused() -> None:
    """An end-phase resolves a phase at once; its results are out, so undo cannot take them back."""
    g = Game.free_hunt(language="en")
    g.gm("setup", "-2h", "end-phase")
    g.gm("setup", "+0h", "undo")
    r = g.run("day 1", "+1h")
    assert r.pms(GM)[-1].startswith("Cannot undo “end-phase”: that end-phase's results are out.")
    assert [k for k in r.keys() if k.startswith("day 1/opens")] == ["day 1/opens"]
    times = [m.at for m in r.run.messages]
    assert times == sorted(times)


def test_C9_undo_of_an_extend_after_the_deadline_it_restores_is_refused() -> None:
    g = Game.free_hunt(language="en")
    g.gm("day 1", "+23h", "extend 2h")
    g.vote("day 1", "+24h30m", "Г1", "Г2")  # inside the extension: a vote
    g.gm("day 1", "+25h", "undo")
    r = g.run("day 1", "+26h")
    answers = [p for p in r.pms(GM) if "The bot posted the result" not in p]  # not the end's news (issue 28)
    assert "the deadline it would restore has passed" in answers[-1]
    assert next(m.at for m in r.run.messages if m.key == "day 1/result") == g.at("day 1", "+26h")
    assert r.alive("Г1")  # his vote counted: no autokill
    times = [m.at for m in r.run.messages]
    assert times == sorted(times)


def test_C9_reminders_overdue_after_an_undone_pause_go_out_at_the_undo() -> None:
    g = Game.free_hunt(language="en")
    g.gm("day 1", "+18h", "pause")  # before the reminder 3 h ahead of the deadline
    g.gm("day 1", "+22h", "undo")  # the deadline (+24h) is still ahead: undone
    r = g.run("day 1", "+23h")
    reminders = [m for m in r.run.messages if m.key.startswith("day 1/remind/")]
    assert reminders and all(m.at == g.at("day 1", "+22h") for m in reminders)
    times = [m.at for m in r.run.messages]
    assert times == sorted(times)


def test_M12_no_move_after_a_tactical_modkill_in_the_same_pm() -> None:
    g = Game.moscow(language="en")
    pm = g.pm("night 1", "+1h", "Маф1", "модкилл\nубить М1\nмодкилл")
    r = g.run("night 1", "+2h")
    reply = next(plain(m.text) for m in r.run.messages if m.key == f"pm/{pm.id}").splitlines()
    assert reply[0].startswith("Accepted: you leave the game")
    assert not any(line.startswith("Accepted") for line in reply[1:])
    assert r.died("Маф1") == ("night 1", "modkill")
