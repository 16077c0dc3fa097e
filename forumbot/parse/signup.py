"""The words of a sign-up thread (S-1): a post is a join, a leave or a reserve word only when it holds that word
alone, after C-4 normalisation; anything else is talk. And the GMs' sign-up commands (S-3)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from forumbot.model import Rejection
from forumbot.parse.normalize import keyword_form, strip_markup

SignupWord = Literal["join", "leave", "reserve"]

JOIN_WORDS = ("+", "я", "в игре", "играю", "участвую", "in", "join")
LEAVE_WORDS = ("-", "выхожу", "не играю", "out", "leave")
RESERVE_WORDS = ("запас", "на замену", "sub")

# C-4 strips surrounding punctuation, which is all a bare `-` is: it is read before normalisation instead.
_BARE_MINUS = frozenset({"-", "\u2212"})
_WORDS: dict[str, SignupWord] = {
    **{keyword_form(w): "join" for w in JOIN_WORDS},
    **{keyword_form(w): "leave" for w in LEAVE_WORDS if w != "-"},
    **{keyword_form(w): "reserve" for w in RESERVE_WORDS},
}
# A sign-up word is a few characters: a longer post is talk, and is never normalised whole.
_LONGEST = 40
NO_NOTICE_WORDS = ("не писать", "stop")  # S-5: never PM me about a sign-up again
_NO_NOTICE = frozenset(keyword_form(w) for w in NO_NOTICE_WORDS)


def signup_word(text: str) -> SignupWord | None:
    """What a sign-up thread post says (S-1), or None when it is talk."""
    bare = " ".join(unicodedata.normalize("NFKC", strip_markup(text)).split())
    if len(bare) > _LONGEST:
        return None
    if bare in _BARE_MINUS:
        return "leave"
    return _WORDS.get(keyword_form(bare))


OFFER_WORDS = {"принимаю": "accept", "accept": "accept", "нет": "no", "no": "no"}  # S-4: a seat offered
_OFFER = {keyword_form(w): answer for w, answer in OFFER_WORDS.items()}


def offer_answer(text: str) -> Literal["accept", "no"] | None:
    """A reserve player's answer to a seat offered by PM (S-4): the word alone after C-4, or None."""
    bare = " ".join(strip_markup(text).split())
    return _OFFER.get(keyword_form(bare)) if len(bare) <= _LONGEST else None  # type: ignore[return-value]


def says_no_notice(text: str) -> bool:
    """A PM holding only `не писать` (`stop`), after C-4 normalisation (S-5)."""
    bare = " ".join(strip_markup(text).split())
    return len(bare) <= _LONGEST and keyword_form(bare) in _NO_NOTICE


# --- a GM's PM while the sign-up is open (S-3): add, remove, close now; `статус` and `отмена` as in a game


@dataclass(frozen=True)
class AddPlayer:
    nick: str  # the account as the GM wrote it


@dataclass(frozen=True)
class RemovePlayer:
    nick: str


@dataclass(frozen=True)
class CloseSignup:
    pass


@dataclass(frozen=True)
class SignupStatus:
    pass


@dataclass(frozen=True)
class SignupUndo:
    pass


SignupCommand = AddPlayer | RemovePlayer | CloseSignup | SignupStatus | SignupUndo
SIGNUP_COMMAND_WORDS = {"add": ("добавить", "add"), "remove": ("убрать", "remove"),
                        "close": ("закрыть набор", "close signup"), "status": ("статус", "status"),
                        "undo": ("отмена", "undo")}
_BY_WORD = {keyword_form(w): name for name, words in SIGNUP_COMMAND_WORDS.items() for w in words}
_MAX_NAME = 200


def parse_signup_command(text: str) -> SignupCommand | Rejection:
    """The first non-empty line of a GM's PM during the sign-up, as a command."""
    line = next((" ".join(strip_markup(ln).split()) for ln in text.splitlines() if strip_markup(ln).strip()), "")
    if not line:
        return Rejection("empty")
    words = line.split(" ")
    whole = _BY_WORD.get(keyword_form(line)) if len(line) <= _LONGEST else None
    if whole == "close":
        return CloseSignup()
    if whole == "status":
        return SignupStatus()
    if whole == "undo":
        return SignupUndo()
    name = _BY_WORD.get(keyword_form(words[0]))
    if name not in ("add", "remove"):
        return Rejection("unknown_command", line)
    nick = " ".join(words[1:]).strip().strip("\"«»“”„")
    if not nick:
        return Rejection("missing_argument", words[0])
    if len(nick) > _MAX_NAME:
        return Rejection("text_too_long", str(_MAX_NAME))
    return AddPlayer(nick) if name == "add" else RemovePlayer(nick)
