"""How the shared inbox reaches the games, and how shadow mode keeps the bot quiet."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import BOT, GM, STARTED, STEPS, World, game_toml, play
from sqlalchemy import func, select

from forumbot.store.models import OutboxRow, InputRow
from forumbot.store.game import fold_game


def test_pm_from_someone_in_no_game_is_stored_and_not_answered(tmp_path):
    w = World(tmp_path)
    play(w, upto=0)
    w.now += timedelta(minutes=5)
    w.pm("Прохожий", "а можно мне в игру?")
    w.tick()
    with w.daemon.sessions.begin() as s:
        assert s.scalar(select(func.count()).select_from(InputRow).where(InputRow.author == "Прохожий")) == 1
    assert not [to for to, _, _ in w.bot_pms() if to == "Прохожий"]
    w.close()


def test_a_gm_of_two_games_steers_the_one_the_subject_names(tmp_path):
    games = game_toml("spring", prefix="s_") + game_toml("autumn", prefix="a_")
    w = World(tmp_path, games=games)
    w.start("spring")
    w.start("autumn")
    w.now = STEPS[2][0]  # Day 1 of both
    w.tick()
    w.pm(GM, "модкилл a_М3", subject="autumn: замена")
    w.pm(GM, "статус")  # no game named: both games answer
    w.tick()
    autumn = {p.nick: p.alive for p in fold_game(w.daemon.sessions, w.config, "autumn", w.now).result.players}
    spring_run = fold_game(w.daemon.sessions, w.config, "spring", w.now)
    assert autumn["a_М3"] is False
    assert all(p.alive for p in spring_run.result.players)
    assert not any(k.startswith("gm/") and "a_М3" in m.text for k, m in ((m.key, m) for m in spring_run.messages))
    status_replies = [t for to, t, _ in w.bot_pms() if to == GM and "s_М1" in t or to == GM and "a_М1" in t]
    assert len(status_replies) >= 2
    w.close()


def test_shadow_mode_posts_nothing_and_pms_the_gm_what_it_would_have(tmp_path):
    w = World(tmp_path, games=game_toml("g1", mode="shadow"))
    play(w, upto=2)
    assert w.bot_posts() == []
    recipients = {to for to, _, _ in w.bot_pms()}
    assert recipients == {GM}
    shadow = "\n".join(t for _, t, _ in w.bot_pms())
    assert "ЛС для Шериф" in shadow and "В игровую тему" in shadow and "Маф1" in shadow
    # batched: far fewer PMs than messages, each within the size limit
    with w.daemon.sessions.begin() as s:
        messages = s.scalar(select(func.count()).select_from(OutboxRow))
        assert s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status != "sent")) == 0
    assert len(w.bot_pms()) < messages / 2
    w.close()


def test_shadow_mode_answers_gm_commands_directly(tmp_path):
    w = World(tmp_path, games=game_toml("g1", mode="shadow"))
    play(w, upto=1)
    before = len(w.bot_pms())
    w.now += timedelta(minutes=10)
    w.pm(GM, "статус")
    w.tick()
    (reply,) = [t for to, t, _ in w.bot_pms()[before:]]
    assert not reply.startswith("===")  # the GM's own answer, not a shadow digest
    w.close()


def test_pms_to_the_bot_from_itself_or_before_start_are_harmless(tmp_path):
    w = World(tmp_path)
    w.now = STARTED - timedelta(days=3)
    w.pm("М1", "подтверждаю")  # sent before the game existed: stored, not the game's (issue 7 item 1)
    w.now = STARTED
    w.start()
    w.now = STARTED + timedelta(minutes=1)
    w.tick()
    assert BOT not in {to for to, _, _ in w.bot_pms()}
    w.close()


def test_the_default_pm_subject_is_the_game_name_in_the_games_language_and_a_reply_to_it_names_the_game(tmp_path):
    """A bare config key ("autumn") read to Russian players as a stray word; «Мафия: autumn» still holds the
    name, so a GM replying to the bot's PM (the subject kept, "Re: ...") steers that game alone."""
    games = game_toml("spring", prefix="s_") + game_toml("autumn", prefix="a_")
    w = World(tmp_path, games=games)
    w.start("spring")
    w.start("autumn")
    w.now = STEPS[2][0]
    w.tick()
    subjects = {p.to: p.pm.subject for p in w.forum.pms if p.pm.author == BOT and p.to.startswith(("a_", "s_"))}
    assert subjects["a_М1"] == "Мафия: autumn" and subjects["s_М1"] == "Мафия: spring"
    w.pm(GM, "модкилл a_М3", subject="Re: Мафия: autumn")
    w.tick()
    autumn = {p.nick: p.alive for p in fold_game(w.daemon.sessions, w.config, "autumn", w.now).result.players}
    assert autumn["a_М3"] is False
    assert all(p.alive for p in fold_game(w.daemon.sessions, w.config, "spring", w.now).result.players)
    w.close()


def test_players_read_the_games_title_or_its_key_as_words_in_the_pm_subject_and_a_reply_to_either_routes(tmp_path):
    """Issue 28 item 9: «Мафия: spring_cup» showed players the config key. A `title` is the subject; without one
    the key reads as words. A GM's reply keeps either subject and still steers that game alone."""
    games = game_toml("spring_cup", prefix="s_") + game_toml("autumn", prefix="a_") + 'title = "Осенняя мафия"\n'
    w = World(tmp_path, games=games)
    w.start("spring_cup")
    w.start("autumn")
    w.now = STEPS[2][0]
    w.tick()
    subjects = {p.to: p.pm.subject for p in w.forum.pms if p.pm.author == BOT and p.to.startswith(("a_", "s_"))}
    assert subjects["a_М1"] == "Осенняя мафия" and subjects["s_М1"] == "Мафия: spring cup"
    w.pm(GM, "модкилл a_М3", subject="Re: Осенняя мафия")
    w.pm(GM, "модкилл s_М4", subject="Re: Мафия: spring cup")
    w.tick()
    autumn = {p.nick: p.alive for p in fold_game(w.daemon.sessions, w.config, "autumn", w.now).result.players}
    spring = {p.nick: p.alive for p in fold_game(w.daemon.sessions, w.config, "spring_cup", w.now).result.players}
    assert [n for n, alive in autumn.items() if not alive] == ["a_М3"]
    assert [n for n, alive in spring.items() if not alive] == ["s_М4"]
    w.close()
