"""What the bot says, in Russian (default) or English. Every player-supplied string goes through `escape`.

Texts are templates in one table per language (`ru.py`, `en.py`); this module only assembles them, so a new
language is a new table. Grammar is by construction (issue 11 item 2): a nickname only ever stands where the
sentence needs the nominative (after a dash or a colon, or as the subject), counts take their plural form from
the table's `forms.*` entries, verbs agree with the number of names, and no text uses a past tense that would
give a player a gender. Formatting is the board's own (BBCode or Markdown), through `forumbot.markup.Format`.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from forumbot.errors import SetupError
from forumbot.markup import get_format
from forumbot.model import CastChoice, Role, RoleCounts
from forumbot.texts import en, ru
from forumbot.texts.activity import ActivityTexts
from forumbot.texts.ending import EndingTexts
from forumbot.texts.gm import GmTexts
from forumbot.texts.guide import GuideTexts
from forumbot.texts.phases import PhaseTexts
from forumbot.texts.player_pms import PlayerTexts
from forumbot.texts.signup import SignupTexts
from forumbot.texts.voice import Voice

TABLES = {"ru": ru.T, "en": en.T}
PLURALS: dict[str, Callable[[int], int]] = {"ru": ru.plural, "en": en.plural}


def gm_language(languages: Sequence[str]) -> str:
    """The language the GMs' own tools speak (check-config, probe; issue 28 item 4), given their games' languages:
    English when every game is played in English, else Russian, the games' default."""
    return "en" if languages and all(lang == "en" for lang in languages) else "ru"


def setup_said(error: SetupError, t: Mapping[str, str]) -> str:
    """A setup the rules refuse, in the language of `t` where the error names its text (SetupError.told; issue
    28: "Free Hunt is played by 12 to 17 players" in a Russian GM's check-config), else as raised. A role, a cast
    and a choice of casts among its params are said in that language too, each role in the nominative after a
    dash where the table's `cast.part` puts it so («мафия — 3»), never declined."""
    if not error.key:
        return str(error)
    return t[error.key].format(**{name: _param(value, t) for name, value in error.params.items()})


def _param(value: object, t: Mapping[str, str]) -> object:
    if isinstance(value, Role):
        return t[f"role.{value}"]
    if isinstance(value, RoleCounts):
        return ", ".join(t["cast.part"].format(n=n, role=t[f"role.{role}"]) for role, n in value.counts)
    if isinstance(value, CastChoice):
        shown = [str(_param(cast, t)) for cast in value.casts]
        return f" {t['or']} ".join(f"({cast})" for cast in shown) if len(shown) > 1 else "".join(shown)
    return value


def in_both(key: str, **params: object) -> str:
    """A text in Russian, then in English, on one line: where no language can be known yet (a file not read yet,
    a language the texts do not have)."""
    return " / ".join(TABLES[language][key].format(**params) for language in ("ru", "en"))


def said_in(language: str, key: str, **params: object) -> str:
    """`key` in `language`; in Russian then English where the texts have no such language (issue 28)."""
    return TABLES[language][key].format(**params) if language in TABLES else in_both(key, **params)


def get_texts(language: str, escape: Callable[[str], str], timezone: str, markup: str = "bbcode",
              spoiler: str = "") -> "Texts":
    if language not in TABLES:
        raise SetupError(in_both("setup.language", language=language, known=", ".join(sorted(TABLES))))
    try:
        zone = ZoneInfo(timezone)
    except (KeyError, ValueError):
        raise SetupError(TABLES[language]["setup.timezone"].format(zone=timezone)) from None
    return Texts(Voice(TABLES[language], escape, zone, get_format(markup), PLURALS[language], spoiler))


class Texts:
    """Everything the bot says in one game's language and board: the shared voice `v` and one part per audience."""

    def __init__(self, v: Voice) -> None:
        self.v = v
        self.gm = GmTexts(v)
        self.players = PlayerTexts(v)
        self.guide = GuideTexts(v)
        self.ending = EndingTexts(v)
        self.activity = ActivityTexts(v)
        self.phases = PhaseTexts(v, self.activity)
        self.signup = SignupTexts(v, self.phases)
