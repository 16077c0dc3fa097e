"""What the bot says: both languages complete and in step, and no player-supplied string rendered as markup."""

from __future__ import annotations

import re
import string

import pytest
from gamekit import Game, plain

from forumbot.model import REJECTION_CODES, Role
from forumbot.texts import en, ru

HOSTILE = "[url=http://evil.example]x[/url]"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_russian_and_english_tables_have_the_same_keys_and_placeholders() -> None:
    assert set(ru.T) == set(en.T)
    for key in ru.T:
        assert placeholders(ru.T[key]) == placeholders(en.T[key]), key


@pytest.mark.parametrize("table", [ru.T, en.T], ids=["ru", "en"])
def test_every_rejection_code_and_role_has_a_text(table: dict[str, str]) -> None:
    assert {f"reject.{code}" for code in REJECTION_CODES} <= set(table)
    assert {f"role.{role}" for role in Role} <= set(table)


def test_C4_a_hostile_nickname_is_never_rendered_as_markup_in_any_bot_message() -> None:
    """Every player-supplied string is escaped for BBCode: role PMs, the player list, counts, results."""
    g = Game.moscow()
    g.cast[4] = (HOSTILE, Role.CIVILIAN)
    for who in ("Шериф", "Дон", "Маф1", "Маф2", "М2", "М3", "М4"):
        g.vote("day 1", "+1h", who, HOSTILE)
    g.vote("day 1", "+2h", "М5", f"{HOSTILE} и ещё текст")  # rejected: its excerpt is quoted back
    r = g.run("night 1", "+1h")
    texts = [plain(m.text) for m in r.run.messages]
    assert any("evil.example" in t for t in texts)  # the name is shown...
    assert not any(re.search(r"\[/?url", t) for t in texts)  # ...but never as a tag
    assert not any("http://evil" in t for t in texts)  # ...nor as a link the forum would make
    assert r.died(HOSTILE) == ("day 1", "vote")


def test_english_by_option() -> None:
    g = Game.moscow(language="en")
    r = g.run("day 1", "+1h")
    assert any(t.startswith("The game begins") for t in r.posts())
    # the vote words are typed as the grammar has them (M-7, M-10), so the English opening post quotes them too
    nicks = sorted([n for n, _ in g.cast] + ["ннв", "помиловать всех", "повесить всех"], key=len, reverse=True)
    for text in r.posts() + r.pms("Шериф"):
        for nick in nicks:
            text = text.replace(nick, "")
        assert not re.search("[а-яё]", text, re.IGNORECASE), text
