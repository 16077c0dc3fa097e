"""GM `undo` (C-9 amended, issue 7 item 18): it re-derives the game as if the undone override was never given;
when that changes how a later GM command turns out, the GMs and the thread are told and the command's effects
go out. It is refused, with the reason, after a deadline resolved since the override, when it would put a
deadline already passed back in force, and for an end-phase.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game, opening, plain  # noqa: E402

from forumbot.model import Role  # noqa: E402


def by_key(r, prefix: str) -> list:
    return [m for m in r.run.messages if m.key.startswith(prefix)]


def test_C9_item18_refused_replace_that_an_undo_makes_succeed_is_told_and_played():
    """Issue 7 item 18: `замена М2 Админ` was refused (Админ already played М1's seat); undoing that first
    replace lets it through on re-derivation. The GM and the thread are told, Админ gets the role PM of
    М2's seat, and nothing happens silently."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М1 Админ")
    refused = g.gm("day 1", "+2h", "замена М2 Админ")
    g.gm("day 1", "+3h", "продлить 1ч")
    g.gm("day 1", "+4h", "отмена")  # undoes the extend
    undo = g.gm("day 1", "+5h", "отмена")  # undoes the first replace: the refused one now goes through
    r = g.run("day 1", "+6h")
    nicks = [p.nick for p in r.run.result.players]
    assert nicks[4:6] == ["М1", "Админ"]  # М1 has his seat back; Админ holds М2's seat
    told_gm = by_key(r, f"undo/{undo.id}/rederived/{refused.id}/ГМ")
    assert len(told_gm) == 1 and "замена М2 Админ" in plain(told_gm[0].text) and "Выполнено" in told_gm[0].text
    told_thread = by_key(r, f"undo/{undo.id}/rederived/{refused.id}/post")
    assert len(told_thread) == 1 and told_thread[0].where == "game" and told_thread[0].at == undo.at
    replaced = [m for m in r.run.messages if m.where == "game" and plain(m.text).startswith("Замена: место игрока М2 занимает Админ")]
    assert len(replaced) == 1 and replaced[0].at == undo.at
    role_pms = [m for m in r.run.messages if m.to == "Админ" and "Ваша роль" in plain(m.text)]
    assert [m.at for m in role_pms] == [g.at("day 1", "+1h"), undo.at]
    # the extend, undone by the first undo, stays undone: only the replace changed, so only it is told
    assert len(by_key(r, f"undo/{undo.id}/rederived/")) == 2
    assert r.run.next_deadline == g.at("day 1", "+24h")


def test_C9_item18_command_done_before_and_refused_after_an_undo_is_told():
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М3 Новичок")
    modkill = g.gm("day 1", "+2h", "модкилл Новичок")
    g.gm("day 1", "+3h", "отмена")  # undoes the modkill
    undo = g.gm("day 1", "+4h", "undo")  # undoes the replace: "модкилл Новичок" no longer names anyone
    r = g.run("day 1", "+5h")
    assert r.alive("М3") and r.player("М3").role is Role.CIVILIAN
    told = by_key(r, f"undo/{undo.id}/rederived/{modkill.id}/ГМ")
    assert len(told) == 1 and "не выполнена" in told[0].text and "Новичок" in told[0].text


def test_C9_item18_undo_that_changes_no_later_command_tells_nothing_more():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 2ч")
    g.gm("day 1", "+2h", "модкилл М2")
    g.gm("day 1", "+3h", "модкилл Никто")  # refused before and after the undos alike
    g.gm("day 1", "+4h", "отмена")
    g.gm("day 1", "+5h", "undo")
    r = g.run("day 1", "+6h")
    assert not any("/rederived/" in m.key for m in r.run.messages)
    assert not any("пересчитана" in plain(m.text) for m in r.run.messages)


def test_C9_item18_undo_reaches_past_no_command_it_undid():
    """An undo re-handled during a later undo walks back what is last *then*; its own re-derivation never
    gives the command the later undo took back (the replace stays undone)."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "алиас Котик М4")
    g.gm("day 1", "+2h", "замена М1 Админ")
    g.gm("day 1", "+3h", "модкилл Админ")
    first = g.gm("day 1", "+4h", "отмена")  # undoes the modkill
    undo = g.gm("day 1", "+5h", "отмена")  # undoes the replace; the modkill no longer names anyone, so the
    g.votes("day 1", {"М2": "котик", "М3": "М5", "М6": "М5"}, offset="+6h")  # first undo now takes the alias
    r = g.run("night 1", "+1h")
    assert [p.nick for p in r.run.result.players][4] == "М1" and r.alive("М1")
    # no role PM given again: only the notice that the undone `замена` left him out (issue 28 item 8)
    after = [m.text for m in r.run.messages if m.to == "Админ" and m.at >= undo.at]
    assert len(after) == 1 and after[0].startswith("Ведущий отменил замену: вы больше не участвуете в игре")
    told = by_key(r, f"undo/{undo.id}/rederived/{first.id}/ГМ")
    assert len(told) == 1 and "псевдоним" in told[0].text.lower()
    assert r.died("М5") == ("day 1", "vote")  # "котик" names nobody now: 2 against М5, no runoff


def test_C9_undo_of_an_end_phase_is_refused_with_its_reason():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+2h", "конец-фазы")
    g.gm("day 1", "+2h30m", "отмена")  # in the night the end-phase opened
    r = g.run("day 1", "+3h")
    assert "итоги фазы, закрытой этой командой" in r.pms("ГМ")[-1]
    assert r.died("М3") == ("day 1", "vote") and r.run.phase == "night 1"


def test_C9_undo_of_an_extend_after_the_original_deadline_is_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 2ч")
    g.gm("day 1", "+25h", "отмена")
    r = g.run("night 1", "+3h")
    assert "срок фазы, который вернула бы отмена, уже прошёл" in r.pms("ГМ")[-1]
    assert opening(r, "night 1").at == g.at("day 1", "+26h")


def test_C9_undo_whose_rederivation_puts_a_passed_deadline_back_is_refused_and_changes_nothing():
    """The undone replace is fine on its own, but without it a later modkill names nobody, so the undo
    between them now walks back the extend instead: the day would have ended an hour ago. Refused."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 5ч")
    g.gm("day 1", "+2h", "замена М1 Админ")
    g.gm("day 1", "+3h", "модкилл Админ")
    g.gm("day 1", "+4h", "отмена")  # undoes the modkill
    undo = g.gm("day 1", "+25h", "отмена")
    r = g.run("day 1", "+26h")
    assert "уже прошёл" in next(plain(m.text) for m in r.run.messages if m.key == f"gm/{undo.id}")
    assert r.run.phase == "day 1" and r.run.next_deadline == g.at("day 1", "+29h")
    assert [p.nick for p in r.run.result.players][4] == "Админ" and r.alive("Админ")
    assert not any(m.key.startswith(f"undo/{undo.id}") for m in r.run.messages)


# ---------------------------------------------------------------------------- issue 7 item 19: absurd extends


def test_C9_item19_extend_by_a_billion_days_is_refused_by_pm_and_the_game_goes_on():
    """`продлить 999999999д` made every later fold raise OverflowError (and undo could not run)."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 999999999д")
    g.gm("day 1", "+2h", "отмена")
    g.votes("day 1", {"М1": "М3", "М2": "М3"}, offset="+3h")
    r = g.run("night 1", "+1h")
    replies = r.pms("ГМ")
    assert "больше 30 дней" in replies[-2] and "отменять нечего" in replies[-1]
    assert r.died("М3") == ("day 1", "vote")
    assert opening(r, "night 1").at == g.at("day 1", "+24h")


def test_C9_item19_extends_that_add_up_past_30_days_from_now_are_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 20д")
    g.gm("day 1", "+2h", "продлить 10д")  # the day would end 30 days and 22 hours from now
    g.gm("day 1", "+3h", "extend 9d")
    r = g.run("day 1", "+4h")
    replies = r.pms("ГМ")
    assert replies[-3].startswith("Выполнено") and replies[-1].startswith("Выполнено")
    assert "дальше чем на 30 дней" in replies[-2]
    assert r.run.next_deadline == g.at("day 1", "+24h") + timedelta(days=29)


def test_C9_item19_extend_while_paused_is_bounded_from_the_pause():
    g = Game.moscow()
    g.gm("day 1", "+1h", "пауза")
    g.gm("day 1", "+2h", "продлить 30д")  # 23 h were left when the pause began
    g.gm("day 1", "+3h", "продлить 29д")
    r = g.run("day 1", "+4h")
    replies = r.pms("ГМ")
    assert "дальше чем на 30 дней" in replies[-2] and replies[-1].startswith("Выполнено")


def test_C9_item18_rederivation_that_ends_the_game_earlier_tells_the_commands_that_came_after():
    """Undoing a replace lets a refused modkill through; with it the mafia reach parity and the game ends
    there, so the undo given after it no longer does anything: both are told, and the game-over post goes out."""
    g = Game.moscow()
    for c in ("М1", "М2"):
        g.gm("setup", "-2h", f"модкилл {c}")  # 8 left: 3 mafia, 5 town
    g.gm("day 1", "+1h", "замена М3 Админ")
    g.gm("day 1", "+2h", "модкилл М4")  # 4 town
    refused = g.gm("day 1", "+3h", "модкилл М3")  # refused: М3 no longer plays
    first = g.gm("day 1", "+5h", "отмена")  # undoes the modkill of М4
    undo = g.gm("day 1", "+6h", "отмена")  # undoes the replace: both modkills stand, 3 mafia v 3 town
    r = g.run("day 1", "+7h")
    assert r.winner == "mafia" and r.run.result.ended_at == refused.at
    told = {m.key.split("/")[3]: plain(m.text) for m in r.run.messages
            if m.key.startswith(f"undo/{undo.id}/rederived/") and m.to == "ГМ"}
    assert set(told) == {refused.id, first.id}
    assert "Выполнено: модкилл — М3 покидает игру" in told[refused.id] and "игра уже окончена" in told[first.id]
    game_over = [m for m in r.run.messages if m.key.startswith("ended/result")]
    assert len(game_over) == 1 and game_over[0].at == undo.at


def test_C9_setvote_answer_names_the_vote_as_written():
    g = Game.moscow()
    g.gm("day 1", "+1h", "голос М4 М5")
    r = g.run("day 1", "+2h")
    assert r.pms("ГМ")[-1].startswith("Выполнено: голос игрока М4 засчитан; цель — М5.")


def test_C9_an_undone_modkill_tells_the_thread_who_is_back_in_the_game():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М3 проверка")
    undo = g.gm("day 1", "+2h", "отмена")
    r = g.run("day 1", "+3h")
    post = by_key(r, f"undo/{undo.id}")
    assert len(post) == 1 and post[0].where == "game"
    # M-11: and the vote the modkill had cancelled is on again (issue 17 item 10)
    assert plain(post[0].text) == ("Отменено действие ведущего — модкилл: М3 снова в игре.\n"
                                   "Голосование снова идёт (день 1) — в теме голосования до 02.12 10:00 МСК."), post[0].text
    assert next(p for p in r.run.result.players if p.nick == "М3").alive


def test_C9_an_undone_modkill_during_a_pause_names_no_deadline():
    """A modkill given and undone while the game is paused (C-9): the vote is on again, but no deadline runs
    until the GM resumes; the notice must not name the old deadline as if the day were running (a GM's
    walk-through: «до 04.12 10:25» stood under «игра на паузе»)."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "пауза")
    g.gm("day 1", "+2h", "модкилл М3 проверка")
    undo = g.gm("day 1", "+3h", "отмена")
    r = g.run("day 1", "+4h")
    post = by_key(r, f"undo/{undo.id}")
    assert len(post) == 1
    assert plain(post[0].text) == ("Отменено действие ведущего — модкилл: М3 снова в игре.\n"
                                   "Голосование снова идёт (день 1), но игра на паузе: срок назовёт сообщение "
                                   "о снятии паузы."), post[0].text
