"""Issue 29 "Done means" on a closed engine: a Moscow game on the XenForo emulator from its sign-up to Day 1,
through the daemon's cycle (what `forumbot tick` runs), in HTML mode and through the REST API. The game has no
`players`: it takes them from `[games.g1.signup]` in its game thread. Players join with «+» (S-1: the account
that posted, never a name in the text), one leaves with «-», one goes to the reserve with «запас»; the list is
posted after the first join, the changes after it held for `list_every` and then listed (S-2); the seventh join
closes the sign-up (`close_when_full`) and Setup starts with exactly those seven (S-3). At Setup the bot opens one
conversation with the mafia (M-15, `conference = "conversation"`); they talk in it, nothing is answered and
nothing is a move; when Day 1 opens the closing words are a reply in it, which the bot then locks (XF's
conversation_open, Conversation::actionEdit); a vote is then counted. The clock is the test's: nothing sleeps."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "daemon"))
from daemon_world import BOT, GM, STARTED, config_toml  # noqa: E402
from test_xenforo_daemon import PASSWORD, XfWorld  # noqa: E402

from adapters.xenforo.api import SCOPES, XenforoApiForum  # noqa: E402
from adapters.xenforo.forum import XenforoForum  # noqa: E402
from forumbot.config.conference import conference_of  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.store import InputRow  # noqa: E402
from forumbot.store.game import fold_game  # noqa: E402
from xfemu.state import fold  # noqa: E402

API_KEY = "xf-bot-key-signup"
LIST_EVERY = timedelta(minutes=60)  # signup.list_every (S-2)
JOINERS = ["Шериф", "Дон", "Маф1", "Маф2", "М1", "М2", "М3"]  # in the order of their «+»
LEAVER, RESERVE, TALKER = "М6", "М5", "М4"
MAFIA_ROLES = ("mafia", "don")


def signup_games(game_url: str, vote_url: str) -> str:
    closes = STARTED + timedelta(days=7)
    return f"""
[games.g1]
forum = "main"
variant = "moscow"
language = "ru"
game_thread = "{game_url}"
vote_thread = "{vote_url}"
gms = ["{GM}"]
timezone = "Europe/Moscow"
[games.g1.options]
cast = {{ mafia = 1, don = 1, sheriff = 1 }}
conference = "conversation"
[games.g1.signup]
closes = {closes.isoformat()}
close_when_full = true
players = 7
list_every = {LIST_EVERY.total_seconds() / 60:g}
"""


@dataclass
class SignupWorld(XfWorld):
    """XfWorld's board and daemon, with a game that takes its players from a sign-up; `api`: the bot reads and
    writes through XF's REST API (`api_key_env`) instead of its pages."""

    api: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.api:
            self.board.api_keys[API_KEY] = (BOT, frozenset(SCOPES))
        forum_extra = f'base_url = "{self.emulator.base_url}"'
        self.config_path.write_text(config_toml(signup_games(self.urls["game"], self.urls["vote"]),
                                                engine="xenforo", forum_extra=forum_extra), encoding="utf-8")
        self.config = load_config(self.config_path)
        self.restart()

    def adapter(self, forum, env) -> XenforoForum | XenforoApiForum:  # type: ignore[override]
        if self.api:
            return XenforoApiForum(self.emulator.base_url, BOT, API_KEY, clock=self.unix, sleep=self.nap)
        return XenforoForum(self.emulator.base_url, BOT, PASSWORD, timezone_name="Europe/Moscow", clock=self.unix,
                            sleep=self.nap, max_wait=None)

    def bot_posts_in(self, tid: int) -> list[str]:
        return [p.text.replace("[b]", "").replace("[/b]", "") for p in self.board.visible_posts(tid) if p.author == BOT]


def between(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


@pytest.fixture(params=[False, True], ids=["html", "api"])
def world(request, tmp_path):
    w = SignupWorld(tmp_path, api=request.param)
    yield w
    w.close()


def test_s1_s3_m15_xenforo_a_sign_up_starts_the_game_and_the_mafia_talk_in_a_conference_closed_at_day_1(world):
    w = world
    assert conference_of(w.config, w.config.games["g1"]) == "conversation"
    w.start()
    w.tick()
    (opening,) = w.bot_posts_in(101)
    assert opening.startswith("Набор в игру: московская мафия") and "Нужно 7" in opening, opening  # S-1

    # S-1, S-2: the first join is listed at once
    w.now += timedelta(minutes=5)
    w.post("game", JOINERS[0], "+")
    w.tick()
    listed = w.now
    assert len(w.bot_posts_in(101)) == 2
    first = w.bot_posts_in(101)[1]
    assert first.startswith("Список записавшихся") and JOINERS[0] in between(first, "Игроки:", "Свободно: 6"), first

    # the changes after it: held for list_every (S-2)
    w.now += timedelta(minutes=5)
    w.post("game", LEAVER, "+", ago=timedelta(seconds=50))
    w.post("game", TALKER, f"{LEAVER} тоже играет: +", ago=timedelta(seconds=45))  # talk: nobody signs up (S-1)
    w.post("game", RESERVE, "запас", ago=timedelta(seconds=40))  # the reserve only (S-2, S-4)
    w.post("game", LEAVER, "-", ago=timedelta(seconds=35))  # S-1: takes him off
    for i, name in enumerate(JOINERS[1:6]):
        w.post("game", name, "+", ago=timedelta(seconds=30 - i))
    w.tick()
    assert len(w.bot_posts_in(101)) == 2, "a second list within list_every (S-2)"
    w.now = listed + LIST_EVERY + timedelta(minutes=1)
    w.tick()
    second = w.bot_posts_in(101)[2]
    assert second.startswith("Список записавшихся"), second
    places = between(second, "Игроки:", "Запас:")
    assert all(n in places for n in JOINERS[:6]) and LEAVER not in places and TALKER not in places, second
    assert RESERVE in between(second, "Запас:", "Свободно: 1") and LEAVER not in second, second

    # S-3: the seventh join closes it; Setup starts with exactly those seven, and the mafia's conference opens
    w.now += timedelta(minutes=5)
    w.post("game", JOINERS[6], "+")
    closed_at = w.now - timedelta(seconds=30)
    w.tick()
    text = "\n".join(w.bot_posts_in(101))
    closed = text.split("Набор закрыт", 1)[1]
    assert all(n in between(closed, "Игроки:", "Запас:") for n in JOINERS), closed[:800]
    assert RESERVE in between(closed, "Запас:", "Роли придут") and LEAVER not in closed, closed[:800]
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [p.nick for p in run.result.players] == JOINERS and run.phase == "setup"
    mafia = {p.nick for p in run.result.players if p.role.value in MAFIA_ROLES}
    assert len(mafia) == 2, run.result.players
    for name in JOINERS:  # each his role, in a conversation of his own
        own = [c for c in w.board.conversations_of(name) if c.starter == BOT and len(c.members) == 2]
        assert len(own) == 1 and "Ваша роль:" in w.board.messages[own[0].messages[0]].text, name
    for name in (LEAVER, RESERVE, TALKER):
        assert not w.board.conversations_of(name), f"{name} plays no seat"

    # M-15: one conversation with the mafia, started by the bot, saying when it closes
    (conference,) = [c for c in w.board.conversations.values() if c.starter == BOT and len(c.members) > 2]
    assert {m for m in conference.members if fold(m) != fold(BOT)} == mafia
    assert w.board.messages[conference.messages[0]].text.startswith("Конференция мафии: ")

    # the mafia talk in it before Day 1: nothing is answered, nothing is a move or a command (M-15)
    w.now += timedelta(hours=2)
    talk = sorted(mafia)
    w.board.add_message(conference.id, talk[0], "Знак: трогаю ухо. Начнём с М1.",
                        (w.now - timedelta(minutes=2)).timestamp())
    w.board.add_message(conference.id, talk[1], f"дон {talk[0]}", (w.now - timedelta(minutes=1)).timestamp())
    w.tick()
    assert [w.board.messages[m].author for m in conference.messages] == [BOT, talk[0], talk[1]], "answered in it"
    with w.daemon.sessions() as s:
        kinds = {(r.author, r.kind) for r in s.execute(select(InputRow.author, InputRow.kind).where(
            InputRow.author.in_(talk) & InputRow.kind.in_(("pm", "conv"))))}
    assert kinds == {(talk[0], "conv"), (talk[1], "conv")}, kinds

    # Day 1 opens a day after the close (no `start`, S-3): the conference is closed in it and locked
    w.now = closed_at + timedelta(days=1, minutes=1)
    w.tick()
    assert "Наступил день 1" in "\n".join(w.bot_posts_in(101))
    closing = w.board.messages[conference.messages[-1]]
    assert closing.author == BOT and closing.text.startswith("Конференция закрыта: дальше мафия не общается.")
    assert [c for c in w.board.conversations.values() if c.starter == BOT and len(c.members) > 2] == [conference]
    assert not conference.conversation_open  # locked: XF's canReply refuses every member from now on

    # Day 1: a vote is counted (the count posted at most every vote_count_minutes, 60 by default)
    w.now += timedelta(minutes=10)
    town = next(n for n in JOINERS if n not in mafia)
    w.post("vote", town, talk[0])
    w.tick()
    w.now += timedelta(minutes=60)
    w.tick()
    (count,) = [t for t in w.bot_posts_in(101) + w.bot_posts_in(102) if t.startswith("Промежуточный подсчёт")]
    assert f"{talk[0]} — 1 голос: {town}" in count, count
