"""M-15: `conference = "conversation"` runs where the engine's adapter sends one PM to several names and tells
their replies apart (phpBB, MyBB, XenForo); elsewhere `game start` freezes the relay into the game and check-config says so."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from forumbot.config.checks import example_config
from forumbot.config.conference import conference_of, conference_warnings
from forumbot.texts import TABLES
from forumbot.config.load import load_config
from forumbot.games.start import start_game
from forumbot.store import GameRow, open_engine, session_factory, upgrade
from forumbot.texts import TABLES


def _config(tmp_path, engine: str, conference: str = "conversation"):  # type: ignore[no-untyped-def]
    text = example_config().replace('engine = "phpbb"', f'engine = "{engine}"', 1)
    text = text.replace('conference = "conversation"', f'conference = "{conference}"')
    path = tmp_path / f"{engine}.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def test_m15_conversation_on_phpbb_mybb_and_xenforo_the_relay_elsewhere_with_a_warning(tmp_path) -> None:
    for engine in ("phpbb", "mybb", "xenforo"):
        config = _config(tmp_path, engine)
        assert conference_of(config, config.games["autumn"]) == "conversation" and conference_warnings(config, TABLES["ru"]) == []
    config = _config(tmp_path, "punbb")
    assert conference_of(config, config.games["autumn"]) == "relay"
    (warning,) = conference_warnings(config, TABLES["en"])
    assert warning.startswith("games.autumn.options.conference: \"conversation\" needs PMs to several participants")
    assert "the game runs the relay" in warning
    (warning,) = conference_warnings(config, TABLES["ru"])  # issue 28 item 4: a Russian game's GM reads Russian
    assert warning.startswith("games.autumn.options.conference: для \"conversation\" нужны ЛС нескольким участникам")
    assert "игра идёт через пересылку" in warning
    relay = _config(tmp_path, "punbb", "relay")
    assert conference_of(relay, relay.games["autumn"]) == "relay" and conference_warnings(relay, TABLES["ru"]) == []


def test_m15_game_start_freezes_the_relay_where_the_engine_has_no_conversation(tmp_path) -> None:
    for name, frozen in (("punbb", "relay"), ("phpbb", "conversation")):
        engine = open_engine(f"sqlite:///{tmp_path / (name + '.sqlite')}")
        upgrade(engine)
        sessions = session_factory(engine)
        config = _config(tmp_path, name)
        start = config.games["autumn"].schedule.start
        start_game(sessions, config, "autumn", min(start, datetime.now(timezone.utc)) - timedelta(hours=1), seed=3)
        with sessions.begin() as s:
            setup = json.loads(s.scalars(select(GameRow.setup_json).where(GameRow.name == "autumn")).one())
        engine.dispose()
        assert setup["options"]["conference"] == frozen, name
