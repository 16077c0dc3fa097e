"""S-6: the season's standings, recomputed from its finished games alone.

The formula on small games computed by hand (rules/standings.py); what a folded game gives it (games/season.py:
modkills, autokills, replacements, a stopped or running game); `forumbot season standings` over export files,
the same bytes every time, in text, JSON and CSV; the season index that ranks the players, and what it never
shows."""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamekit import Game  # noqa: E402

from forumbot.cli.main import main  # noqa: E402
from forumbot.games.season import as_json, outcome  # noqa: E402
from forumbot.model import Team  # noqa: E402
from forumbot.pages.output import write_site  # noqa: E402
from forumbot.rules.standings import GameOutcome, SeatOutcome, standings  # noqa: E402

UTC = timezone.utc
T0 = datetime(2026, 9, 1, tzinfo=UTC)
TOWN, MAFIA, MANIAC = Team.TOWN, Team.MAFIA, Team.MANIAC


def played(name: str, days: int, winner: str, *seats: SeatOutcome, length: int = 2) -> GameOutcome:
    """A game that started `days` after T0 and ended `length` days later."""
    start = T0 + timedelta(days=days)
    return GameOutcome(name, start, start + timedelta(days=length), winner, seats)


def seat(nick: str, side: Team, survived: bool = True, **kw) -> SeatOutcome:  # type: ignore[no-untyped-def]
    return SeatOutcome(nick, side, survived, **kw)


def ratings(games: list[GameOutcome]) -> dict[str, Decimal]:
    return {r.nick: r.rating for r in standings(games)}


FIRST = played("first", 0, "town", seat("A", TOWN), seat("B", TOWN), seat("C", MAFIA, False))


# --- the formula, by hand ---------------------------------------------------------------------------------------


def test_s6_everyone_starts_at_1500_and_moves_by_k_times_s_minus_e() -> None:
    # equal ratings: E = 0.5 for every side; K = 20 gives ±10
    assert ratings([FIRST]) == {"A": Decimal("1510.0"), "B": Decimal("1510.0"), "C": Decimal("1490.0")}


def test_s6_two_games_use_the_mean_ratings_at_the_second_games_start() -> None:
    second = played("second", 3, "mafia", seat("A", TOWN), seat("C", TOWN), seat("B", MAFIA))
    # town's mean (1510 + 1490) / 2 = 1500 against B's 1510: E_town = 1 / (1 + 10^(10/400)) = 0.48561...
    # A: 1510 + 20 × (0 − 0.48561) = 1500.2877; C: 1490 − 9.7123 = 1480.2877; B: 1510 + 20 × 0.48561 = 1519.7123
    assert ratings([FIRST, second]) == {"B": Decimal("1519.7"), "A": Decimal("1500.3"), "C": Decimal("1480.3")}
    assert ratings([second, FIRST]) == ratings([FIRST, second])  # in the order they ended, whatever was given


def test_s6_a_draw_scores_half_to_each_side() -> None:
    draw = played("draw", 3, "draw", seat("A", TOWN), seat("B", TOWN), seat("C", MAFIA))
    # town 1510 against mafia 1490: E_town = 1 / (1 + 10^(−20/400)) = 0.52875; 20 × (0.5 − 0.52875) = −0.575
    assert ratings([FIRST, draw]) == {"A": Decimal("1509.4"), "B": Decimal("1509.4"), "C": Decimal("1490.6")}
    assert ratings([played("even", 0, "draw", seat("A", TOWN), seat("C", MAFIA))]) == {
        "A": Decimal("1500.0"), "C": Decimal("1500.0")}


def test_s6_the_maniac_is_a_side_of_his_own() -> None:
    first = played("first", 0, "town", seat("A", TOWN), seat("B", TOWN), seat("D", TOWN), seat("C", MAFIA))
    maniac = played("maniac", 3, "maniac", seat("A", TOWN), seat("B", TOWN), seat("C", MAFIA), seat("D", MANIAC))
    # D (1510) alone against the mean of A, B, C = (1510 + 1510 + 1490) / 3: E = 0.50959, +20 × 0.49041 = +9.808
    # (with the mafia as his side, (1490 + 1510) / 2 against 1510, he would gain 10.288: 1520.3)
    # C: 1490 against A, B, D's 1510: E = 0.47125, −9.425; A: (1510, 1510) against (1490, 1510): E = 0.51439, −10.288
    assert ratings([first, maniac]) == {"D": Decimal("1519.8"), "A": Decimal("1499.7"), "B": Decimal("1499.7"),
                                        "C": Decimal("1480.6")}
    row = {r.nick: r for r in standings([first, maniac])}["D"]
    assert (row.sides[MANIAC].games, row.sides[MANIAC].wins, row.sides[TOWN].wins) == (1, 1, 1)


def test_s6_a_modkilled_or_autokilled_player_scores_zero_whatever_his_side_did() -> None:
    game = played("g", 0, "town", seat("A", TOWN, False, modkilled=True, forfeited=True),
                  seat("B", TOWN, False, forfeited=True), seat("E", TOWN), seat("C", MAFIA, False))
    rows = {r.nick: r for r in standings([game])}
    assert (rows["A"].rating, rows["A"].wins, rows["A"].modkills, rows["A"].survived) == (Decimal("1490.0"), 0, 1, 0)
    assert (rows["B"].rating, rows["B"].wins, rows["B"].modkills) == (Decimal("1490.0"), 0, 0)
    assert (rows["E"].rating, rows["E"].wins, rows["E"].survived) == (Decimal("1510.0"), 1, 1)
    assert rows["C"].rating == Decimal("1490.0")


def test_s6_ratings_at_a_games_start_leave_out_a_game_that_ended_after_it_started() -> None:
    early = played("early", 0, "town", seat("A", TOWN), seat("C", MAFIA), length=5)
    overlapping = played("overlapping", 2, "town", seat("A", TOWN), seat("C", MAFIA), length=5)
    # when `overlapping` started nobody had a rating yet: E = 0.5 again, +10 / −10 on top of `early`'s
    assert ratings([early, overlapping]) == {"A": Decimal("1520.0"), "C": Decimal("1480.0")}
    later = played("later", 6, "town", seat("A", TOWN), seat("C", MAFIA))
    assert ratings([early, later])["A"] < Decimal("1520.0")  # started after `early` ended: A was favoured


def test_s6_ties_are_ordered_by_nickname_and_share_a_place() -> None:
    game = played("g", 0, "town", seat("яша", TOWN), seat("Боря", TOWN), seat("аня", TOWN), seat("Zed", MAFIA),
                  seat("Max", MAFIA))
    rows = standings([game])
    assert [(r.place, r.nick) for r in rows] == [(1, "аня"), (1, "Боря"), (1, "яша"), (4, "Max"), (4, "Zed")]


def test_s6_win_share_per_side_games_and_what_each_row_links() -> None:
    second = played("second", 3, "mafia", seat("A", TOWN), seat("C", TOWN), seat("B", MAFIA))
    row = {r.nick: r for r in standings([second, FIRST])}["B"]
    assert (row.games, row.wins, row.played) == (2, 2, ("first", "second"))
    assert (row.sides[TOWN].share, row.sides[MAFIA].share, row.sides[MANIAC].share) == (
        Decimal("1.00"), Decimal("1.00"), None)


# --- a folded game as S-6 reads it ------------------------------------------------------------------------------


def _town_wins(g: Game, phase: str = "day 2") -> None:
    for nick in ("Маф1", "Маф2", "Дон"):  # C-7: the win check runs after each modkill
        g.gm(phase, "+1h", f"модкилл {nick}")


def test_s6_outcome_a_modkill_scores_zero_though_his_side_won() -> None:
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М1")
    _town_wins(g)
    r = g.run("day 2", "+3h")
    assert r.winner == "town"
    game = outcome("g", g.setup(), r.run, stopped=False)
    assert game is not None and game.winner == "town"
    seats = {s.nick: s for s in game.seats}
    assert seats["М1"] == SeatOutcome("М1", TOWN, False, modkilled=True, forfeited=True)
    assert seats["М2"] == SeatOutcome("М2", TOWN, True)
    assert seats["Маф1"].modkilled and seats["Маф1"].side is MAFIA
    rows = {row.nick: row for row in standings([game])}
    assert rows["М1"].wins == 0 and rows["М1"].rating < 1500 < rows["М2"].rating


def test_s6_outcome_a_replaced_player_is_not_rated_his_replacement_is() -> None:
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М2 Новичок")
    _town_wins(g)
    game = outcome("g", g.setup(), g.run("day 2", "+3h").run, stopped=False)
    assert game is not None
    nicks = {s.nick for s in game.seats}
    assert "М2" not in nicks and "Новичок" in nicks
    assert "М2" not in {r.nick for r in standings([game])}


def test_s6_outcome_an_autokill_for_a_missed_vote_scores_zero_one_for_agitation_does_not() -> None:
    g = Game.free_hunt()
    voters = ["Ф1", "Ф2", "Ф3", "Док", "Ман", "Г1", "Г2", "Г3", "Г4", "Г5"]
    g.votes("day 1", {v: "Г1" if v != "Г1" else "Г2" for v in voters})
    g.vote("day 1", "+2h", "Г6", "голосуем за Ф1")
    g.vote("day 1", "+3h", "Г6", "давайте Ф1")  # H-4: a second agitation autokills
    # Г7 writes nothing: H-5's no-show
    for nick in ("Ф1", "Ф2", "Ф3", "Ман"):
        g.gm("day 2", "+1h", f"модкилл {nick}")
    r = g.run("day 2", "+3h")
    assert r.died("Г6") == ("day 1", "autokill") and r.died("Г7") == ("day 1", "autokill")
    assert r.winner == "town"
    seats = {s.nick: s for s in outcome("g", g.setup(), r.run, stopped=False).seats}  # type: ignore[union-attr]
    assert seats["Г7"].forfeited and not seats["Г7"].modkilled
    assert not seats["Г6"].forfeited


def test_s6_a_stopped_or_running_game_counts_for_nothing() -> None:
    g = Game.moscow()
    running = g.run("day 2", "+3h")
    assert running.winner is None and outcome("g", g.setup(), running.run, stopped=False) is None
    _town_wins(g)
    ended = g.run("day 2", "+3h")
    assert outcome("g", g.setup(), ended.run, stopped=False) is not None
    assert outcome("g", g.setup(), ended.run, stopped=True) is None


# --- the command and the page, from export files -----------------------------------------------------------------


def export(g: Game, name: str, phase: str, offset: str, stopped: bool = False) -> dict:
    """The game as `game export` writes it (the fields the standings need), folded up to `phase` + `offset`."""
    setup, at = g.setup(), g.at(phase, offset)
    doc = {"game": name, "variant": setup.variant, "seed": setup.seed, "timezone": setup.schedule.timezone,
           "start": setup.schedule.start.isoformat(), "language": setup.language, "bot": setup.bot,
           "gms": list(setup.gms), "until": at.isoformat(),
           "players": [{"nick": p.nick, "role": str(p.role)} for p in setup.players],
           "events": [{"at": i.at.isoformat(), "where": str(i.where), "from": i.author, "text": i.text}
                      for i in g.events]}
    if stopped:
        doc["stopped"] = {"at": at.isoformat(), "reason": ""}
    return doc


def _season(folder: Path) -> list[Path]:
    """Two finished games, one stopped and one running, as export files in `folder`."""
    folder.mkdir(exist_ok=True)
    first = Game.moscow()
    first.gm("day 1", "+1h", "модкилл М1")
    _town_wins(first)
    second = Game("moscow", [("Дон" if n == "М3" else "М3" if n == "Дон" else n, r) for n, r in Game.moscow().cast])
    for nick in ("Маф1", "Маф2", "М3"):  # М3 is the Don now: the mafia of the second game
        second.gm("day 1", "+1h", f"модкилл {nick}")
    stopped = Game("moscow", [("Стоп" + n, r) for n, r in Game.moscow().cast])
    for nick in ("СтопМаф1", "СтопМаф2", "СтопДон"):  # a winner before `game stop` ran: it counts for nothing
        stopped.gm("day 1", "+1h", f"модкилл {nick}")
    running = Game("moscow", [("КАНАРЕЙКА" if n == "Дон" else n, r) for n, r in Game.moscow().cast])
    docs = {"autumn": export(first, "autumn", "day 2", "+3h"), "winter": export(second, "winter", "day 1", "+3h"),
            "stopped": export(stopped, "stopped", "day 1", "+3h", stopped=True),
            "spring": export(running, "spring", "day 1", "+3h")}
    # the second game starts when the first has ended (a season plays one game after another)
    winter = docs["winter"]
    shift = timedelta(days=5)
    winter["start"] = (datetime.fromisoformat(winter["start"]) + shift).isoformat()
    winter["until"] = (datetime.fromisoformat(winter["until"]) + shift).isoformat()
    for e in winter["events"]:
        e["at"] = (datetime.fromisoformat(e["at"]) + shift).isoformat()
    paths = []
    for name, doc in docs.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def _cli(capsys, *args: str) -> str:  # type: ignore[no-untyped-def]
    assert main(["season", "standings", *args]) == 0
    return capsys.readouterr().out


def test_s6_the_command_ranks_the_finished_games_only_the_same_bytes_every_time(tmp_path, capsys) -> None:
    paths = _season(tmp_path)
    text = _cli(capsys, "--exports", *map(str, paths))
    assert text.startswith("2 finished game(s): autumn, winter\n")
    assert "КАНАРЕЙКА" not in text and "Стоп" not in text  # a running and a stopped game count for nothing
    assert _cli(capsys, "--exports", *map(str, reversed(paths))) == text
    assert _cli(capsys, "--exports", str(tmp_path)) == text  # a folder: every *.json in it
    doc = _cli(capsys, "--json", "--exports", str(tmp_path))
    assert _cli(capsys, "--json", "--exports", *map(str, reversed(paths))) == doc
    parsed = json.loads(doc)
    assert [g["game"] for g in parsed["games"]] == ["autumn", "winter"]
    rows = {r["nick"]: r for r in parsed["standings"]}
    # М1: modkilled in autumn (S = 0, town won), town again in winter (won): 1490, then town's mean is below
    # the mafia's, so he gains more than 10
    assert rows["М1"]["modkills"] == 1 and rows["М1"]["games"] == 2 and rows["М1"]["wins"] == 1
    assert rows["М1"]["sides"]["town"] == {"games": 2, "wins": 1, "share": "0.50"}
    assert rows["М3"]["sides"]["mafia"] == {"games": 1, "wins": 0, "share": "0.00"}
    assert rows["М2"]["played"] == ["autumn", "winter"]
    assert [r["rating"] for r in parsed["standings"]] == sorted((r["rating"] for r in parsed["standings"]),
                                                                  key=Decimal, reverse=True)


def test_s6_csv_one_row_per_player_with_the_columns(tmp_path, capsys) -> None:
    paths = _season(tmp_path)
    out = _cli(capsys, "--csv", "--exports", *map(str, paths))
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["place", "nick", "rating", "games", "wins", "town", "mafia", "maniac", "survived", "modkills"]
    doc = json.loads(_cli(capsys, "--json", "--exports", *map(str, paths)))
    assert [r[1] for r in rows[1:]] == [r["nick"] for r in doc["standings"]]
    m1 = next(r for r in rows if r[1] == "М1")
    assert m1[5:8] == ["50% (1/2)", "-", "-"] and m1[9] == "1"


def test_s6_a_game_given_twice_is_refused(tmp_path, capsys) -> None:
    paths = _season(tmp_path)
    assert main(["season", "standings", "--exports", str(paths[0]), str(paths[0])]) == 2
    assert "given twice" in capsys.readouterr().err


def test_s6_the_season_index_ranks_players_and_links_their_games(tmp_path, capsys) -> None:
    paths = _season(tmp_path / "exports")
    site = tmp_path / "site"
    for path in paths[:2]:  # the two finished games' own pages
        assert main(["replay", str(path), "--pages", str(site)]) == 0
    capsys.readouterr()
    _cli(capsys, "--exports", *map(str, paths), "--pages", str(site))
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Рейтинг сезона" in index
    row = next(line for line in index.splitlines() if "<bdi>М2</bdi></th>" in line)
    assert '<a href="autumn/index.html"><bdi>autumn</bdi></a>, <a href="winter/index.html">' in row
    before = index
    # a game's pages written again (a tick) keep the standings on the index: they are read from the folder
    assert main(["replay", str(paths[0]), "--pages", str(site)]) == 0
    assert (site / "index.html").read_text(encoding="utf-8") == before
    order = [line.split("<bdi>")[1].split("</bdi>")[0] for line in index.splitlines()
             if line.startswith("<tr><td>") and '<th scope="row">' in line]
    doc = json.loads((site / "standings.json").read_text(encoding="utf-8"))
    assert order == [r["nick"] for r in doc["standings"]]


def test_s6_privacy_canary_the_season_page_shows_no_running_or_stopped_game(tmp_path, capsys) -> None:
    paths = _season(tmp_path / "exports")
    site = tmp_path / "site"
    _cli(capsys, "--exports", *map(str, paths), "--pages", str(site))
    public = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.is_file())
    assert "<bdi>М2</bdi>" in public  # the page does rank the finished games' players: the test could fail
    for hidden in ("КАНАРЕЙКА", "spring", "Стоп", "stopped"):
        assert hidden not in public, hidden


def test_s6_the_index_without_standings_is_the_games_alone(tmp_path) -> None:
    written = write_site(tmp_path, {"x/game.json": json.dumps({"game": "x", "phase": "day 1"}).encode()})
    assert "index.html" in written
    assert "Рейтинг сезона" not in (tmp_path / "index.html").read_text(encoding="utf-8")
    (tmp_path / "standings.json").write_text("{not json", encoding="utf-8")
    write_site(tmp_path, {})
    assert "Рейтинг сезона" not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_s6_a_bad_export_is_named_and_nothing_is_printed(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"variant": "moscow"', encoding="utf-8")
    assert main(["season", "standings", "--exports", str(bad)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "bad.json: not valid JSON" in out.err


def test_s6_a_hostile_nickname_stays_text_on_the_season_index(tmp_path) -> None:
    game = played("g", 0, "town", seat("<script>x</script>", TOWN), seat("=cmd|' /C calc'!A0", MAFIA))
    rows = standings([game])
    write_site(tmp_path, {"standings.json": as_json(rows, [game]).encode()})
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in index and "<bdi>&lt;script&gt;x&lt;/script&gt;</bdi>" in index
