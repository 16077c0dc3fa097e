"""House rules (RULES.md section R, issue 12): each option changes what the game does, through the engine.

Every test runs the same story with and without the option, so an option that is ignored fails it.
Kit casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6; Free Hunt Ф1..Ф3, Док, Ман, Г1..Г7.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import HUNT_CAST, MOSCOW_CAST, Game, plain  # noqa: E402

from forumbot.errors import SetupError  # noqa: E402
from forumbot.model import Role  # noqa: E402
from forumbot.options import option_problems  # noqa: E402
from forumbot.rules import Seat, get_variant  # noqa: E402
from forumbot.rules.house import configure  # noqa: E402

MOSCOW = [n for n, _ in MOSCOW_CAST]
HUNT = [n for n, _ in HUNT_CAST]


def day_result(r, n: int = 1) -> str:
    """The day's posts as a player reads them, list bullets and the bot's bold tags left out."""
    text = "\n".join(plain(m.text) for m in r.run.messages if m.key in (f"day {n}/result", f"runoff {n}/result"))
    return "\n".join(line.removeprefix("- ").removeprefix("• ") for line in text.splitlines())


def hunt_day(options: dict, ballots: dict[str, str]) -> object:
    g = Game.free_hunt(options=options)
    g.votes("day 1", ballots)
    return g.run("night 1", "+1m")


def everyone(names: list[str], target: str, other: str, **override: str) -> dict[str, str]:
    out = {n: (target if n != target else other) for n in names}
    out.update(override)
    return out


def test_R1_vote_changes_two_lets_the_third_vote_count():
    """R-1: with vote_changes = 2 a third vote counts; M-8's default keeps the second (issue 12)."""
    def story(options):
        g = Game.moscow(options=options)
        g.votes("day 1", everyone(MOSCOW, "Маф1", "Маф2"), offset="+1h")
        g.vote("day 1", "+2h", "М1", "Маф2")
        g.vote("day 1", "+3h", "М1", "Шериф")
        return g.run("night 1", "+1m")
    default, house = story({}), story({"vote_changes": 2})
    assert "М1" in [line for line in day_result(default).splitlines() if line.startswith("Маф2")][0]
    assert [line for line in day_result(house).splitlines() if line.startswith("Шериф")][0].endswith("М1 (L-5)")
    assert "Голос меняется до 2 раз" in day_result(house)
    assert "Голос меняется" not in day_result(default)


def test_R1_a_repeated_vote_is_no_change():
    """R-1: two consecutive votes for the same target are not a change (vote_changes = 1 set explicitly)."""
    g = Game.moscow(options={"vote_changes": 1})
    g.votes("day 1", everyone(MOSCOW, "Маф1", "Маф2"), offset="+1h")
    g.vote("day 1", "+2h", "М1", "Маф1")
    g.vote("day 1", "+3h", "М1", "Шериф")
    text = day_result(g.run("night 1", "+1m"))
    assert [line for line in text.splitlines() if line.startswith("Шериф")][0].endswith("М1 (L-5)")


def test_R1_unlimited_in_moscow():
    g = Game.moscow(options={"vote_changes": "unlimited"})
    g.votes("day 1", everyone(MOSCOW, "Маф1", "Маф2"), offset="+1h")
    for i, t in enumerate(["Маф2", "М2", "М3", "Шериф"]):
        g.vote("day 1", f"+{2 + i}h", "М1", t)
    assert [line for line in day_result(g.run("night 1", "+1m")).splitlines() if line.startswith("Шериф")][0].endswith(
        "М1 (L-5)")


def test_R2_final_word_locks_the_vote():
    """R-2: `Маф2 окончательно` locks М1's vote; his later post is no vote, and the count says why."""
    def story(options):
        g = Game.moscow(options=options)
        g.votes("day 1", everyone(MOSCOW, "Маф1", "Маф2", М1="М2"), offset="+1h")
        g.vote("day 1", "+2h", "М1", "Маф2 окончательно")
        g.vote("day 1", "+3h", "М1", "Шериф")
        return g.run("night 1", "+1m")
    house = day_result(story({"final_word": "окончательно"}))
    assert [line for line in house.splitlines() if line.startswith("Маф2")][0].endswith("М1 (L-4)")
    assert "голос уже окончательный" in house
    default = day_result(story({}))
    assert "голос уже окончательный" not in default


def test_R3_bold_only():
    """R-3: with vote_format = "bold" a plain nickname is no vote (`не выделен жирным`); a bold one counts."""
    def story(options):
        g = Game.moscow(options=options)
        ballots = {n: "[b]Маф1[/b]" for n in MOSCOW if n != "Маф1"}
        ballots["Маф1"] = "[b]Маф2[/b]"
        ballots["М1"] = "М2"
        g.votes("day 1", ballots)
        return g.run("night 1", "+1m")
    house = day_result(story({"vote_format": "bold"}))
    assert "не выделен жирным" in house and "Голос засчитывается только жирным" in house
    assert "М2 — 1 голос" not in house and "Маф1 — 8 голос" in house
    assert "М2 — 1 голос" in day_result(story({}))


def test_R3_html_bold_counts():
    g = Game.moscow(options={"vote_format": "bold"})
    g.votes("day 1", {n: "<strong>Маф1</strong>" if n != "Маф1" else "<b>Маф2</b>" for n in MOSCOW})
    assert "Маф1 — 9 голос" in day_result(g.run("night 1", "+1m"))


def test_R3_color_only():
    """R-3: vote_format = "color" with vote_colors: only those colours count."""
    g = Game.moscow(options={"vote_format": "color", "vote_colors": ["red", "Green"]})
    ballots = {n: "[color=red]Маф1[/color]" for n in MOSCOW if n != "Маф1"}
    ballots["Маф1"] = '<span style="color: green">Маф2</span>'
    ballots["М1"] = "[color=blue]М2[/color]"
    g.votes("day 1", ballots)
    text = day_result(g.run("night 1", "+1m"))
    assert "Маф1 — 8 голос" in text and "Маф2 — 1 голос" in text
    assert "не выделен цветом (red, green)" in text


def test_R4_pass_word_in_free_hunt_is_a_vote():
    """R-4: in Free Hunt "пас" is no vote (the player is autokilled, H-5) unless pass_words gives it."""
    ballots = everyone(HUNT, "Ф1", "Ф2", Г1="пас")
    default = hunt_day({}, ballots)
    assert default.died("Г1") == ("day 1", "autokill")
    house = hunt_day({"pass_words": ["пас"]}, ballots)
    assert house.alive("Г1") and house.died("Ф1") == ("day 1", "vote")


def test_R4_all_pass_in_free_hunt_hangs_nobody_and_autokills_nobody():
    r = hunt_day({"pass_words": ["пас"]}, {n: "пас" for n in HUNT})
    assert all(r.alive(n) for n in HUNT) and "Все голоса — ннв" in day_result(r)


def test_R4_pass_words_replace_nnv_in_moscow():
    g = Game.moscow(options={"pass_words": ["пас"]})
    g.votes("day 1", {n: "пас" for n in MOSCOW})
    assert "Все голоса — ннв" in day_result(g.run("night 1", "+1m"))
    g = Game.moscow(options={"pass_words": ["пас"]})
    g.votes("day 1", {n: "ннв" for n in MOSCOW})
    assert "Все голоса — ннв" not in day_result(g.run("night 1", "+1m"))


def test_R5_majority_needs_more_than_half_of_the_alive():
    """R-5: 4 of 10 votes lead; plurality hangs, majority hangs nobody."""
    ballots = {n: "Маф1" for n in MOSCOW[4:8]} | {n: "Маф2" for n in MOSCOW[8:10] + ["Маф1"]} | \
        {n: "ннв" for n in MOSCOW[:3]}
    def story(options):
        g = Game.moscow(options=options)
        g.votes("day 1", ballots)
        return g.run("night 1", "+1m")
    assert story({}).died("Маф1") == ("day 1", "vote")
    house = story({"lynch": "majority"})
    assert house.alive("Маф1") and "больше половины" in day_result(house)


@pytest.mark.parametrize("tie, dead", [("all", {"Маф1", "Маф2"}), ("nobody", set()), ("first_reached", {"Маф2"})])
def test_R6_tie(tie, dead):
    """R-6: a 5-5 tie: Moscow's default is a runoff; "all" hangs both, "nobody" none, "first_reached" the first to 5."""
    def story(options):
        g = Game.moscow(options=options)
        order = [("Шериф", "Маф2"), ("Дон", "Маф2"), ("Маф1", "Маф2"), ("М1", "Маф2"), ("М2", "Маф2"),
                 ("Маф2", "Маф1"), ("М3", "Маф1"), ("М4", "Маф1"), ("М5", "Маф1"), ("М6", "Маф1")]
        for i, (who, target) in enumerate(order):  # Маф1 reaches 5 last
            g.vote("day 1", f"+{i + 1}h", who, target)
        return g.run("night 1", "+1m")
    default = story({})
    assert any(m.key == "day 1/runoff" for m in default.run.messages)
    house = story({"tie": tie})
    assert not any(m.key == "day 1/runoff" for m in house.run.messages)
    assert {n for n in MOSCOW if house.died(n) == ("day 1", "vote")} == dead


def test_R6_runoff_refused_outside_moscow():
    assert option_problems("free_hunt", {"tie": "runoff"}) == [
        "options.tie: 'runoff' is played only by the Moscow variant (M-10) (R-6)"]


@pytest.mark.parametrize("game, no_show, dies", [("moscow", "autokill", True), ("free_hunt", "nothing", False)])
def test_R7_no_show(game, no_show, dies):
    """R-7: a player who does not vote: Moscow's default costs nothing, Free Hunt's autokills; the option swaps."""
    names = MOSCOW if game == "moscow" else HUNT
    ballots = everyone(names, names[5], names[6])
    del ballots[names[7]]
    def story(options):
        g = getattr(Game, game)(options=options)
        g.votes("day 1", ballots)
        return g.run("night 1", "+1m")
    assert (story({}).died(names[7]) == ("day 1", "autokill")) is not dies
    assert (story({"no_show": no_show}).died(names[7]) == ("day 1", "autokill")) is dies


def test_R7_self_vote_counts_against_the_no_show():
    """R-7 "self_vote": Ф1 leads 5-4 over Г7; silent Г7's vote against himself makes it a tie (nobody leaves, H-6)."""
    ballots = {n: "Ф1" for n in HUNT[1:6]} | {n: "Г7" for n in HUNT[6:10]} | {"Ф1": "Г1"}
    def story(options):
        g = Game.free_hunt(options=options)
        g.votes("day 1", ballots)
        return g.run("night 1", "+1m")
    default = story({"no_show": "nothing"})
    assert default.died("Ф1") == ("day 1", "vote")
    house = story({"no_show": "self_vote"})
    assert house.alive("Ф1") and house.alive("Г7")


def seats(alive: dict[str, Role]) -> list[Seat]:
    return [Seat(n, r) for n, r in alive.items()]


def test_R8_draw_at_zero_plays_on_at_four():
    """R-8: at four alive (1 mafia, 3 town) M-13 calls a draw; draw_at = 0 plays on."""
    four = seats({"a": Role.MAFIA, "b": Role.CIVILIAN, "c": Role.SHERIFF, "d": Role.CIVILIAN})
    assert get_variant("moscow").winner(four) == "draw"
    assert configure(get_variant("moscow"), {"draw_at": 0}).winner(four) is None
    assert configure(get_variant("moscow"), {"draw_at": 5}).winner(four + seats({"e": Role.CIVILIAN})) == "draw"


def test_R9_open_roles_in_moscow():
    """R-9: roles = "open" announces the hanged player's role in Moscow (closed by default, M-2)."""
    def story(options):
        g = Game.moscow(options=options)
        g.votes("day 1", everyone(MOSCOW, "Маф1", "Маф2"))
        return day_result(g.run("night 1", "+1m"))
    assert "Роль: мафия" not in story({})
    assert "Роль: мафия" in story({"roles": "open"})


def test_R10_cast_of_eleven():
    """R-10: an 11-player Moscow game with 2 mafia, the Don and a Sheriff; refused without the option (M-1)."""
    cast = [(f"И{i}", None) for i in range(11)]
    with pytest.raises(SetupError, match="exactly 10 players"):
        Game("moscow", cast).run("setup", "+1m")
    r = Game("moscow", cast, options={"cast": {"mafia": 2, "don": 1, "sheriff": 1}}).run("day 1", "+1m")
    roles = sorted(p.role for p in r.run.result.players)
    assert roles.count(Role.MAFIA) + roles.count(Role.DON) == 3 and roles.count(Role.SHERIFF) == 1
    assert roles.count(Role.CIVILIAN) == 7


def test_R10_the_opening_post_names_the_cast_without_its_zero_roles():
    # seen on a live SMF board: "Состав: 1 доктор, 2 мафия, 0 маньяк" named a role the game does not have
    cast = [(f"И{i}", None) for i in range(7)]
    r = Game("free_hunt", cast, options={"cast": {"mafia": 2, "doctor": 1, "maniac": 0}}).run("setup", "+1m")
    opening = plain(next(m.text for m in r.run.messages if m.key == "setup/players"))
    assert "Состав: мафия — 2, доктор — 1, остальные — мирные жители." in opening
    assert "маньяк" not in opening


def test_R10_cast_needs_more_town_than_bad():
    with pytest.raises(SetupError, match="more town than bad players"):
        Game("free_hunt", [(f"И{i}", None) for i in range(8)], options={"cast": {"mafia": 3, "maniac": 1}}).run("setup", "+1m")


def test_init_template_shows_every_house_rule_commented_and_valid():
    """issue 12 item 3: `forumbot init`'s template lists each R option commented; uncommented, each is valid."""
    import tomllib

    from forumbot.rules.house import defaults

    text = (Path(__file__).parents[2] / "forumbot" / "examples" / "forumbot.toml").read_text(encoding="utf-8")
    lines = {line[2:].split("=")[0].strip(): line[2:] for line in text.splitlines()
             if line.startswith("# ") and "= " in line and line[2:].split("=")[0].strip().isidentifier()}
    house = set(defaults("moscow").__dataclass_fields__) - {"repeat_is_change", "open_roles"} | {"vote_colors", "roles"}
    assert house <= set(lines), house - set(lines)
    for name in house:
        value = tomllib.loads(lines[name])
        if name == "vote_colors":
            value["vote_format"] = "color"
        if name == "majority_delay":  # read only with the rule on
            value["majority_ends_day"] = True
        if name == "vote_format" and value[name] == "color":
            value["vote_colors"] = ["red"]
        if name.startswith("post_minimum_"):  # read only with a minimum set
            value["post_minimum"] = 2
        assert option_problems("moscow", value) == [], (name, value)


def test_opening_post_and_count_say_which_house_rules_hold_ru_and_en():
    """issue 12 item 2: the opening post lists every house rule in force (issue 17 item 6: the vote's own in its
    "how to vote" part, the rest among the game's rules); the vote count the vote rules that differ."""
    options = {"vote_changes": 2, "vote_format": "bold", "draw_at": 0, "tie": "all"}
    for language, lines, counted in (
            ("ru", ["Голос можно сменить 2 раза", "Голос засчитывается только жирным",
                    "Ничьей по числу живых нет", "При ничьей уходят все лидеры"],
             ["Правила дома:", "Голос меняется до 2 раз", "Голос засчитывается только жирным"]),
            ("en", ["A vote may be changed 2 times", "A vote counts only in bold",
                    "No draw by the alive count", "On a tie every leader leaves"],
             ["House rules:", "A vote may be changed up to 2 times", "A vote counts only in bold"])):
        g = Game.moscow(options=options, language=language)
        g.vote("day 1", "+1h", "М1", "Маф1")
        r = g.run("day 1", "+23h")
        opening = r.posts("game")[0]
        assert all(line in opening for line in lines), opening
        count = next(m.text for m in r.run.messages if "/count/" in m.key)
        assert all(line in count for line in counted) and lines[2] not in count
    plain = Game.moscow()
    plain.vote("day 1", "+1h", "М1", "Маф1")
    r = plain.run("day 1", "+23h")
    assert "Правила дома" not in r.text()


def test_R3_rejection_names_the_rule_in_english():
    g = Game.moscow(options={"vote_format": "bold"}, language="en")
    g.vote("day 1", "+1h", "М1", "Маф1")
    assert "the vote is not in bold" in g.run("day 1", "+23h").text()


def test_R10_no_maniac_in_the_cast_leaves_only_the_mafia_to_guess_in_a_hunt():
    """GM acceptance on SMF: a Free Hunt cast without a Maniac still told players «охота НИК маф|маньяк»."""
    cast = [(f"И{i}", None) for i in range(7)]
    r = Game("free_hunt", cast, options={"cast": {"mafia": 2, "doctor": 1, "maniac": 0}}).run("night 1", "+1m")
    texts = [t for i in range(7) for t in r.pms(f"И{i}")] + r.posts()
    hunts = [t for t in texts if "охота" in t]
    assert hunts and all("маньяк" not in t for t in hunts), hunts[:2]
    assert any("«охота НИК маф»" in t for t in hunts)
    with_maniac = Game.free_hunt().run("night 1", "+1m")
    assert any("«охота НИК маф|маньяк»" in t for t in with_maniac.posts() + with_maniac.pms("Г1"))
