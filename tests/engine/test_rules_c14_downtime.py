"""C-14 downtime is not the players' fault: a deadline before which the bot had no successful read of the game's
threads for more than `downtime_grace` (30 min) of the `downtime_window` (2 h) is *disturbed*; it is resolved as
usual but nobody leaves for a missing vote (H-5, R-7's autokill and self_vote), the result post names the gap in
one line, the GMs get one PM. The reads are inputs of the fold (Schedule.reads), so a replay decides the same."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from forumbot import replay
from forumbot.engine.checkpoint import digest
from forumbot.engine.downtime import longest_gap, per_tick
from forumbot.engine.fold import queued
from forumbot.engine.table import make_table
from forumbot.errors import SetupError, TranscriptError
from forumbot.game import run
from forumbot.model import ReadSpan
from forumbot.options import option_problems
from gamekit import HUNT_CAST, START, Game, Result

P = [n for n, _ in HUNT_CAST]
DEADLINE = START + timedelta(hours=24)  # Day 1's deadline: 02.12 10:00 MSK
M = timedelta(minutes=1)


def ticks(start: datetime, end: datetime, every: timedelta = 10 * M, ok: bool = True) -> list[ReadSpan]:
    """A tick every `every` from `start` to `end`, each recorded as a span of its own (as old records convert)."""
    out, at = [], start
    while at <= end:
        out.append(ReadSpan(at, at, ok))
        at += every
    return out


def outage(before: timedelta, length: timedelta) -> list[ReadSpan]:
    """Ticks every 10 minutes through Day 1, none from `before` the deadline for `length`, then on to the deadline
    and one tick right after it (the one that resolves it)."""
    down = DEADLINE - before
    return ticks(START, down) + ticks(down + length, DEADLINE + M)


def game_with(reads, language: str = "en", **options) -> Game:  # type: ignore[no-untyped-def]
    """Free Hunt, everybody but Г6 voting in a ring on Day 1 (an all-way tie: nobody leaves by vote, H-6); Г6
    never votes, so H-5 autokills him unless the deadline is disturbed."""
    g = Game.free_hunt(language=language, options=dict(options))
    voters = [p for p in P if p != "Г6"]
    for i, v in enumerate(voters):
        g.vote("day 1", "+1h", v, voters[(i + 1) % len(voters)])
    return g


def fold(g: Game, reads, until: datetime = DEADLINE + M, resolved: tuple = ()) -> Result:  # type: ignore[no-untyped-def]
    setup = g.setup()
    setup = replace(setup, schedule=replace(setup.schedule, reads=tuple(reads), resolved=resolved))
    return Result(run(setup, g.events, until))


def day_result(r: Result) -> str:
    return next(m.text for m in r.run.messages if m.key == "day 1/result")


# ------------------------------------------------------------------------------------------- the measure


def test_c14_a_stretch_longer_than_the_grace_inside_the_window_disturbs() -> None:
    reads = outage(before=50 * M, length=40 * M)
    gap = longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M)
    assert gap == (DEADLINE - 50 * M, DEADLINE - 10 * M)  # from the last successful read to the next one


def test_c14_a_stretch_of_the_grace_or_less_does_not() -> None:
    reads = outage(before=50 * M, length=30 * M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None


def test_c14_only_the_part_inside_the_window_counts() -> None:
    """A 3-hour outage that ended 2 h 10 min before the deadline covers 0 of the last 2 hours."""
    down = DEADLINE - timedelta(hours=5, minutes=10)
    reads = ticks(START, down) + ticks(down + timedelta(hours=3), DEADLINE + M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None
    # ... and one that ended 1 h 40 min before it covers 20 minutes of them: still under the grace
    down = DEADLINE - timedelta(hours=4, minutes=40)
    reads = ticks(START, down) + ticks(down + timedelta(hours=3), DEADLINE + M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None


def test_c14_failed_reads_are_no_successful_reads() -> None:
    down = DEADLINE - 50 * M
    reads = ticks(START, down) + ticks(down + 10 * M, down + 40 * M, ok=False) + ticks(down + 50 * M, DEADLINE + M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (down, down + 50 * M)


def test_c14_no_tick_up_to_the_deadline_is_a_gap_until_the_bot_is_back() -> None:
    """The bot was down across the deadline: the gap runs from its last read to the tick that resolved it."""
    reads = ticks(START, DEADLINE - 40 * M) + ticks(DEADLINE + 3 * 60 * M, DEADLINE + 3 * 60 * M)
    gap = longest_gap(reads, DEADLINE, DEADLINE + 3 * 60 * M, 30 * M, 120 * M)
    assert gap == (DEADLINE - 40 * M, DEADLINE + 3 * 60 * M)


def test_c14_nothing_recorded_by_then_is_no_downtime() -> None:
    """A transcript without reads, or a deadline resolved before the game's first record: nothing is known."""
    assert longest_gap((), DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None
    later = ticks(DEADLINE + 10 * M, DEADLINE + 60 * M)
    assert longest_gap(later, DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None


def test_c14_the_gap_starts_at_the_real_last_read_however_long_before_the_window() -> None:
    """Every tick is recorded: a bot stopped five hours before the deadline (long before the window) could not
    read the forum from its last read on, and the gap is named from there, not from the window's start."""
    reads = ticks(START, DEADLINE - 5 * 60 * M) + ticks(DEADLINE - 20 * M, DEADLINE + M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (DEADLINE - 5 * 60 * M, DEADLINE - 20 * M)


def test_c14_a_gap_never_starts_before_the_first_record() -> None:
    """What the records do not know is not named: with the first record (a failed read) an hour before the
    deadline, the gap starts there; with nothing but successful reads from 20 minutes before it, there is none."""
    reads = ticks(DEADLINE - 60 * M, DEADLINE - 30 * M, ok=False) + ticks(DEADLINE - 20 * M, DEADLINE + M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (DEADLINE - 60 * M, DEADLINE - 20 * M)
    assert longest_gap(ticks(DEADLINE - 20 * M, DEADLINE + M), DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None


def test_c14_a_span_of_successful_ticks_is_read_throughout() -> None:
    """A span says every tick from its first to its last read the forum (ticks no further apart than the grace):
    one span over the whole day is no gap; two spans with 40 minutes between them are, named from the first
    span's end to the second's start."""
    whole = [ReadSpan(START, DEADLINE + M, True)]
    assert longest_gap(whole, DEADLINE, DEADLINE + M, 30 * M, 120 * M) is None
    split = [ReadSpan(START, DEADLINE - 50 * M, True), ReadSpan(DEADLINE - 10 * M, DEADLINE + M, True)]
    assert longest_gap(split, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (DEADLINE - 50 * M, DEADLINE - 10 * M)
    failing = [ReadSpan(START, DEADLINE - 50 * M, True), ReadSpan(DEADLINE - 40 * M, DEADLINE - 10 * M, False),
               ReadSpan(DEADLINE - 5 * M, DEADLINE + M, True)]
    assert longest_gap(failing, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (DEADLINE - 50 * M, DEADLINE - 5 * M)


def test_c14_a_day_a_gm_closed_early_is_not_judged() -> None:
    """`конец-фазы` an hour before the deadline, after two hours without a read: the GM chose the moment."""
    g = game_with(())
    g.gm("day 1", "+23h", "конец-фазы")
    reads = ticks(START, DEADLINE - 3 * 60 * M) + ticks(DEADLINE - 59 * M, DEADLINE)
    r = fold(g, reads, until=DEADLINE)
    assert r.died("Г6") == ("day 1", "autokill")


def test_c14_reads_made_after_the_bot_resolved_the_deadline_do_not_count() -> None:
    reads = ticks(START, DEADLINE - 40 * M) + ticks(DEADLINE + M, DEADLINE + 60 * M)
    assert longest_gap(reads, DEADLINE, DEADLINE + M, 30 * M, 120 * M) == (DEADLINE - 40 * M, DEADLINE + M)


def test_c14_a_tick_is_a_successful_read_only_when_every_thread_answered() -> None:
    t = DEADLINE
    assert per_tick([(t, True), (t, False), (t + M, True), (t + M, True)]) == ((t, False), (t + M, True))


# ------------------------------------------------------------------------------------------- the deadline


def test_c14_h5_a_disturbed_deadline_autokills_no_no_show_and_says_why_en() -> None:
    reads = outage(before=50 * M, length=40 * M)
    r = fold(game_with(reads), reads)
    assert r.alive("Г6")
    assert ("No autokill for not voting: the bot could not read the forum from 02.12 09:10 to 02.12 09:50 (MSK)."
            in day_result(r))


def test_c14_h5_the_same_deadline_watched_autokills_as_usual() -> None:
    reads = ticks(START, DEADLINE + M)
    r = fold(game_with(reads), reads)
    assert r.died("Г6") == ("day 1", "autokill")
    assert "No autokill" not in day_result(r)
    assert not [m for m in r.run.messages if m.key.startswith("day 1/downtime")]


def test_c14_the_waiver_line_in_russian() -> None:
    reads = outage(before=50 * M, length=40 * M)
    r = fold(game_with(reads, language="ru"), reads)
    assert r.alive("Г6")
    assert ("Автокилл за неявку не применяется: бот не мог читать форум с 02.12 09:10 до 02.12 09:50 (МСК)."
            in day_result(r))


@pytest.mark.parametrize("language, text", [
    ("ru", "Срок (день 1) подведён после сбоя: бот не мог читать форум с 02.12 09:10 до 02.12 09:50 (МСК), а допустимый "
           "перерыв — 30 минут в окне 2 часа перед сроком. Итог подведён как обычно, но за неявку "
           "никто не выбыл. Этот день уже не вернуть; чтобы отдать игрокам время, продлите следующий день: «продлить "
           "СРОК», когда он начнётся."),
    ("en", "The deadline (day 1) was resolved after an outage: the bot could not read the forum from 02.12 09:10 to "
           "02.12 09:50 (MSK), longer than 30 minutes of the last 2 hours before it. The result was resolved as "
           "usual, but nobody left for not voting. This day cannot be reopened; to give the players the time back, "
           "extend the next day: “extend LENGTH” once it opens."),
])
def test_c14_the_gms_get_one_pm_naming_the_gap(language: str, text: str) -> None:
    reads = outage(before=50 * M, length=40 * M)
    r = fold(game_with(reads, language=language), reads)
    assert r.pms("ГМ").count(text) == 1
    assert [m.key for m in r.run.messages if "downtime" in m.key] == ["day 1/downtime/ГМ"]


def test_c14_the_pm_advises_only_what_can_still_be_done() -> None:
    """The PM is made once the day is resolved: it advised «продлить СРОК», which would extend the night, and
    after the game's end there is nothing to extend (the stop-35 note). A disturbed Day 2 whose hanging gives the
    mafia parity (M-13): the PM says the game is over."""
    g = Game.moscow(language="ru")
    for i, n in enumerate(("М1", "М2")):
        g.gm("day 1", f"+{i + 1}h", f"модкилл {n}")  # M-11: Day 1's vote is cancelled
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М3")  # 3 mafia against 4
    g.votes("day 2", {v: "М4" for v in ("Дон", "Маф1", "Маф2", "Шериф")})
    deadline = START + 2 * timedelta(hours=24) + timedelta(hours=12)  # Day 2's
    reads = ticks(START, deadline - 50 * M) + ticks(deadline - 10 * M, deadline + M)
    r = fold(g, reads, until=deadline + M)
    assert r.winner == "mafia"
    (said,) = [m.text for m in r.run.messages if m.key == "day 2/downtime/ГМ"]
    # R-7 `nothing` (the Moscow default): nobody would have left for a missing vote, so none is said to be waived
    assert said.endswith("перед сроком. Итог подведён как обычно. Игра уже окончена: продлевать нечего."), said
    assert "продлить" not in said


def test_c14_r7_self_vote_is_waived_too() -> None:
    """R-7 `self_vote`: a player without a vote counts as one vote against himself, unless the deadline is
    disturbed. Г1 and Г2 vote Г6, Г6 votes Г3, Г4 votes Г7: watched, Г3 and Г7 (silent) add their own votes and tie
    Г6 at 2 (tie = nobody); disturbed, Г6 alone has 2 and is hanged."""
    g = Game.free_hunt(language="en", options={"no_show": "self_vote", "tie": "nobody"})
    for who, whom in (("Г1", "Г6"), ("Г2", "Г6"), ("Г6", "Г3"), ("Г4", "Г7")):
        g.vote("day 1", "+1h", who, whom)
    watched = fold(g, ticks(START, DEADLINE + M))
    assert all(watched.alive(n) for n in P)
    disturbed = fold(g, outage(before=50 * M, length=40 * M))
    assert disturbed.died("Г6") == ("day 1", "vote")
    assert "No autokill for not voting" in day_result(disturbed)


def test_c14_moscow_with_no_show_nothing_tells_the_gms_but_has_no_waiver_to_announce() -> None:
    """R-7 `nothing` (the Moscow default): nobody would leave for a missing vote, so the result post says nothing
    of it; the GMs are still told of the gap (they may `extend`)."""
    g = Game.moscow(language="en")
    g.vote("day 1", "+1h", "М1", "Маф1")
    reads = outage(before=50 * M, length=40 * M)
    r = fold(g, reads)
    assert "No autokill" not in day_result(r)
    assert [m.key for m in r.run.messages if "downtime" in m.key] == ["day 1/downtime/ГМ"]
    (pm,) = [m.text for m in r.run.messages if m.key == "day 1/downtime/ГМ"]
    assert "before it. The result was resolved as usual. This day" in pm and "nobody left" not in pm, pm


def test_c14_h4_a_repeat_agitator_still_leaves_at_a_disturbed_deadline() -> None:
    """Only a missing vote is forgiven: H-4's autokill for agitation is no downtime's fault."""
    g = game_with(())
    g.vote("day 1", "+2h", "Г1", "Голосуйте за Ф1!")
    g.vote("day 1", "+3h", "Г1", "давайте все за Ф2")  # the second agitation (H-4)
    reads = outage(before=50 * M, length=40 * M)
    r = fold(g, reads)
    assert r.alive("Г6")
    assert r.died("Г1") == ("day 1", "autokill")


def _short_of_posts(language: str, silent: tuple[str, ...] = ()) -> Game:
    """Free Hunt with R-11 `post_minimum = 1` `autokill`: everybody writes a game-thread post but Г5, everybody but
    `silent` votes (in a ring: nobody leaves by vote, H-6)."""
    g = Game.free_hunt(language=language, options={"post_minimum": 1, "post_minimum_action": "autokill"})
    for n in P:
        if n != "Г5":
            g.post("day 1", "+1h", n, "Я мирный, честно")
    voters = [p for p in P if p not in silent]
    for i, v in enumerate(voters):
        g.vote("day 1", "+1h", v, voters[(i + 1) % len(voters)])
    return g


@pytest.mark.parametrize(("language", "silent", "line"), [
    ("ru", (), "Автокилл за неактивность (мало сообщений в игровой теме) не применяется: бот не мог читать форум "
               "с 02.12 09:10 до 02.12 09:50 (МСК)."),
    ("en", (), "No autokill for too few posts in the game thread: the bot could not read the forum from 02.12 09:10 "
               "to 02.12 09:50 (MSK)."),
    ("ru", ("Г6",), "Автокилл за неявку и за неактивность (мало сообщений в игровой теме) не применяется: бот не мог "
                    "читать форум с 02.12 09:10 до 02.12 09:50 (МСК)."),
    ("en", ("Г6",), "No autokill for not voting or for too few posts in the game thread: the bot could not read the "
                    "forum from 02.12 09:10 to 02.12 09:50 (MSK)."),
])
def test_c14_r11_the_waiver_line_names_the_reason_the_waived_autokill_had(language, silent, line) -> None:  # type: ignore[no-untyped-def]
    """C-14 with R-11 (stop 35's walk-through): the waiver line said «за неявку» also when the autokill it waived
    was for too few posts; it names the reason the autokill would have had (posts, or a missing vote and posts),
    and the day page says the same line."""
    from forumbot.pages.site import GamePages
    from gamepages.pagekit import site

    reads = outage(before=50 * M, length=40 * M)
    r = fold(_short_of_posts(language, silent), reads)
    assert r.alive("Г5") and all(r.alive(n) for n in silent)
    assert line in day_result(r)
    assert day_result(r).count("\n" + ("Автокилл" if language == "ru" else "No autokill")) == 1
    setup = _short_of_posts(language, silent).setup()
    setup = replace(setup, schedule=replace(setup.schedule, reads=tuple(reads)))
    pages = site(GamePages("h", setup, r.run))
    assert line in pages["h/day-1.html"].decode()
    day_line = next(x for x in pages["h/index.html"].decode().splitlines() if 'href="day-1.html"' in x)
    assert line in day_line  # the game page's list of days notes it on that day's line (stop 35)


@pytest.mark.parametrize(("language", "silent", "said"), [
    ("ru", (), "Итог подведён как обычно, но за неактивность (мало сообщений в игровой теме) никто не выбыл."),
    ("en", (), "The result was resolved as usual, but nobody left for too few posts in the game thread."),
    ("ru", ("Г6",), "Итог подведён как обычно, но ни за неявку, ни за неактивность (мало сообщений в игровой теме) "
                    "никто не выбыл."),
    ("en", ("Г6",), "The result was resolved as usual, but nobody left for not voting or for too few posts in the "
                    "game thread."),
])
def test_c14_r11_the_gms_pm_names_the_reason_the_waived_autokill_had(language, silent, said) -> None:  # type: ignore[no-untyped-def]
    """C-14 with R-11 (issue 28, stop 36's walk-through): the GMs' PM said «за неявку никто не выбыл» of an
    autokill for too few posts; it names the reason as the result post's line does."""
    reads = outage(before=50 * M, length=40 * M)
    r = fold(_short_of_posts(language, silent), reads)
    (pm,) = [m.text for m in r.run.messages if m.key == "day 1/downtime/ГМ"]
    assert said in pm, pm
    assert pm.count("Итог подведён" if language == "ru" else "The result was resolved") == 1


def test_c14_r11_nobody_short_the_waiver_names_the_rules_in_force() -> None:
    """C-14: at a disturbed deadline where nobody would have left, the line (said whenever a rule could make
    somebody leave) names the autokills the house rules hold: here H-5's and R-11's."""
    g = Game.free_hunt(language="en", options={"post_minimum": 1, "post_minimum_action": "autokill"})
    for i, v in enumerate(P):
        g.post("day 1", "+1h", v, "Я мирный, честно")
        g.vote("day 1", "+1h", v, P[(i + 1) % len(P)])
    reads = outage(before=50 * M, length=40 * M)
    assert "No autokill for not voting or for too few posts in the game thread:" in day_result(fold(g, reads))


def test_c14_options_move_the_grace_and_the_window() -> None:
    reads = outage(before=50 * M, length=40 * M)
    assert fold(game_with(reads, downtime_grace=45), reads).died("Г6") == ("day 1", "autokill")
    # the 40 minutes without a read end 10 minutes before the deadline: 35 of the last 45 minutes, 30 of the last 40
    assert fold(game_with(reads, downtime_window=45), reads).alive("Г6")
    assert fold(game_with(reads, downtime_window=40), reads).died("Г6") == ("day 1", "autokill")
    assert option_problems("free_hunt", {"downtime_grace": 0}) == [
        "options.downtime_grace: must be at least 1 and at most 527040 minutes, got 0 (C-14)"]
    with pytest.raises(SetupError, match="downtime_window"):
        make_table(replace(game_with(()).setup(), options={"downtime_window": -5}))


# ------------------------------------------------------------------------------------------- replay, export


def test_c14_the_bot_is_back_when_it_resolved_the_deadline_as_recorded() -> None:
    """A replay reads when the bot resolved the deadline (`resolved`): the gap ends there, not at a later tick."""
    reads = ticks(START, DEADLINE - 40 * M) + ticks(DEADLINE + 2 * 60 * M, DEADLINE + 3 * 60 * M, every=60 * M)
    r = fold(game_with(reads), reads, until=DEADLINE + 4 * 60 * M, resolved=(("day 1", DEADLINE + 2 * 60 * M),))
    assert "from 02.12 09:20 to 02.12 12:00 (MSK)." in day_result(r)


def test_c14_a_transcript_carries_the_reads_and_replays_the_waiver() -> None:
    reads = outage(before=50 * M, length=40 * M)
    g = game_with(reads)
    setup = g.setup()
    transcript = {
        "variant": "free_hunt", "seed": setup.seed, "start": START.isoformat(), "language": "en", "bot": "Бот",
        "gms": ["ГМ"], "players": [{"nick": n, "role": str(r)} for n, r in HUNT_CAST],
        "until": (DEADLINE + M).isoformat(),
        "events": [{"at": e.at.isoformat(), "where": str(e.where), "from": e.author, "text": e.text}
                   for e in g.events],
        "reads": [{"at": r.first.isoformat(), "ok": r.ok} for r in reads],  # the per-read format still reads
    }
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    assert [p for p in result.result.players if p.nick == "Г6"][0].alive
    assert any("No autokill for not voting" in m.text for m in result.messages)
    as_spans = [{"first": START.isoformat(), "last": (DEADLINE - 50 * M).isoformat(), "ok": True},
                {"first": (DEADLINE - 10 * M).isoformat(), "last": (DEADLINE + M).isoformat(), "ok": True}]
    spanned, _ = replay.replay(replay.parse_transcript({**transcript, "reads": as_spans}))
    assert replay.to_json(spanned) == replay.to_json(result)  # the spans an export writes decide the same
    del transcript["reads"]
    result, _ = replay.replay(replay.parse_transcript(transcript))
    assert not [p for p in result.result.players if p.nick == "Г6"][0].alive  # without them: H-5 as before


def test_c14_a_transcript_with_a_bad_read_is_refused_by_name() -> None:
    with pytest.raises(TranscriptError, match=r"reads\[1\]: field 'ok' must be bool"):
        replay._reads([{"at": START.isoformat(), "ok": "yes"}])
    with pytest.raises(TranscriptError, match=r"reads\[2\]: missing field 'first'"):
        replay._reads([{"at": START.isoformat(), "ok": True}, {"ok": True}])
    with pytest.raises(TranscriptError, match=r"reads\[1\]: 'last' is before 'first'"):
        replay._reads([{"first": DEADLINE.isoformat(), "last": START.isoformat(), "ok": True}])


def test_c14_a_read_recorded_later_changes_no_checkpoint_digest() -> None:
    """The daemon only appends reads, at its ticks' times: a checkpoint at a deadline keeps its digest when
    later ticks add theirs, so a tick does not fold from Setup because it read the forum."""
    g = game_with(())
    early = ticks(START, DEADLINE + M)
    base = replace(g.setup(), schedule=replace(g.setup().schedule, reads=tuple(early)))
    later = replace(base, schedule=replace(base.schedule, reads=tuple(early + ticks(DEADLINE + 11 * M, DEADLINE + 60 * M))))
    queue = queued(make_table(base), g.events, None)
    assert digest(base, queue, DEADLINE + M, ["day 1"]) == digest(later, queue, DEADLINE + M, ["day 1"])
    changed = replace(base, schedule=replace(base.schedule, reads=tuple(early[:-3])))
    assert digest(changed, queue, DEADLINE + M, ["day 1"]) != digest(base, queue, DEADLINE + M, ["day 1"])
    # a span moved on by later ticks: cut at the checkpoint's time, it is the span the fold decided by
    span = replace(base, schedule=replace(base.schedule, reads=(ReadSpan(START, DEADLINE + M, True),)))
    moved = replace(base, schedule=replace(base.schedule, reads=(ReadSpan(START, DEADLINE + 60 * M, True),)))
    assert digest(span, queue, DEADLINE + M, ["day 1"]) == digest(moved, queue, DEADLINE + M, ["day 1"])


def test_c14_r12_an_early_majority_is_judged_over_the_window_before_it():
    """C-14 with R-12: every tick is recorded, so a majority post ten hours before the scheduled deadline is judged
    over the two hours before it like any deadline: watched throughout, no gap; the bot down from an hour before
    it, the gap named from the last read."""
    grace, window = 30 * M, 120 * M
    early = DEADLINE - 10 * 60 * M
    watched = [ReadSpan(START - 60 * M, early + M, True)]
    assert longest_gap(watched, early, early + M, grace, window, START) is None
    down = [ReadSpan(START - 60 * M, early - 60 * M, True), ReadSpan(early + M, early + M, True)]
    assert longest_gap(down, early, early + M, grace, window, START) == (early - 60 * M, early + M)


def test_c14_the_window_is_judged_from_the_phases_opening_on() -> None:
    """C-14: a one-hour day (shorter than the 2 h window) opened at 09:00 MSK; no read from three hours before it
    until 09:05, then one every 10 minutes: no vote of this day was hidden, so the deadline is not disturbed and
    H-5 autokills the no-show. (The daemon watched the phase before, not this day's window, when that one closed
    early: the time before the opening is no outage of this day.)"""
    g = Game.free_hunt(language="en", day=timedelta(hours=1))
    voters = [p for p in P if p != "Г6"]
    for i, v in enumerate(voters):
        g.vote("day 1", "+30m", v, voters[(i + 1) % len(voters)])
    deadline = START + timedelta(hours=1)
    reads = ticks(START - 3 * 60 * M, START - 3 * 60 * M) + ticks(START + 5 * M, deadline + M)
    r = fold(g, reads, until=deadline + M)
    assert "day 1/downtime/ГМ" not in r.keys()
    assert r.died("Г6") == ("day 1", "autokill")


@pytest.mark.parametrize(("language", "line"), [
    ("ru", "Автокилл за неявку не применяется: бот не мог читать форум с 02.12 09:10 до 02.12 09:50 (МСК)."),
    ("en", "No autokill for not voting: the bot could not read the forum from 02.12 09:10 to 02.12 09:50 (MSK)."),
])
def test_c14_the_day_page_says_the_waiver_the_result_post_said(language: str, line: str) -> None:
    """C-14 on the day page (a GM's walk-through of issue 30): the page listed Г6 under «Не проголосовали» beside an
    outcome without his autokill and never said why; it now carries the result post's waiver line."""
    from forumbot.pages.site import GamePages
    from gamepages.pagekit import site

    g = game_with(outage(before=50 * M, length=40 * M), language)
    setup = g.setup()
    setup = replace(setup, schedule=replace(setup.schedule, reads=tuple(outage(before=50 * M, length=40 * M))))
    result = run(setup, g.events, DEADLINE + M)
    assert line in next(m.text for m in result.messages if m.key == "day 1/result")
    page = site(GamePages("h", setup, result))["h/day-1.html"].decode()
    assert line in page, page[:3000]
    calm = run(g.setup(), g.events, DEADLINE + M)  # no outage recorded: nothing waived, no such line
    assert line not in site(GamePages("h", g.setup(), calm))["h/day-1.html"].decode()
