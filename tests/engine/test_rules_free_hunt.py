"""Free Hunt rules H-1..H-15 (RULES.md), each exercised through the whole engine as a short game story.

The cast (tests/gamekit.py): mafia Ф1 Ф2 Ф3, Doctor Док, Maniac Ман, civilians Г1..Г7 (12 players, 8 town).
Day N lasts 24 h from its opening, night N 12 h; every player must vote each day or be autokilled (H-5),
so most stories start with everybody voting in a ring (an all-way tie: nobody leaves, nobody is a no-show).
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from forumbot.errors import SetupError
from forumbot.game import run
from forumbot.model import GameSetup, PlayerSpec, Role, Schedule

from gamekit import HUNT_CAST, START, Game, Result, plain

P = [n for n, _ in HUNT_CAST]  # Ф1 Ф2 Ф3 Док Ман Г1..Г7
MAFIA = ["Ф1", "Ф2", "Ф3"]
TOWN = ["Док"] + [f"Г{i}" for i in range(1, 8)]


def fh(**kw) -> Game:  # type: ignore[no-untyped-def]
    kw.setdefault("language", "en")
    return Game.free_hunt(**kw)


def alive_after(g: Game, removed: list[str]) -> list[str]:
    return [n for n in P if n not in removed]


def ring(g: Game, phase: str, voters: list[str] | None = None, offset: str = "+1h") -> None:
    """Each voter votes for the next: an all-way tie, so nobody leaves and nobody is a no-show (H-6)."""
    voters = list(P if voters is None else voters)
    for i, v in enumerate(voters):
        g.vote(phase, offset, v, voters[(i + 1) % len(voters)])


def lynch(g: Game, phase: str, target: str, voters: list[str] | None = None, offset: str = "+1h") -> None:
    """Every voter votes for `target`; the target votes for someone else."""
    voters = list(P if voters is None else voters)
    other = next(v for v in voters if v != target)
    for v in voters:
        g.vote(phase, offset, v, other if v == target else target)


def modkill_in_setup(g: Game, nicks: list[str]) -> None:
    """Thin the cast before Day 1 (GM modkills stamped before the start)."""
    for k, nick in enumerate(nicks):
        g.gm(START - timedelta(hours=2) + timedelta(minutes=k), "", f"modkill {nick}")


def night_post(r: Result, n: int) -> str:
    """The night's results, without the opening of the day posted with them (issue 11 item 6)."""
    text = next(plain(m.text) for m in r.run.messages if m.key == f"night {n}/result")
    return text.split(f"\n\nDay {n + 1} begins")[0].split(f"\n\nНаступил день {n + 1}")[0]


def _day_result(r: Result, n: int) -> str:
    return next(plain(m.text) for m in r.run.messages if m.key == f"day {n}/result")


def day_post(r: Result, n: int) -> str:
    """The day's outcome, without the final count posted with it (C-6)."""
    text = _day_result(r, n)
    return text[text.index(f"Day {n} results."):]


def final_count(r: Result, n: int) -> str:
    """The final count that heads the day's result post (C-6)."""
    text = _day_result(r, n)
    assert text.startswith("Final vote count")
    return text[: text.index(f"Day {n} results.")]


def pm_after(r: Result, to: str, inp) -> list[str]:  # type: ignore[no-untyped-def]
    """The PM answers the bot sent to `to` for the input `inp` (key pm/<id>)."""
    return [plain(m.text) for m in r.run.messages if m.to == to and m.key == f"pm/{inp.id}"]


# ================================================================================================ H-1

CASTS_BY_RULES = {
    12: [(3, True), (3, False)],
    13: [(3, True), (3, False)],
    14: [(3, True), (4, False)],
    15: [(3, True), (4, False)],
    16: [(4, True), (5, False)],
    17: [(4, True), (5, False)],
}


def _setup(n: int, options: dict | None = None, roles: list[Role | None] | None = None) -> GameSetup:
    players = tuple(PlayerSpec(f"Игрок{i}", roles[i] if roles else None) for i in range(n))
    return GameSetup("free_hunt", 5, Schedule(START), players, "Бот", ("ГМ",), dict(options or {}))


def _cast(setup: GameSetup) -> Counter:
    r = run(setup, [], START)
    return Counter(p.role for p in r.result.players)


@pytest.mark.parametrize("n, mafia, maniac", [(n, m, x) for n, casts in CASTS_BY_RULES.items() for m, x in casts])
def test_H1_each_allowed_cast_by_options(n: int, mafia: int, maniac: bool) -> None:
    cast = _cast(_setup(n, {"mafia": mafia, "maniac": maniac}))
    assert cast[Role.MAFIA] == mafia
    assert cast[Role.MANIAC] == (1 if maniac else 0)
    assert cast[Role.DOCTOR] == 1
    assert cast[Role.CIVILIAN] == n - mafia - 1 - (1 if maniac else 0)
    assert not cast[Role.SHERIFF] and not cast[Role.DON]


@pytest.mark.parametrize("n", sorted(CASTS_BY_RULES))
def test_H1_default_cast_is_the_first_with_the_maniac(n: int) -> None:
    cast = _cast(_setup(n))
    mafia, maniac = CASTS_BY_RULES[n][0]
    assert maniac
    assert (cast[Role.MAFIA], cast[Role.MANIAC], cast[Role.DOCTOR]) == (mafia, 1, 1)


@pytest.mark.parametrize("n, options, mafia, maniac", [
    (12, {"maniac": False}, 3, False),
    (13, {"maniac": True}, 3, True),
    (14, {"maniac": False}, 4, False),  # the only cast of the row without the Maniac
    (15, {"mafia": 4}, 4, False),
    (16, {"mafia": 5}, 5, False),
    (17, {"maniac": False}, 5, False),
    (16, {"mafia": 4}, 4, True),
])
def test_H1_one_option_picks_the_cast_of_the_row_it_names(n: int, options: dict, mafia: int, maniac: bool) -> None:
    cast = _cast(_setup(n, options))
    assert (cast[Role.MAFIA], cast[Role.MANIAC]) == (mafia, 1 if maniac else 0)


@pytest.mark.parametrize("n", [0, 1, 10, 11, 18, 19, 30])
def test_H1_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(SetupError) as e:
        run(_setup(n), [], START)
    msg = str(e.value)
    assert "12" in msg and "17" in msg and str(n) in msg


@pytest.mark.parametrize("n, options", [
    (12, {"mafia": 4}),
    (12, {"mafia": 2, "maniac": True}),
    (14, {"mafia": 3, "maniac": False}),
    (14, {"mafia": 4, "maniac": True}),
    (16, {"mafia": 5, "maniac": True}),
    (17, {"mafia": 3}),
])
def test_H1_options_outside_the_row_are_refused_with_the_allowed_casts(n: int, options: dict) -> None:
    with pytest.raises(SetupError) as e:
        run(_setup(n, options), [], START)
    msg = str(e.value)
    assert "H-1" in msg and str(n) in msg
    for mafia, _ in CASTS_BY_RULES[n]:
        assert f"{mafia} mafia" in msg


@pytest.mark.parametrize("options", [{"mafia": "three"}, {"mafia": None}, {"maniac": "no"}, {"mafia": 3.5}])
def test_H1_unreadable_options_are_a_setup_error(options: dict) -> None:
    with pytest.raises(SetupError) as e:
        run(_setup(12, options), [], START)
    assert "mafia" in str(e.value) or "maniac" in str(e.value)


def _roles(n: int, mafia: int, doctor: int = 1, maniac: int = 0, extra: list[Role] | None = None) -> list[Role | None]:
    roles: list[Role | None] = [Role.MAFIA] * mafia + [Role.DOCTOR] * doctor + [Role.MANIAC] * maniac + list(extra or [])
    return roles + [Role.CIVILIAN] * (n - len(roles))


@pytest.mark.parametrize("n, mafia, maniac", [(n, m, x) for n, casts in CASTS_BY_RULES.items() for m, x in casts])
def test_H1_given_roles_forming_an_allowed_cast_are_kept(n: int, mafia: int, maniac: bool) -> None:
    roles = _roles(n, mafia, maniac=int(maniac))
    r = run(_setup(n, roles=roles), [], START)
    assert [p.role for p in r.result.players] == roles


@pytest.mark.parametrize("n, roles", [
    (12, _roles(12, 4, maniac=1)),  # 4 mafia + maniac at 12
    (12, _roles(12, 3, doctor=0, maniac=1)),  # no doctor
    (12, _roles(12, 3, doctor=2, maniac=1)),  # two doctors
    (12, _roles(12, 3, maniac=2)),  # two maniacs
    (14, _roles(14, 4, maniac=1)),
    (14, _roles(14, 3)),  # 3 mafia without maniac at 14
    (16, _roles(16, 5, maniac=1)),
    (12, _roles(12, 3, maniac=1, extra=[Role.SHERIFF])),  # no sheriff in Free Hunt
    (12, _roles(12, 2, maniac=1, extra=[Role.DON])),  # nor a Don
])
def test_H1_given_roles_outside_the_allowed_casts_are_refused(n: int, roles: list[Role | None]) -> None:
    with pytest.raises(SetupError) as e:
        run(_setup(n, roles=roles), [], START)
    assert str(e.value).strip() and "\n" not in str(e.value)


def test_H1_partial_roles_beyond_the_cast_are_refused() -> None:
    roles: list[Role | None] = [Role.DOCTOR, Role.DOCTOR] + [None] * 10
    with pytest.raises(SetupError):
        run(_setup(12, roles=roles), [], START)


def test_H1_partial_roles_are_completed_to_an_allowed_cast() -> None:
    roles: list[Role | None] = [Role.MANIAC, Role.MAFIA] + [None] * 12
    cast = _cast(_setup(14, roles=roles))
    assert (cast[Role.MAFIA], cast[Role.MANIAC], cast[Role.DOCTOR], cast[Role.CIVILIAN]) == (3, 1, 1, 9)


def test_H1_each_player_gets_a_role_pm_and_may_confirm() -> None:
    g = fh()
    g.pm("setup", "-2h", "Г1", "confirm")
    r = g.run("day 1", "+0h")
    for nick, role in HUNT_CAST:
        pm = r.pms(nick)[0]
        assert f"Your role: {'civilian' if role is Role.CIVILIAN else role}" in pm
    assert "Ф2" in r.pms("Ф1")[0] and "Ф3" in r.pms("Ф1")[0]  # mafia know each other
    assert "The mafia with you" not in r.pms("Ман")[0]  # an example may name anyone; partners only for the mafia
    to_gm = r.pms("ГМ")[0]
    assert "Г2" in to_gm and "Г1" not in to_gm


# ================================================================================================ H-2


def test_H2_day_vote_reveals_the_exact_role() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1")
    r = g.run("day 1", "+24h")
    assert r.died("Ф1") == ("day 1", "vote")
    assert "By vote, Ф1 leaves the game.\nRole: mafia." in day_post(r, 1)


def test_H2_autokill_reveals_the_role() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p != "Ман"])
    r = g.run("day 1", "+24h")
    assert r.died("Ман") == ("day 1", "autokill")
    assert "Autokill: Ман leaves the game (reason: no vote).\nRole: maniac." in day_post(r, 1)


def test_H2_modkill_reveals_the_role() -> None:
    g = fh()
    g.gm("day 1", "+2h", "modkill Док flooding")
    r = g.run("day 1", "+3h")
    assert r.died("Док") == ("day 1", "modkill")
    post = next(t for t in r.posts() if t.startswith("Modkill"))
    assert "Док" in post and "Role: doctor." in post


def test_H2_every_night_death_names_its_cause_and_role() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+1h", "Ман", "kill Г2")
    g.pm("night 1", "+1h", "Г3", "hunt Ф2")
    r = g.run("night 1", "+12h")
    post = night_post(r, 1)
    assert r.died("Г1") == ("night 1", "mafia") and "Mafia victim: Г1 (civilian)." in post
    assert r.died("Г2") == ("night 1", "maniac") and "Maniac victim: Г2 (civilian)." in post
    assert r.died("Ф2") == ("night 1", "hunt") and "Hunt victim: Ф2 (mafia)." in post

    g2 = fh()
    ring(g2, "day 1")
    g2.pm("night 1", "+1h", "Г3", "hunt Г4")
    r2 = g2.run("night 1", "+12h")
    assert r2.died("Г3") == ("night 1", "failed_hunt")
    assert "Failed hunt: the hunter Г3 (civilian) leaves the game." in night_post(r2, 1)


def test_H2_maniac_killed_on_hunt_is_revealed_as_maniac() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г3", "hunt Ман maniac")
    r = g.run("night 1", "+12h")
    assert r.died("Ман") == ("night 1", "hunt")
    assert "Hunt victim: Ман (maniac)." in night_post(r, 1)


def test_H2_roles_in_russian_too() -> None:
    g = fh(language="ru")
    lynch(g, "day 1", "Ман")
    r = g.run("day 1", "+24h")
    assert "Роль: маньяк" in _day_result(r, 1)


# ================================================================================================ H-3


def test_H3_a_bare_nickname_is_a_vote_after_normalisation() -> None:
    g = fh()
    for v in P:
        if v != "Г1":
            g.vote("day 1", "+1h", v, "[b]г1[/b]!" if v == "Г2" else "Г1")
    g.vote("day 1", "+1h", "Г1", "Г2")
    r = g.run("day 1", "+24h")
    assert r.died("Г1") == ("day 1", "vote")
    assert "Г1 — 11 votes:" in final_count(r, 1)


def test_H3_latest_accepted_vote_counts() -> None:
    g = fh()
    ring(g, "day 1")  # Г1 first votes Г2
    g.vote("day 1", "+2h", "Г1", "Г3")
    g.vote("day 1", "+3h", "Г1", "Г4")
    g.vote("day 1", "+4h", "Г5", "Г4")  # was Г6
    g.vote("day 1", "+5h", "Г6", "Г4")  # was Г7
    r = g.run("day 1", "+24h")
    count = final_count(r, 1)
    assert "Г4 — 4 votes:" in count  # Г3, Г1, Г5, Г6
    assert r.died("Г4") == ("day 1", "vote")


def test_H3_a_later_vote_may_go_back_to_an_earlier_target() -> None:
    g = fh()
    lynch(g, "day 1", "Г1")
    for k, v in enumerate(["Ф1", "Ф2", "Ф3", "Док", "Ман", "Г2", "Г3"]):
        g.vote("day 1", f"+{2 + k}h", v, "Г7")  # 7 of 11 move to Г7
    g.vote("day 1", "+20h", "Ф1", "Г1")
    g.vote("day 1", "+20h", "Ф2", "Г1")  # and two come back: Г1 6, Г7 5
    r = g.run("day 1", "+24h")
    assert r.died("Г1") == ("day 1", "vote") and r.alive("Г7")


@pytest.mark.parametrize("post, why", [
    ("Г1 потому что молчит", "not a vote"),
    ("Г1, Г2", "not a vote"),
    ("Г1 Г2", "not a vote"),
    ("Г1\nон мафия", "not a vote"),
    ("Г1 — мафия", "not a vote"),
    ("[quote=Г2]Г3[/quote]\nГ1", "not a vote"),
    ("[quote=Г2]Г1[/quote]", "not a vote"),  # a post that is only a quote of a vote is a quote (H-3)
    ("голосую за Г1", "not a vote"),  # no agitation marker: only a rejected post (H-4)
    ("Вася", "no player by that name"),
    ("ннв", "not a vote"),
])
def test_H3_anything_but_a_nickname_is_rejected_and_listed(post: str, why: str) -> None:
    g = fh()
    ring(g, "day 1")  # Г3 first votes Г4
    g.vote("day 1", "+2h", "Г3", post)
    r = g.run("day 1", "+24h")
    count = final_count(r, 1)
    line = next(ln for ln in count.splitlines() if ln.startswith("Not counted: Г3"))
    assert why in line
    assert "Г4 — 1 vote: Г3" in count  # the rejected post does not replace the accepted vote
    assert r.alive("Г3")  # nor does it make him a no-show


def test_H3_a_vote_for_a_dead_player_is_rejected() -> None:
    g = fh()
    lynch(g, "day 1", "Г1")
    ring(g, "day 2", alive_after(g, ["Г1"]))
    g.vote("day 2", "+2h", "Г2", "Г1")
    r = g.run("day 2", "+24h")
    count = final_count(r, 2)
    assert "Not counted: Г2 “Г1” — that player is out of the game." in count
    assert "Г3 — 1 vote: Г2" in count


def test_H3_a_player_whose_posts_were_all_rejected_is_a_no_show() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p != "Г3"])
    g.vote("day 1", "+2h", "Г3", "Г1 потому что")
    g.vote("day 1", "+3h", "Г3", "Г1, Г2")
    r = g.run("day 1", "+24h")
    assert r.died("Г3") == ("day 1", "autokill")
    assert "Г3" in next(ln for ln in final_count(r, 1).splitlines() if ln.startswith("No vote"))


def test_H3_posts_by_the_dead_and_non_players_are_not_votes() -> None:
    g = fh()
    lynch(g, "day 1", "Г1")
    ring(g, "day 2", alive_after(g, ["Г1"]))
    g.vote("day 2", "+2h", "Г1", "Г2")
    g.vote("day 2", "+2h", "Зритель", "Г2")
    r = g.run("day 2", "+24h")
    count = final_count(r, 2)
    assert "Г2 — 1 vote:" in count
    assert "Not counted: Г1" in count and "Not counted: Зритель" in count


# ================================================================================================ H-4


def test_H4_agitation_is_a_final_self_vote() -> None:
    g = fh()
    ring(g, "day 1")  # Г1 -> Г2, Ман -> Г1
    g.vote("day 1", "+2h", "Г1", "Голосуйте за Ф1!")
    g.vote("day 1", "+3h", "Г1", "Ф1")  # not a vote any more: his vote is final
    r = g.run("day 1", "+24h")
    count = final_count(r, 1)
    assert "Г1 — 2 votes: Ман, Г1" in count
    assert "Agitation: Г1" in count
    assert "Not counted: Г1 “Ф1”" in count
    assert "Ф1 — 1 vote:" not in count.replace("Ф1 — 1 vote: Г7", "")  # only Г7's ring vote names Ф1
    assert r.died("Г1") == ("day 1", "vote")  # two votes lead: he leaves by his own agitation


def test_H4_agitation_replaces_an_earlier_vote_and_is_no_no_show() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p != "Г5"])
    g.vote("day 1", "+2h", "Г5", "давайте все за Ф2")
    g.vote("day 1", "+3h", "Г2", "Г6")  # Г2 moves to Г6, who gets 2
    r = g.run("day 1", "+24h")
    assert r.alive("Г5")
    assert "Г5 — 1 vote: Г5" in final_count(r, 1)
    assert r.died("Г6") == ("day 1", "vote")


@pytest.mark.parametrize("post", [
    "голосуем за Ф1", "Давайте Ф1", "все на Ф1", "все за Ф1", "предлагаю Ф1", "vote Ф1", "let's lynch Ф1",
    "Голосуйте!", "[b]ГОЛОСУЙТЕ[/b] за Ф1",
])
def test_H4_markers_are_agitation(post: str) -> None:
    g = fh()
    ring(g, "day 1")
    g.vote("day 1", "+2h", "Г1", post)
    r = g.run("day 1", "+24h")
    assert "Agitation: Г1" in final_count(r, 1)


def test_H4_markers_are_extendable_per_game() -> None:
    g = fh(options={"agitation_markers": ["вешаем"]})
    ring(g, "day 1")
    g.vote("day 1", "+2h", "Г1", "вешаем Ф1")
    r = g.run("day 1", "+24h")
    assert "Agitation: Г1" in final_count(r, 1)


def test_H4_second_agitation_the_same_day_autokills_at_the_deadline() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1")
    g.vote("day 1", "+2h", "Г1", "голосуем за Ф1")
    g.vote("day 1", "+3h", "Г1", "давайте Ф1")
    r = g.run("day 1", "+23h")
    assert r.alive("Г1")  # not before the deadline
    r = g.run("day 1", "+24h")
    assert r.died("Г1") == ("day 1", "autokill")
    assert r.alive("Ф1")  # H-6: any autokill at this vote, nobody leaves by vote
    assert "nobody leaves by vote" in day_post(r, 1)


def test_H4_second_agitation_on_a_later_day_autokills_at_that_deadline() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1")
    g.vote("day 1", "+2h", "Г1", "голосуем за Ф3")
    ring(g, "day 2", alive_after(g, ["Ф1"]))
    g.vote("day 2", "+2h", "Г1", "все на Ф2")
    r = g.run("day 1", "+24h")
    assert r.alive("Г1") and r.died("Ф1") == ("day 1", "vote")  # one agitation: only a self-vote
    r = g.run("day 2", "+24h")
    assert r.died("Г1") == ("day 2", "autokill")


def test_H4_editing_does_not_undo_an_agitation() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1")
    edited = g.at("day 1", "+3h")
    g.vote("day 1", "+2h", "Г1", "Г2", edited_at=edited, first_text="голосуйте за Г2")
    r = g.run("day 1", "+24h")
    count = final_count(r, 1)
    assert "Agitation: Г1" in count and "Г1 — 1 vote: Г1" in count
    # ... and it still counts toward the second-agitation autokill
    g.vote("day 2", "+2h", "Г1", "давайте Г3")
    ring(g, "day 2", alive_after(g, ["Ф1", "Г1"]))
    r = g.run("day 2", "+24h")
    assert r.died("Г1") == ("day 2", "autokill")


def test_H4_outside_a_day_a_vote_thread_post_is_neither_vote_nor_agitation() -> None:
    g = fh()
    ring(g, "day 1")
    g.vote("night 1", "+1h", "Г1", "голосуем за Ф1")  # night: nothing
    g.vote("setup", "-1h", "Г2", "голосуйте за Ф1")  # setup: nothing
    ring(g, "day 2", [p for p in P if p != "Г3"])
    g.vote("night 1", "+2h", "Г3", "Г4")  # a night post is no vote for day 2
    g.vote("day 2", "+2h", "Г1", "давайте Ф2")  # his first agitation of the game
    g.vote("day 2", "+2h", "Г2", "давайте Ф2")
    r = g.run("day 2", "+24h")
    assert r.alive("Г1") and r.alive("Г2")
    assert r.died("Г3") == ("day 2", "autokill")
    assert "Agitation: Г1" not in final_count(r, 1)


def test_H4_a_plain_vote_for_is_only_a_rejected_post() -> None:
    g = fh()
    ring(g, "day 1")
    g.vote("day 1", "+2h", "Г1", "голосую за Ф1")
    g.vote("day 1", "+3h", "Г1", "голосую за Ф2")
    r = g.run("day 1", "+24h")
    assert r.alive("Г1") and "agitation" not in final_count(r, 1)


# ================================================================================================ H-5


def test_H5_no_show_is_autokilled() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p not in ("Г6", "Ф3")])
    r = g.run("day 1", "+24h")
    assert r.died("Г6") == ("day 1", "autokill")
    assert r.died("Ф3") == ("day 1", "autokill")
    assert sum(1 for n in P if not r.alive(n)) == 2


def test_H5_a_vote_stamped_at_the_deadline_is_late() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p not in ("Г6", "Г7")])
    g.vote("day 1", "+24h", "Г6", "Г1")
    g.vote("day 1", "+23h59m59s", "Г7", "Г1")
    r = g.run("day 1", "+24h")
    assert r.died("Г6") == ("day 1", "autokill")
    assert r.alive("Г7")


def test_H5_players_get_a_reminder_before_the_autokill() -> None:
    g = fh()
    ring(g, "day 1", [p for p in P if p != "Г6"])
    r = g.run("day 1", "+24h")
    assert any("autokill" in t for t in r.pms("Г6"))
    assert not any("autokill" in t for t in r.pms("Г5"))


def test_H5_H6_a_day_modkill_keeps_the_vote_and_so_the_no_show_reminder() -> None:
    """A GM modkill does not cancel Free Hunt's vote (H-6), so a player yet to vote is still warned (H-5)."""
    g = fh()
    ring(g, "day 1", [p for p in P if p not in ("Г6", "Г7")])
    g.gm("day 1", "+2h", "модкилл Г7 флуд")
    r = g.run("day 1", "+24h")
    assert any("autokill" in t for t in r.pms("Г6"))
    assert r.died("Г6") == ("day 1", "autokill")


def test_H5_every_day_not_only_the_first() -> None:
    g = fh()
    ring(g, "day 1")
    ring(g, "day 2", [p for p in P if p != "Г2"])
    r = g.run("day 2", "+24h")
    assert r.died("Г2") == ("day 2", "autokill")


# ================================================================================================ H-6


def test_H6_tie_nobody_leaves() -> None:
    g = fh()
    voters = P
    for v in voters[:6]:
        g.vote("day 1", "+1h", v, "Г7" if v != "Г7" else "Г6")
    for v in voters[6:]:
        g.vote("day 1", "+1h", v, "Ф1" if v != "Ф1" else "Г6")
    r = g.run("day 1", "+24h")
    assert all(r.alive(n) for n in P)
    assert "Tie:" in day_post(r, 1)


def test_H6_any_autokill_means_nobody_leaves_by_vote() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1", [p for p in P if p != "Г7"])
    r = g.run("day 1", "+24h")
    assert r.died("Г7") == ("day 1", "autokill")
    assert r.alive("Ф1")
    assert "nobody leaves by vote" in day_post(r, 1)


def test_H6_a_day_modkill_does_not_cancel_the_vote() -> None:
    g = fh()
    lynch(g, "day 1", "Ф1", [p for p in P if p != "Г7"])
    g.gm("day 1", "+5h", "modkill Г7")  # the would-be no-show is modkilled: no autokill at all
    r = g.run("day 1", "+24h")
    assert r.died("Г7") == ("day 1", "modkill")
    assert r.died("Ф1") == ("day 1", "vote")


def test_H6_a_vote_for_a_player_modkilled_later_counts_for_nobody_and_is_no_no_show() -> None:
    g = fh()
    # Г1 gets 6 votes, Г2 gets 5; then Г1 is modkilled: his votes count for nobody, Г2 leads.
    six = ["Ф1", "Ф2", "Ф3", "Док", "Ман", "Г3"]
    five = ["Г4", "Г5", "Г6", "Г7", "Г1"]
    for v in six:
        g.vote("day 1", "+1h", v, "Г1")
    for v in five:
        g.vote("day 1", "+1h", v, "Г2")
    g.vote("day 1", "+1h", "Г2", "Г3")
    g.gm("day 1", "+10h", "modkill Г1")
    r = g.run("day 1", "+24h")
    assert r.died("Г1") == ("day 1", "modkill")
    assert r.died("Г2") == ("day 1", "vote")
    for v in six:
        assert r.alive(v), v  # no no-shows
    count = final_count(r, 1)
    assert "Г1 —" not in count
    assert "No vote" not in count  # nobody left without a vote: no line


def test_H6_after_a_modkill_the_voters_may_still_change_their_vote() -> None:
    g = fh()
    ring(g, "day 1")  # Ман -> Г1
    g.gm("day 1", "+2h", "modkill Г1")
    g.vote("day 1", "+3h", "Ман", "Г5")
    g.vote("day 1", "+3h", "Ф1", "Г5")  # Г5 now has Г4, Ман, Ф1
    r = g.run("day 1", "+24h")
    assert r.died("Г5") == ("day 1", "vote")


def test_H6_modkill_of_the_leader_with_no_other_candidate_leaves_nobody() -> None:
    g = fh()
    lynch(g, "day 1", "Г1")  # Г1 votes Ф1
    g.gm("day 1", "+2h", "modkill Г1")
    r = g.run("day 1", "+24h")
    # Only Г1's own vote named Ф1, and Г1 is out: it counts for nobody either way.
    assert all(r.alive(n) for n in P if n != "Г1")
    assert r.died("Г1") == ("day 1", "modkill")


# ================================================================================================ H-7


def test_H7_latest_shot_from_any_mafia_member_counts() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+2h", "Ф2", "kill Г2")
    g.pm("night 1", "+3h", "Ф3", "kill Г3")
    g.pm("night 1", "+4h", "Ф1", "kill Г4")
    r = g.run("night 1", "+12h")
    assert r.died("Г4") == ("night 1", "mafia")
    assert all(r.alive(n) for n in ("Г1", "Г2", "Г3"))


def test_H7_the_shot_is_optional() -> None:
    g = fh()
    ring(g, "day 1")
    r = g.run("night 1", "+12h")
    assert all(r.alive(n) for n in P)
    assert "nobody died" in night_post(r, 1)


def test_H7_executor_is_acknowledged_and_stands_when_the_sender_dies() -> None:
    g = fh()
    ring(g, "day 1")
    shot = g.pm("night 1", "+1h", "Ф1", "kill Г1 by Ф2")
    g.pm("night 1", "+2h", "Г5", "hunt Ф1")  # the sender dies first, on the hunt
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Ф1", shot) == ["Accepted: shot. Target — Г1, fired by Ф2."]
    assert r.died("Ф1") == ("night 1", "hunt")
    assert r.died("Г1") == ("night 1", "mafia")


def test_H7_the_sender_is_the_default_executor() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+2h", "Г5", "hunt Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "hunt")
    assert r.alive("Г1")


def test_H7_executor_killed_on_the_hunt_means_no_shot() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1 исполнитель Ф2")
    g.pm("night 1", "+2h", "Г5", "охота Ф2")
    r = g.run("night 1", "+12h")
    assert r.died("Ф2") == ("night 1", "hunt")
    assert r.alive("Г1")
    assert "Mafia victim" not in night_post(r, 1)


def test_H7_a_shot_sent_by_day_stands_if_its_sender_is_voted_out() -> None:
    g = fh()
    g.pm("day 1", "+2h", "Ф1", "kill Г1 by Ф3")
    lynch(g, "day 1", "Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("day 1", "vote")
    assert r.died("Г1") == ("night 1", "mafia")


def test_H7_a_later_shot_from_a_dead_sender_is_refused_and_the_earlier_stands() -> None:
    g = fh()
    g.pm("day 1", "+2h", "Ф2", "kill Г1")
    lynch(g, "day 1", "Ф1")
    late = g.pm("night 1", "+1h", "Ф1", "kill Г2")
    r = g.run("night 1", "+12h")
    assert "out of the game" in pm_after(r, "Ф1", late)[0]
    assert r.died("Г1") == ("night 1", "mafia") and r.alive("Г2")


@pytest.mark.parametrize("executor", ["Г2", "Ман", "Зритель"])
def test_H7_the_executor_must_be_an_alive_mafia_member(executor: str) -> None:
    g = fh()
    ring(g, "day 1")
    good = g.pm("night 1", "+1h", "Ф1", "kill Г3")
    bad = g.pm("night 1", "+2h", "Ф2", f"kill Г1 by {executor}")
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Ф1", good)[0].startswith("Accepted")
    assert not pm_after(r, "Ф2", bad)[0].startswith("Accepted")
    assert r.alive("Г1") and r.died("Г3") == ("night 1", "mafia")


def test_H7_a_dead_executor_is_refused() -> None:
    g = fh()
    lynch(g, "day 1", "Ф3")
    bad = g.pm("night 1", "+2h", "Ф2", "kill Г1 by Ф3")
    r = g.run("night 1", "+12h")
    assert not pm_after(r, "Ф2", bad)[0].startswith("Accepted")
    assert r.alive("Г1")


def test_H7_only_mafia_shoots_for_the_mafia() -> None:
    g = fh()
    ring(g, "day 1")
    m = g.pm("night 1", "+1h", "Г1", "kill Г2")
    r = g.run("night 1", "+12h")
    assert "no such move" in pm_after(r, "Г1", m)[0]
    assert r.alive("Г2")


# ================================================================================================ H-8


def test_H8_maniac_may_not_repeat_last_nights_target_refused_at_once() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")  # Г1 survives night 1
    ring(g, "day 2")
    again = g.pm("night 2", "+1h", "Ман", "kill Г1")
    other = g.pm("night 2", "+2h", "Ман", "kill Г2")
    r = g.run("night 2", "+12h")
    assert r.alive("Г1")
    refusal = pm_after(r, "Ман", again)
    assert len(refusal) == 1 and "Г1" in refusal[0] and "H-8" not in refusal[0]
    assert refusal[0] == next(plain(m.text) for m in r.run.messages if m.key == f"pm/{again.id}")
    assert next(m.at for m in r.run.messages if m.key == f"pm/{again.id}") == again.at  # at once
    assert pm_after(r, "Ман", other) == ["Accepted: shot. Target — Г2."]
    assert r.died("Г2") == ("night 2", "maniac")


def test_H8_refused_repeat_by_day_and_the_refusal_changes_nothing() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    ring(g, "day 2")
    g.pm("day 2", "+1h", "Ман", "kill Г3")  # a move for night 2
    again = g.pm("day 2", "+2h", "Ман", "Г1")  # bare nickname: his only move
    r = g.run("night 2", "+12h")
    assert "H-8" not in pm_after(r, "Ман", again)[0]
    assert r.alive("Г1") and r.died("Г3") == ("night 2", "maniac")


def test_H8_only_the_move_in_force_counts() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+2h", "Ман", "kill Г2")  # replaces Г1
    g.pm("night 1", "+2h", "Док", "heal Г2")
    ring(g, "day 2")
    first = g.pm("night 2", "+1h", "Ман", "kill Г1")
    r = g.run("night 2", "+12h")
    assert pm_after(r, "Ман", first) == ["Accepted: shot. Target — Г1."]
    assert r.died("Г1") == ("night 2", "maniac")


def test_H8_the_ban_lasts_one_night() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    ring(g, "day 2")  # night 2: no maniac move
    ring(g, "day 3")
    ok = g.pm("night 3", "+1h", "Ман", "kill Г1")
    r = g.run("night 3", "+12h")
    assert pm_after(r, "Ман", ok) == ["Accepted: shot. Target — Г1."]
    assert r.died("Г1") == ("night 3", "maniac")


# ================================================================================================ H-9


def test_H9_heal_saves_from_the_mafia() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    r = g.run("night 1", "+12h")
    assert r.alive("Г1")


def test_H9_heal_saves_from_the_maniac() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "Г1")  # bare nickname: his only non-hunt move
    r = g.run("night 1", "+12h")
    assert r.alive("Г1")


def test_H9_heal_saves_from_both_shots_at_once() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    r = g.run("night 1", "+12h")
    assert r.alive("Г1")


def test_H9_heal_does_not_stop_a_hunt() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Ф1")
    g.pm("night 1", "+1h", "Г2", "hunt Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "hunt")


def test_H9_self_heal() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Док")
    g.pm("night 1", "+1h", "Док", "heal Док")
    r = g.run("night 1", "+12h")
    assert r.alive("Док")


def test_H9_heal_of_someone_else_does_not_protect_the_doctor() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Док")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Док") == ("night 1", "mafia")


def test_H9_latest_heal_counts() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    g.pm("night 1", "+2h", "Док", "heal Г2")
    g.pm("night 1", "+3h", "Ф1", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Г1") == ("night 1", "mafia")


def test_H9_only_the_doctor_heals() -> None:
    g = fh()
    ring(g, "day 1")
    m = g.pm("night 1", "+1h", "Г2", "heal Г1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    r = g.run("night 1", "+12h")
    assert "no such move" in pm_after(r, "Г2", m)[0]
    assert r.died("Г1") == ("night 1", "mafia")


# ================================================================================================ H-10


def test_H10_status_defaults_to_mafia() -> None:
    g = fh()
    ring(g, "day 1")
    m = g.pm("night 1", "+1h", "Г1", "охота Ман")  # the Maniac is not mafia: a wrong guess
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Г1", m) == ["Accepted: hunt. Target — Ман, status — mafia."]
    assert r.died("Г1") == ("night 1", "failed_hunt") and r.alive("Ман")


@pytest.mark.parametrize("status, right", [
    ("маф", "Ф1"), ("мафия", "Ф1"), ("mafia", "Ф1"), ("маньяк", "Ман"), ("maniac", "Ман"),
])
def test_H10_status_words(status: str, right: str) -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", f"hunt {right} {status}")
    r = g.run("night 1", "+12h")
    assert r.died(right) == ("night 1", "hunt")


def test_H10_the_doctor_may_hunt() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "hunt Ф2")
    r = g.run("night 1", "+12h")
    assert r.died("Ф2") == ("night 1", "hunt")


@pytest.mark.parametrize("who", ["Ф1", "Ман"])
def test_H10_bad_players_may_not_hunt(who: str) -> None:
    g = fh()
    ring(g, "day 1")
    m = g.pm("night 1", "+1h", who, "hunt Г1")
    r = g.run("night 1", "+12h")
    assert "no such move" in pm_after(r, who, m)[0]
    assert all(r.alive(n) for n in P)


def _lot_game(seed: int) -> Game:
    g = fh(seed=seed)
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Ф1")
    g.pm("night 1", "+1h", "Г2", "hunt Ф2")
    g.pm("night 1", "+1h", "Г3", "hunt Ф3")
    g.pm("night 1", "+1h", "Г4", "hunt Г5")  # a wrong one
    return g


def _hunt_deaths(r: Result) -> list[tuple[str, str]]:
    return sorted((n, r.died(n)[1]) for n in P if r.died(n) and r.died(n)[0] == "night 1")  # type: ignore[index]


def test_H10_one_request_is_drawn_by_lot_seeded_and_reproducible() -> None:
    outcomes = {}
    for seed in range(1, 25):
        a, b = _lot_game(seed).run("night 1", "+12h"), _lot_game(seed).run("night 1", "+12h")
        assert _hunt_deaths(a) == _hunt_deaths(b)
        assert a.run.log == b.run.log and a.keys() == b.keys()
        deaths = _hunt_deaths(a)
        assert len(deaths) == 1  # one request only
        assert any("hunt drawn among 4" in line for line in a.run.log)
        outcomes[seed] = deaths[0]
    # the lot really draws: every request wins for some seed
    assert set(outcomes.values()) == {("Ф1", "hunt"), ("Ф2", "hunt"), ("Ф3", "hunt"), ("Г4", "failed_hunt")}


def test_H10_a_hunters_latest_request_counts() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Г2")
    g.pm("night 1", "+2h", "Г1", "hunt Ф3")
    r = g.run("night 1", "+12h")
    assert r.died("Ф3") == ("night 1", "hunt") and r.alive("Г1")


def test_H10_a_request_sent_by_day_is_for_that_night() -> None:
    g = fh()
    g.pm("day 1", "+3h", "Г1", "hunt Ф3")
    ring(g, "day 1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф3") == ("night 1", "hunt")


def _doctor_lot(seed: int) -> Game:
    g = fh(seed=seed)
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Г5")
    g.pm("night 1", "+1h", "Док", "hunt Ф1")
    g.pm("night 1", "+1h", "Г1", "hunt Ф2")
    g.pm("night 1", "+1h", "Ф3", "kill Г5")
    return g


def test_H10_a_doctor_whose_request_was_accepted_cannot_heal_even_if_another_is_drawn() -> None:
    drawn_other = drawn_doctor = 0
    for seed in range(1, 20):
        r = _doctor_lot(seed).run("night 1", "+12h")
        assert r.died("Г5") == ("night 1", "mafia"), seed  # the heal did not happen
        if r.died("Ф2"):
            drawn_other += 1
        if r.died("Ф1"):
            drawn_doctor += 1
    assert drawn_other and drawn_doctor


def test_H10_a_doctors_request_void_at_night_end_does_not_cost_his_heal() -> None:
    """C-5: a request whose target is dead when the night resolves is no move, so the heal stands."""
    g = fh()
    g.pm("day 1", "+2h", "Док", "hunt Ф1")
    g.pm("day 1", "+2h", "Док", "heal Г5")
    lynch(g, "day 1", "Ф1")
    g.pm("night 1", "+1h", "Ф3", "kill Г5")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("day 1", "vote")
    assert r.alive("Г5")


def test_H10_a_doctor_without_a_request_heals() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Г5")
    g.pm("night 1", "+1h", "Г1", "hunt Ф2")
    g.pm("night 1", "+1h", "Ф3", "kill Г5")
    r = g.run("night 1", "+12h")
    assert r.alive("Г5")


def _endgame(g: Game) -> None:
    """Alive after setup: Ф1, Ман, Док, Г1, Г2 (town 3). Hunting open; one town death closes it."""
    modkill_in_setup(g, ["Ф2", "Ф3", "Г3", "Г4", "Г5", "Г6", "Г7"])


def test_H10_a_request_refused_under_H12_costs_the_doctor_nothing() -> None:
    g = fh()
    _endgame(g)
    lynch(g, "day 1", "Г2", ["Ф1", "Ман", "Док", "Г1", "Г2"])  # town 2 at night 1: hunting closed
    refused = g.pm("night 1", "+1h", "Док", "hunt Ф1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Г2") == ("day 1", "vote")
    assert "Hunting is closed" in pm_after(r, "Док", refused)[0]
    assert r.alive("Г1") and r.alive("Ф1")


# ================================================================================================ H-11


@pytest.mark.parametrize("target, status, dies", [
    ("Ф1", "", "target"),
    ("Ф1", "mafia", "target"),
    ("Ф1", "maniac", "hunter"),
    ("Ман", "maniac", "target"),
    ("Ман", "mafia", "hunter"),
    ("Г2", "", "hunter"),
    ("Г2", "maniac", "hunter"),
    ("Док", "mafia", "hunter"),
])
def test_H11_right_guess_kills_the_target_wrong_guess_kills_the_hunter(target: str, status: str, dies: str) -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", f"hunt {target} {status}".strip())
    r = g.run("night 1", "+12h")
    if dies == "target":
        assert r.died(target) == ("night 1", "hunt") and r.alive("Г1")
    else:
        assert r.died("Г1") == ("night 1", "failed_hunt") and r.alive(target)


def test_H11_wrong_guess_kills_the_hunter_even_if_healed() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Г2")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Г1") == ("night 1", "failed_hunt")


def test_H11_hunter_kills_the_executor_no_mafia_shot() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г3 by Ф3")
    g.pm("night 1", "+1h", "Г1", "hunt Ф3")
    r = g.run("night 1", "+12h")
    assert r.died("Ф3") == ("night 1", "hunt") and r.alive("Г3")


def test_H11_hunter_kills_another_mafia_member_the_shot_happens() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г3 by Ф3")
    g.pm("night 1", "+1h", "Г1", "hunt Ф2")
    r = g.run("night 1", "+12h")
    assert r.died("Ф2") == ("night 1", "hunt") and r.died("Г3") == ("night 1", "mafia")


def test_H11_hunter_kills_the_maniac_no_maniac_shot() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г3")
    g.pm("night 1", "+1h", "Г1", "hunt Ман маньяк")
    r = g.run("night 1", "+12h")
    assert r.died("Ман") == ("night 1", "hunt") and r.alive("Г3")


def test_H11_a_failed_hunter_shot_by_the_mafia_dies_once_of_the_hunt() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Г2")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Г1") == ("night 1", "failed_hunt")
    assert "Mafia victim" not in night_post(r, 1)


# ================================================================================================ H-12


def test_H12_hunting_closed_at_two_town_refused_by_pm_at_once() -> None:
    g = fh()
    _endgame(g)
    lynch(g, "day 1", "Г2", ["Ф1", "Ман", "Док", "Г1", "Г2"])
    h = g.pm("night 1", "+1h", "Г1", "hunt Ф1")
    r = g.run("night 1", "+12h")
    msg = next(m for m in r.run.messages if m.key == f"pm/{h.id}")
    assert msg.to == "Г1" and msg.at == h.at and "Hunting is closed" in msg.text
    assert r.alive("Ф1") and r.alive("Г1")


def test_H12_hunting_open_at_three_town() -> None:
    g = fh()
    _endgame(g)
    ring(g, "day 1", ["Ф1", "Ман", "Док", "Г1", "Г2"])
    g.pm("night 1", "+1h", "Г1", "hunt Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "hunt")


def test_H12_a_request_sent_by_day_is_dropped_when_the_night_opens_closed() -> None:
    g = fh()
    _endgame(g)
    early = g.pm("day 1", "+2h", "Г1", "hunt Ф1")  # three town alive: accepted for now
    lynch(g, "day 1", "Г2", ["Ф1", "Ман", "Док", "Г1", "Г2"])
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Г1", early)[0].startswith("Accepted")
    assert any("Hunting is closed" in t for t in r.pms("Г1")[1:])
    assert r.alive("Ф1") and r.alive("Г1")


def test_H12_a_request_sent_by_day_when_already_closed_is_refused_at_once() -> None:
    g = fh()
    _endgame(g)
    lynch(g, "day 1", "Г2", ["Ф1", "Ман", "Док", "Г1", "Г2"])
    ring(g, "day 2", ["Ф1", "Ман", "Док", "Г1"])
    h = g.pm("day 2", "+2h", "Г1", "hunt Ф1")
    r = g.run("night 2", "+12h")
    assert "Hunting is closed" in pm_after(r, "Г1", h)[0]
    assert r.alive("Ф1")


def test_H12_hunting_stays_open_all_night_once_opened() -> None:
    """Closed "from the moment a night opens": a town death by modkill during the night does not close it."""
    g = fh()
    _endgame(g)
    ring(g, "day 1", ["Ф1", "Ман", "Док", "Г1", "Г2"])
    g.gm("night 1", "+1h", "modkill Г2")
    g.pm("night 1", "+2h", "Г1", "hunt Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "hunt")


# ================================================================================================ H-13


def test_H13_hunt_then_doctor_then_mafia_then_maniac_in_the_announcement() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г5")
    g.pm("night 1", "+1h", "Ф1", "kill Г4")
    g.pm("night 1", "+1h", "Г1", "hunt Ф2")
    r = g.run("night 1", "+12h")
    post = night_post(r, 1)
    assert post.index("Ф2") < post.index("Г4") < post.index("Г5")


def test_H13_the_maniac_shot_by_the_mafia_does_not_shoot() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Ман")
    g.pm("night 1", "+1h", "Ман", "kill Г2")
    r = g.run("night 1", "+12h")
    assert r.died("Ман") == ("night 1", "mafia") and r.alive("Г2")


def test_H13_the_maniac_shoots_the_mafia_executor_only_after_the_mafia_shot() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г2")
    g.pm("night 1", "+1h", "Ман", "kill Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Г2") == ("night 1", "mafia") and r.died("Ф1") == ("night 1", "maniac")


def test_H13_a_doctor_shot_by_the_mafia_still_protected_his_patient_from_the_maniac() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Г3")
    g.pm("night 1", "+1h", "Ф1", "kill Док")
    g.pm("night 1", "+1h", "Ман", "kill Г3")
    r = g.run("night 1", "+12h")
    assert r.died("Док") == ("night 1", "mafia") and r.alive("Г3")


def test_H13_a_hunter_shot_by_the_mafia_still_hunted() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Ф1")
    g.pm("night 1", "+1h", "Ф2", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "hunt") and r.died("Г1") == ("night 1", "mafia")


def test_H13_the_maniacs_target_killed_by_the_mafia_dies_once() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г2")
    g.pm("night 1", "+1h", "Ман", "kill Г2")
    r = g.run("night 1", "+12h")
    assert r.died("Г2") == ("night 1", "mafia")
    assert "Maniac victim" not in night_post(r, 1)


def test_H13_the_doctor_killed_on_a_failed_hunt_heals_nobody() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "hunt Г2")
    g.pm("night 1", "+1h", "Ф1", "kill Г4")
    r = g.run("night 1", "+12h")
    assert r.died("Док") == ("night 1", "failed_hunt") and r.died("Г4") == ("night 1", "mafia")


def test_H13_the_healed_doctor_shot_by_both_survives() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Док", "heal Док")
    g.pm("night 1", "+1h", "Ф1", "kill Док")
    g.pm("night 1", "+1h", "Ман", "kill Док")
    r = g.run("night 1", "+12h")
    assert r.alive("Док")


# ================================================================================================ H-14


def test_H14_draw_when_nobody_is_alive() -> None:
    g = fh()
    r = g.run("day 1", "+24h")  # nobody votes: everybody is autokilled
    assert all(r.died(n) == ("day 1", "autokill") for n in P)
    assert r.winner == "draw"


def test_H14_town_wins_when_no_mafia_and_no_maniac() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф2", "Ф3", "Ман"])
    lynch(g, "day 1", "Ф1", alive_after(g, ["Ф2", "Ф3", "Ман"]))
    r = g.run("day 1", "+24h")
    assert r.winner == "town"
    assert r.run.result.ended_at == g.at("day 1", "+24h")


def test_H14_no_town_win_while_the_maniac_lives() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф2", "Ф3"])
    lynch(g, "day 1", "Ф1", alive_after(g, ["Ф2", "Ф3"]))
    r = g.run("day 1", "+24h")
    assert r.winner is None and r.run.phase == "night 1"


def test_H14_town_wins_by_a_night_hunt() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф1", "Ф2", "Ф3"])
    ring(g, "day 1", alive_after(g, ["Ф1", "Ф2", "Ф3"]))
    g.pm("night 1", "+1h", "Г1", "hunt Ман маньяк")
    r = g.run("night 1", "+12h")
    assert r.winner == "town"


def test_H14_maniac_wins_with_at_most_one_other() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф2", "Ф3", "Док", "Г3", "Г4", "Г5", "Г6", "Г7"])  # Ф1 Ман Г1 Г2
    lynch(g, "day 1", "Ф1", ["Ф1", "Ман", "Г1", "Г2"])
    r = g.run("day 1", "+24h")
    assert r.winner is None  # the maniac and two others
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.winner == "maniac"


def test_H14_maniac_does_not_win_while_mafia_lives() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф2", "Ф3", "Док", "Г2", "Г3", "Г4", "Г5", "Г6", "Г7"])  # Ф1 Ман Г1
    ring(g, "day 1", ["Ф1", "Ман", "Г1"])
    r = g.run("day 1", "+24h")
    assert r.winner is None
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    r = g.run("night 1", "+12h")
    assert r.winner is None  # Ф1 and Ман only: the stalemate rule applies


def test_H14_mafia_wins_at_parity_once_the_maniac_is_dead() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф3", "Г3", "Г4", "Г5", "Г6", "Г7"])  # Ф1 Ф2 Док Ман Г1 Г2: mafia 2, town 3
    ring(g, "day 1", ["Ф1", "Ф2", "Док", "Ман", "Г1", "Г2"])
    g.pm("night 1", "+1h", "Ф1", "kill Ман")
    r = g.run("night 1", "+12h")
    assert r.winner is None  # 2 mafia, 3 town
    lynch(g, "day 2", "Г2", ["Ф1", "Ф2", "Док", "Г1", "Г2"])
    r = g.run("day 2", "+24h")
    assert r.winner == "mafia"  # 2 mafia, 2 town


def test_H14_no_mafia_win_at_parity_while_the_maniac_lives() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф3", "Г2", "Г3", "Г4", "Г5", "Г6", "Г7"])  # Ф1 Ф2 Док Ман Г1: mafia 2, town 2
    r = g.run("day 1", "+1h")
    assert r.winner is None


def test_H14_mafia_parity_in_a_game_without_maniac() -> None:
    g = fh(options={"maniac": False})
    g.cast = [(n, None) for n in P]
    r = g.run("setup", "+0h")
    mafia = [p.nick for p in r.run.result.players if p.role is Role.MAFIA]
    town = [p.nick for p in r.run.result.players if p.role is not Role.MAFIA]
    assert len(mafia) == 3 and not any(p.role is Role.MANIAC for p in r.run.result.players)
    modkill_in_setup(g, town[:6])  # 3 mafia, 3 town: mafia wins at once (C-7, after a modkill)
    r = g.run("setup", "+0h")
    assert r.winner == "mafia"


def test_H14_only_mafia_and_maniac_a_quiet_day_and_night_is_a_draw() -> None:
    g = fh()
    modkill_in_setup(g, TOWN)  # Ф1 Ф2 Ф3 Ман
    ring(g, "day 1", ["Ф1", "Ф2", "Ф3", "Ман"])  # a 4-way tie
    r = g.run("day 1", "+24h")
    assert r.winner is None
    r = g.run("night 1", "+12h")
    assert r.winner == "draw"
    assert r.run.result.ended_at == g.at("night 1", "+12h")


def test_H14_a_death_restarts_the_stalemate_count() -> None:
    g = fh()
    modkill_in_setup(g, TOWN)
    ring(g, "day 1", ["Ф1", "Ф2", "Ф3", "Ман"])
    g.pm("night 1", "+1h", "Ман", "kill Ф1")  # a death: not yet a draw
    ring(g, "day 2", ["Ф2", "Ф3", "Ман"])
    r = g.run("night 1", "+12h")
    assert r.winner is None and r.died("Ф1") == ("night 1", "maniac")
    r = g.run("night 2", "+12h")
    assert r.winner == "draw" and r.run.result.ended_at == g.at("night 2", "+12h")


def test_H14_a_quiet_night_after_a_deadly_day_is_not_yet_a_draw() -> None:
    g = fh()
    modkill_in_setup(g, TOWN[:-1])  # Ф1 Ф2 Ф3 Ман Г7
    lynch(g, "day 1", "Г7", ["Ф1", "Ф2", "Ф3", "Ман", "Г7"])  # now only bad players
    r = g.run("night 1", "+12h")
    assert r.winner is None
    ring(g, "day 2", ["Ф1", "Ф2", "Ф3", "Ман"])
    r = g.run("night 2", "+12h")
    assert r.winner == "draw"


def test_H14_the_game_over_post_names_the_winner_and_every_role() -> None:
    g = fh()
    modkill_in_setup(g, ["Ф2", "Ф3", "Ман"])
    lynch(g, "day 1", "Ф1", alive_after(g, ["Ф2", "Ф3", "Ман"]))
    r = g.run("day 1", "+24h")
    post = next(plain(m.text) for m in r.run.messages if m.key == "ended/result")
    assert "town wins" in post
    for nick, role in HUNT_CAST:
        assert nick in post
    assert r.run.phase == "ended" and r.run.next_deadline is None


# ================================================================================================ H-15


def test_H15_a_failed_hunt_never_names_the_target() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Г6")
    r = g.run("night 1", "+12h")
    post = night_post(r, 1)
    assert "Г1" in post and "Г6" not in post
    after = [m for m in r.run.messages if m.at >= g.at("night 1", "+12h") and m.where != "pm"]
    shown = [night_post(r, 1) if m.key == "night 1/result" else plain(m.text) for m in after if not m.key.endswith("/opens")]
    assert not any("Г6" in text for text in shown)  # the day's opening, posted with the results, lists the alive


def test_H15_the_drawn_request_is_never_revealed() -> None:
    for seed in range(1, 8):
        g = _lot_game(seed)
        r = g.run("night 1", "+12h")
        post = night_post(r, 1)
        dead = _hunt_deaths(r)[0]
        if dead[1] == "hunt":
            # the hunter stays unnamed; neither are the other requesters or their targets
            assert not any(h in post for h in ("Г1", "Г2", "Г3", "Г4", "Г5")), post
        else:
            assert "Г4" in post and "Г5" not in post
        # nobody is told by PM whose request was drawn; the one who died is told he is out, as the post says
        night_end = g.at("night 1", "+12h")
        told = [m for m in r.run.messages if m.where == "pm" and m.at == night_end and m.to != "ГМ"]
        assert [(m.key, m.to) for m in told] == [(f"night 1/out/{dead[0]}", dead[0])], told


def test_H15_a_successful_hunt_names_only_the_victim() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Г1", "hunt Ф2")
    r = g.run("night 1", "+12h")
    post = night_post(r, 1)
    assert "Ф2" in post and "Г1" not in post


def test_H15_the_heal_is_never_announced_by_name() -> None:
    g = fh()
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф1", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    r = g.run("night 1", "+12h")
    post = night_post(r, 1)
    assert "Г1" not in post and "Док" not in post
