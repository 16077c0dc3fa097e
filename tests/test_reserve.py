"""S-4, the reserve and replacements: `замена НИК` offers the seat to the reserve in order, one offer at a time per
seat; `принимаю` makes the replacement as `замена OLD NEW` makes it (C-9); `нет`, silence, or an empty reserve;
reserve words in the game thread during the game; a game without a sign-up; an undo that withdraws the offer."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from forumbot import game
from forumbot.engine.signup_values import ReserveSetup, SignupSetup
from forumbot.model import GameSetup, Input, PlayerSpec, Replace, Schedule, Where
from forumbot.parse import parse_command
from forumbot.parse.nicknames import NickMatcher
from forumbot.parse.signup import offer_answer
from forumbot.store.setup_codec import setup_from_json, setup_to_json

T0 = datetime(2026, 12, 1, 7, tzinfo=timezone.utc)  # 10:00 МСК; Setup open, Day 1 a day later
PLAYERS = [f"P{i}" for i in range(1, 11)]


def setup(reserve: tuple[str, ...] | None = ("R1", "R2"), hours: float = 6, **kw) -> GameSetup:
    return GameSetup(variant="moscow", seed=42, schedule=Schedule(start=T0 + timedelta(hours=24), setup_opens=T0),
                     players=tuple(PlayerSpec(n) for n in PLAYERS), bot="Bot", gms=("GM",),
                     reserve=None if reserve is None else ReserveSetup(reserve, timedelta(hours=hours)), **kw)


def pm(hours: float, who: str, text: str) -> Input:
    return Input(at=T0 + timedelta(hours=hours), where=Where.PM, author=who, text=text)


def post(hours: float, who: str, text: str) -> Input:
    return Input(at=T0 + timedelta(hours=hours), where=Where.GAME, author=who, text=text)


def run(inputs: list[Input], until: float = 20, **kw):
    return game.run(setup(**kw), inputs, until=T0 + timedelta(hours=until))


def to(out, who: str) -> list[str]:
    return [m.text for m in out.messages if m.to == who and m.at > T0]


def seats(out) -> list[str]:
    return [p.nick for p in out.result.players]


def test_s4_parse_zamena_with_one_name_is_a_replacement_from_the_reserve() -> None:
    def read(text: str):  # type: ignore[no-untyped-def]
        return parse_command(text, NickMatcher(PLAYERS), everyone=PLAYERS, parse_vote=lambda t: None)
    assert read("замена P3") == Replace("P3", "") and read("replace P3") == Replace("P3", "")
    assert read("замена P3 Новый") == Replace("P3", "Новый")
    assert read("замена Никто").code == "unknown_name"  # one name that plays no seat: refused as before
    assert [offer_answer(t) for t in ("Принимаю!", "accept", "нет", "No.", "да", "принимаю место")] == \
        ["accept", "accept", "no", "no", None, None]


def test_s4_zamena_nick_offers_the_seat_by_pm_to_the_first_of_the_reserve_in_russian() -> None:
    out = run([pm(1, "GM", "замена P3")], until=5)
    assert to(out, "R1") == [
        "Ведущий ищет замену: место игрока [b]P3[/b] свободно, и оно предложено вам из запаса. Чтобы занять его, "
        "ответьте на это письмо одним словом «принимаю» до 01.12 17:00 МСК; чтобы отказаться — «нет». Роль придёт "
        "следующим письмом."]
    assert to(out, "R2") == [] and seats(out)[2] == "P3"
    gm = to(out, "GM")
    assert "Место игрока [b]P3[/b] предложено [b]R1[/b] (запас) до 01.12 17:00 МСК." in gm
    assert any(t.startswith("Выполнено: замена из запаса — место игрока [b]P3[/b] предложено запасу.")
               for t in gm)


def test_s4_the_offer_in_english() -> None:
    out = run([pm(1, "GM", "replace P3"), pm(2, "R1", "what?")], language="en")
    assert to(out, "R1")[0] == (
        "The GM is looking for a substitute: the seat of [b]P3[/b] is free and is offered to you from the reserve. "
        "To take it, answer this PM with the single word \"accept\" before 01.12 17:00 MSK; to decline, \"no\". "
        "Your role comes in the next PM.")
    assert to(out, "R1")[1] == ("The seat of [b]P3[/b] awaits your answer until 01.12 17:00 MSK: write the single "
                                "word \"accept\" or \"no\".")


def test_s4_accept_makes_the_replacement_exactly_as_the_gms_zamena_old_new() -> None:
    offered = run([pm(1, "GM", "замена P3"), pm(2, "R1", "принимаю"), post(3, "R1", "Привет всем")], until=60)
    by_hand = run([pm(2, "GM", "замена P3 R1"), post(3, "R1", "Привет всем")], until=60)
    assert seats(offered) == seats(by_hand) and seats(offered)[2] == "R1"
    assert offered.result == by_hand.result
    public = [m.text for m in offered.messages if m.where is not Where.PM]
    assert public == [m.text for m in by_hand.messages if m.where is not Where.PM]
    assert "Замена: место игрока [b]P3[/b] занимает [b]R1[/b]." in public  # announced in the thread
    role = [t for t in to(offered, "R1") if "Ваша роль" in t]
    assert role == [t for t in to(by_hand, "R1") if "Ваша роль" in t] and len(role) == 1
    assert "[b]R1[/b] принял место игрока [b]P3[/b]: замена сделана." in to(offered, "GM")


def test_s4_no_passes_the_offer_to_the_next_of_the_reserve() -> None:
    out = run([pm(1, "GM", "замена P3"), pm(2, "R1", "нет"), pm(3, "R2", "принимаю")])
    assert to(out, "R1")[-1] == "Понятно, место предложено следующему в запасе. Вы остаётесь в запасе."
    assert to(out, "R2")[0].startswith("Ведущий ищет замену: место игрока [b]P3[/b]")
    assert "до 01.12 18:00 МСК" in to(out, "R2")[0]  # offer_hours from the pass
    assert "[b]R1[/b] отказался от места игрока [b]P3[/b]. Предложение переходит к следующему в запасе." \
        in to(out, "GM")
    assert seats(out)[2] == "R2"


def test_s4_silence_past_offer_hours_passes_it_on_an_accept_at_the_time_itself_is_late() -> None:
    out = run([pm(1, "GM", "замена P3"), pm(7, "R1", "принимаю")])  # offered at 1 h, for 6 h: 7 h is too late
    assert "Время ответа истекло: место игрока [b]P3[/b] предложено следующему в запасе." in to(out, "R1")
    assert seats(out)[2] == "P3"
    assert to(out, "R2")[0].startswith("Ведущий ищет замену")
    assert "[b]R1[/b] не ответил вовремя на предложение места игрока [b]P3[/b]. Предложение переходит к " \
           "следующему в запасе." in to(out, "GM")
    in_time = run([pm(1, "GM", "замена P3"), pm(6.99, "R1", "принимаю")])
    assert seats(in_time)[2] == "R1"
    short = run([pm(1, "GM", "замена P3"), pm(2.5, "R1", "принимаю")], hours=1)
    assert seats(short)[2] == "P3"  # `signup.offer_hours` = 1


def test_s4_an_empty_reserve_is_told_to_the_gms() -> None:
    out = run([pm(1, "GM", "замена P3"), pm(2, "R1", "нет"), pm(3, "R2", "нет")])
    assert "[b]R2[/b] отказался от места игрока [b]P3[/b]. Запас пуст: место игрока [b]P3[/b] больше некому " \
           "предложить. Замените его сами: «замена [b]P3[/b] НОВЫЙ»." in to(out, "GM")
    refused = run([pm(1, "GM", "замена P3")], reserve=())
    assert to(refused, "GM") == ["Команда не выполнена: запас пуст, место некому предложить; напишите "
                                 "«замена НИК НОВЫЙ»."]


def test_s4_a_player_of_this_game_alive_dead_or_replaced_is_never_in_the_reserve() -> None:
    out = run([pm(1, "GM", "замена P4 Old"), pm(2, "GM", "модкилл P5"), pm(3, "GM", "замена P3")],
              reserve=("P1", "p5", "P4", "Old", "GM", "Bot", "R1"))
    assert to(out, "R1")[0].startswith("Ведущий ищет замену")
    assert all(not t.startswith("Ведущий ищет замену") for who in ("P1", "P5", "P4", "Old") for t in to(out, who))


def test_s4_a_reserve_word_in_the_game_thread_during_the_game_joins_the_reserve_after_the_sign_ups() -> None:
    inputs = [post(1, "Z", "запас"), post(2, "P6", "запас"), post(3, "Y", "sub"), post(4, "Z", "на замену"),
              post(5, "X", "хочу на замену"), pm(6, "GM", "замена P3"), pm(7, "R1", "нет"), pm(8, "Z", "нет"),
              pm(9, "Y", "нет")]
    out = run(inputs, reserve=("R1",))
    offered = [m.to for m in out.messages if m.key.endswith("/offer")]
    assert offered == ["R1", "Z", "Y"]  # P6 plays; X's post is talk; Z once
    assert "Запас пуст" in to(out, "GM")[-1]


def test_s4_one_offer_open_per_seat_and_one_reserve_player_offered_one_seat_at_a_time() -> None:
    out = run([pm(1, "GM", "замена P3"), pm(2, "GM", "замена P3"), pm(3, "GM", "замена P4")], until=5)
    assert "Команда не выполнена: место этого игрока уже предложено игроку из запаса: дождитесь ответа или " \
           "снимите предложение командой «отмена»." in to(out, "GM")
    assert [(m.to, m.text.split("[b]")[1]) for m in out.messages if m.key.endswith("/offer")] == \
        [("R1", "P3[/b] свободно, и оно предложено вам из запаса. Чтобы занять его, ответьте на это письмо одним "
          "словом «принимаю» до 01.12 17:00 МСК; чтобы отказаться — «нет». Роль придёт следующим письмом."),
         ("R2", "P4[/b] свободно, и оно предложено вам из запаса. Чтобы занять его, ответьте на это письмо одним "
          "словом «принимаю» до 01.12 19:00 МСК; чтобы отказаться — «нет». Роль придёт следующим письмом.")]


def test_s4_a_game_without_a_sign_up_refuses_zamena_nick_with_a_clear_message() -> None:
    out = run([pm(1, "GM", "замена P3")], reserve=None)
    assert to(out, "GM") == ["Команда не выполнена: у этой игры не было набора, значит, нет и запаса: «замена НИК» "
                             "без нового ника берёт игрока из запаса; напишите «замена НИК НОВЫЙ»."]
    en = run([pm(1, "GM", "replace P3")], reserve=None, language="en")
    assert to(en, "GM") == ["Command not done: this game had no sign-up, so it has no reserve: \"replace NICK\" "
                            "without a new name takes a player from the reserve; write \"replace NICK NEW\"."]
    assert seats(out) == PLAYERS


def test_s4_undo_of_zamena_nick_withdraws_the_open_offer() -> None:
    out = run([pm(1, "GM", "замена P3"), pm(2, "GM", "отмена"), pm(3, "R1", "принимаю")])
    assert "Ведущий отменил замену: предложение места игрока [b]P3[/b] снято." in to(out, "R1")
    assert seats(out) == PLAYERS
    again = run([pm(1, "GM", "замена P3"), pm(2, "GM", "отмена"), pm(3, "GM", "замена P3")], until=5)
    assert [m.to for m in again.messages if m.key.endswith("/offer")] == ["R1", "R1"]  # the seat is free to offer


def test_s4_the_reserve_at_the_sign_ups_close_is_carried_into_the_game() -> None:
    names = [f"S{i}" for i in range(1, 11)]
    signup = SignupSetup(variant="moscow", seats=10, opens=T0, closes=T0 + timedelta(hours=12), gms=("GM",),
                         bot="Bot", offer_hours=timedelta(hours=2))
    base = GameSetup(variant="moscow", seed=42, schedule=Schedule(start=T0 + timedelta(days=5)), players=(),
                     bot="Bot", gms=("GM",), signup=signup)
    inputs = [post(0.5, "Запасной", "запас")] + [post(i, n, "+") for i, n in enumerate(names, 1)]
    inputs += [post(11, "Поздний", "+"), pm(13, "GM", "замена S2"), pm(14, "Поздний", "нет"),
               pm(20, "GM", "статус")]
    out = game.run(base, inputs, until=T0 + timedelta(hours=30))
    offers = [(m.to, m.at) for m in out.messages if m.key.endswith("/offer")]
    # the reserve at the close (S-2: the joins past the N-th, then the reserve words), offer_hours from the sign-up
    assert offers == [("Поздний", T0 + timedelta(hours=13)), ("Запасной", T0 + timedelta(hours=14))]
    lapsed = [m for m in out.messages if m.to == "Запасной" and "Время ответа истекло" in m.text]
    assert [m.at for m in lapsed] == [T0 + timedelta(hours=16)]


def test_s4_offer_hours_is_stored_with_the_setup() -> None:
    signup = SignupSetup(variant="moscow", seats=10, opens=T0, closes=T0 + timedelta(hours=48),
                         offer_hours=timedelta(hours=3))
    stored = replace(setup(reserve=None), players=(), signup=signup)
    assert setup_from_json(setup_to_json(stored), check=False).signup.offer_hours == timedelta(hours=3)


def test_s4_the_gms_help_names_zamena_with_one_name_in_both_languages() -> None:
    ru = run([pm(1, "GM", "помощь")], until=2)
    en = run([pm(1, "GM", "help")], until=2, language="en")
    assert "«замена СТАРЫЙ НОВЫЙ» или «замена СТАРЫЙ» — место игрока с его ролью переходит другому аккаунту; без " \
           "нового ника (игра из набора) место предлагается запасу по порядку" in to(ru, "GM")[0]
    assert "“replace OLD NEW” or “replace OLD” — another account takes over a player's seat and role; without NEW " \
           "(a game from a sign-up) the seat is offered to the reserve in order" in to(en, "GM")[0]


def test_s4_a_leave_word_takes_a_reserve_player_off_the_reserve_one_who_comes_back_is_last() -> None:
    inputs = [post(1, "Z", "запас"), post(2, "R1", "-"), post(3, "Y", "sub"), post(4, "Z", "выхожу"),
              post(5, "Z", "запас"), post(5.5, "X", "-"), pm(6, "GM", "замена P3"), pm(7, "R2", "нет"),
              pm(8, "Y", "нет")]
    out = run(inputs, reserve=("R1", "R2"))
    assert [m.to for m in out.messages if m.key.endswith("/offer")] == ["R2", "Y", "Z"]  # R1 left; Z came back
    assert not any(t.startswith("Ведущий ищет замену") for t in to(out, "R1"))


def test_s4_a_reserve_player_who_leaves_while_offered_a_seat_passes_it_to_the_next() -> None:
    out = run([pm(1, "GM", "замена P3"), post(2, "R1", "выхожу"), pm(3, "R1", "принимаю")])
    assert "[b]R1[/b] вышел из запаса (написал в теме игры), предложение места игрока [b]P3[/b] с него снято. " \
           "Предложение переходит к следующему в запасе." in to(out, "GM")
    assert to(out, "R2")[0].startswith("Ведущий ищет замену: место игрока [b]P3[/b]")
    assert seats(out)[2] == "P3"  # his `принимаю` after leaving is no answer to an offer
    en = run([pm(1, "GM", "replace P3"), post(2, "R1", "leave")], language="en")
    assert "[b]R1[/b] left the reserve (posted in the game thread): the offer of the seat of [b]P3[/b] is off. The " \
           "offer passes to the next in the reserve." in to(en, "GM")


def undelivered(hours: float, who: str, key: str) -> Input:
    """The forum refused for good to deliver the bot's PM `key` to `who` (the outbox's refusal, stored)."""
    return Input(at=T0 + timedelta(hours=hours), where=Where.UNDELIVERED, author=who, text=key)


def test_s4_a_full_inbox_passes_the_offer_to_the_next_at_once_and_the_gms_are_told() -> None:
    offer = run([pm(1, "GM", "замена P3")], until=2)
    key = next(m.key for m in offer.messages if m.key.endswith("/offer"))
    out = run([pm(1, "GM", "замена P3"), undelivered(1.1, "R1", key), pm(3, "R2", "принимаю")])
    assert "Форум не доставил [b]R1[/b] предложение места игрока [b]P3[/b] (например, его ящик ЛС переполнен). " \
           "Предложение переходит к следующему в запасе." in to(out, "GM")
    r2 = next(m for m in out.messages if m.to == "R2" and m.key.endswith("/offer"))
    assert r2.at == T0 + timedelta(hours=1.1), "the offer waited for offer_hours instead of passing at once"
    assert seats(out)[2] == "R2"
    en = run([pm(1, "GM", "replace P3"), undelivered(1.1, "R1", key)], language="en")
    assert "The forum did not deliver the offer of the seat of [b]P3[/b] to [b]R1[/b] (his PM inbox may be full). " \
           "The offer passes to the next in the reserve." in to(en, "GM")


def test_s4_an_undelivered_pm_that_is_no_open_offer_changes_nothing() -> None:
    base = [pm(1, "GM", "замена P3"), pm(2, "R1", "нет")]  # the offer is R2's now (round 1)
    plain = run(base)
    for late in (undelivered(2.5, "R1", "reserve/i0/0/offer"),  # R1's offer, already passed on
                 undelivered(2.5, "R2", "reserve/i0/0/offer"),  # R2's, but of another round
                 undelivered(2.5, "P5", "night 1/check/x")):  # not an offer at all
        out = run([*base, late])
        assert out.messages == plain.messages, late
        assert any("the forum did not deliver" in line for line in out.log)


def test_s4_m15_an_accept_cced_to_the_gm_takes_no_seat_and_the_reserve_player_is_told() -> None:
    cc = Input(at=T0 + timedelta(hours=2), where=Where.SHARED, author="R1", text="принимаю", id="cc1")
    out = run([pm(1, "GM", "замена P3"), cc], until=5)
    assert seats(out)[2] == "P3"
    assert to(out, "R1")[-1].startswith("Это письмо адресовано не только боту, поэтому бот его не читает")
    assert not any(m.to == "R2" for m in out.messages)  # the offer is still R1's: he may answer the bot alone
