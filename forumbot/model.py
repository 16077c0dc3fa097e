"""Value types shared by every layer: what players send, what parsers understand, what the bot says.

`parse` and `rules` import nothing of the project's but this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Mapping


class Role(StrEnum):
    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"
    DOCTOR = "doctor"
    MANIAC = "maniac"


class Team(StrEnum):
    TOWN = "town"
    MAFIA = "mafia"
    MANIAC = "maniac"


ROLE_TEAM: dict[Role, Team] = {
    Role.CIVILIAN: Team.TOWN,
    Role.SHERIFF: Team.TOWN,
    Role.DOCTOR: Team.TOWN,
    Role.MAFIA: Team.MAFIA,
    Role.DON: Team.MAFIA,
    Role.MANIAC: Team.MANIAC,
}


@dataclass(frozen=True)
class RoleCounts:
    """A cast as a setup error names it (SetupError.told: "option cast asks for 6 civilian, 1 sheriff"): how many
    players of each role, in order. str() is the English, each role by its config name; texts.setup_said names
    each role in the GMs' language, as `{role} — {n}` where the table says so (issue 28: the rules import no texts)."""

    counts: tuple[tuple[Role, int], ...]

    @classmethod
    def of(cls, counts: Mapping[Role, int]) -> RoleCounts:
        """The counts of a mapping, the roles in `Role`'s order (the town's first, as M-1 lists them)."""
        return cls(tuple((role, counts[role]) for role in Role if role in counts))

    def __str__(self) -> str:
        return ", ".join(f"{n} {role}" for role, n in self.counts)


@dataclass(frozen=True)
class CastChoice:
    """The casts a rule allows, any one of them (H-1: with 12 players, 3 mafia and a maniac, or 3 mafia without):
    str() is the English, each cast in brackets when there is a choice; texts.setup_said says it in the GMs'."""

    casts: tuple[RoleCounts, ...]

    def __str__(self) -> str:
        return " or ".join(f"({cast})" if len(self.casts) > 1 else str(cast) for cast in self.casts)


class Where(StrEnum):
    """Where an input was written or a message goes."""

    GAME = "game"  # the game thread
    VOTE = "vote"  # the vote thread
    # the sign-up's own thread (S-1, `signup.thread`): its posts as inputs, the sign-up's posts as messages; a
    # sign-up run in the game thread uses GAME
    SIGNUP = "signup"
    PM = "pm"  # a private message to (or from) the bot
    LOCK = "lock"  # a message only: a thread closed or opened; `to` names the thread, `text` the action
    # an input only: a PM written to the bot and others at once (M-15's conference conversation, or a PM CC'd to
    # someone): never a player's move; a GM's is his command all the same (engine/fold.py)
    SHARED = "shared"
    # an input only: the forum refused for good to deliver the bot's PM to `author` (a full inbox, PMs closed);
    # `text` is that PM's message key (S-4: an offer it carried passes on)
    UNDELIVERED = "undelivered"


@dataclass(frozen=True)
class Input:
    """One thing a forum account sent: a post in a watched thread or a PM to the bot.

    `text` is the post with quotes, spoilers, code boxes and signature already removed by the adapter;
    it may still hold BBCode/HTML formatting (parsers strip it, C-4).

    Where the forum shows the time only roughly ("1 минуту назад", whole minutes), `at` is the earliest
    instant it allows and `at_latest` the latest: a range across a deadline counts before it (C-1).
    """

    at: datetime  # aware
    where: Where
    author: str  # forum nickname as the forum shows it
    text: str
    edited_at: datetime | None = None
    id: str = ""  # the forum's id for the post or PM; unique per (forum, where)
    first_text: str | None = None  # the text the bot first stored, when an edit changed it since (C-11)
    at_latest: datetime | None = None  # the latest instant a rough forum time allows; None: `at` is exact (C-1)
    deleted_at: datetime | None = None  # the post was gone from the forum by then (a moderator deleted it, C-11)
    # accounts the forum said it does not have, asked when the bot stored this PM (a GM `замена`'s new account)
    missing_accounts: tuple[str, ...] = ()
    # when the bot first read it (the store's first_seen_at); None: unknown, never late (C-13)
    read_at: datetime | None = None


# ---------------------------------------------------------------------------------------------------
# What the parsers understand


class Special(StrEnum):
    """Vote words that are not nicknames (M-7, M-10)."""

    NO_LYNCH = "no_lynch"  # ннв
    PARDON_ALL = "pardon_all"  # помиловать всех
    HANG_ALL = "hang_all"  # повесить всех


Target = str | Special  # a str is a canonical player nickname


@dataclass(frozen=True)
class Rejection:
    """Why an input was not accepted. `code` is one of REJECTION_CODES; texts render it per language.

    `detail` carries the offending fragment or the names involved, shown to the player as is (escaped).
    """

    code: str
    detail: str = ""


REJECTION_CODES: frozenset[str] = frozenset(
    {
        "empty",  # nothing left after removing formatting
        "not_bold",  # the nickname is not bold
        "not_colored",  # the nickname is not in one of the game's colours; detail lists them
        "unknown_name",  # matches no player who may be named there
        "ambiguous_name",  # matches more than one player; detail lists them
        "not_alive",  # names a player who is dead (or otherwise not allowed there); detail: the nick
        "not_a_vote",  # text that is not a vote in this variant's grammar (M-7, H-3)
        "not_a_hang_all_vote",  # M-10: a hang-all runoff post that is neither hang-all nor pardon-all
        "bad_runoff_part",  # the part after "/" is not a player, pardon-all or hang-all (M-7)
        "unknown_command",  # a PM line the move grammar does not know (C-12)
        "bad_executor",  # Free Hunt executor is not an alive mafia member (H-7)
        "bad_hunt_status",  # hunt status word is not mafia/maniac (C-12)
        "modkill_other",  # "модкилл NICK" naming someone else (C-12)
        "bad_duration",  # GM extend with an unreadable duration
        "duration_not_positive",  # GM extend by zero or less
        "duration_too_long",  # GM extend by more than parse.MAX_EXTEND
        "missing_argument",  # GM command without its argument(s)
        "quote_unclosed",  # GM command with an unclosed double quote
        "not_a_player",  # a vote-thread post by an account that plays no seat (C-3)
        "dead_voter",  # a vote-thread post by a dead player (C-3)
        "duration_too_short",  # GM extend by less than a minute (issue 17 item 22)
        "say_too_long",  # GM say longer than parse MAX_SAY; detail: the cap
        "reason_too_long",  # GM modkill reason longer than MAX_REASON; detail: the cap
        "text_too_long",  # any other GM command argument longer than MAX_TEXT; detail: the cap
        "invisible_name",  # GM replace or alias to a name that shows nothing (zero-width, spaces, markup)
        "alias_reserved",  # GM alias equal to a word a vote reads before any name (ннв, a pass word)
    }
)


@dataclass(frozen=True)
class Vote:
    """A vote post understood (M-7, H-3). `runoff` is Moscow's optional part after "/"."""

    target: Target
    runoff: Target | None = None


@dataclass(frozen=True)
class Agitation:
    """A vote-thread post urging others to vote (H-4); `marker` is the marker found."""

    marker: str


class MoveKind(StrEnum):
    CHECK = "check"
    SHOT = "shot"
    HEAL = "heal"
    HUNT = "hunt"
    CONFIRM = "confirm"
    DON = "don"  # Moscow Don nomination (M-1)
    MODKILL = "modkill"  # tactical modkill (M-12)


@dataclass(frozen=True)
class Move:
    """One PM line understood as a move (C-12). Nicknames are canonical."""

    kind: MoveKind
    target: str | None = None
    executor: str | None = None  # Free Hunt shot: who fires (H-7); None means the sender
    guess: Role | None = None  # hunt: Role.MAFIA or Role.MANIAC; None means mafia (H-10)


@dataclass(frozen=True)
class RejectedLine:
    """A PM line (or vote post) that was not understood, and why."""

    text: str
    reason: Rejection


# --- GM commands (DESIGN.md) -----------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    pass


@dataclass(frozen=True)
class Modkill:
    nick: str  # canonical
    reason: str = ""


@dataclass(frozen=True)
class Replace:
    old: str  # canonical nick of the seat
    new: str  # the new account's nickname as written


@dataclass(frozen=True)
class Extend:
    by: timedelta


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Resume:
    pass


@dataclass(frozen=True)
class EndPhase:
    pass


@dataclass(frozen=True)
class SetVote:
    voter: str  # canonical
    vote: Vote


@dataclass(frozen=True)
class Alias:
    alias: str  # as written
    nick: str  # canonical


@dataclass(frozen=True)
class Say:
    text: str


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Help:
    pass


Command = Status | Modkill | Replace | Extend | Pause | Resume | EndPhase | SetVote | Alias | Say | Undo | Help


# ---------------------------------------------------------------------------------------------------
# What the bot says


@dataclass(frozen=True)
class Message:
    """A message the bot sends. `key` is stable across re-derivations: the outbox's identity for it."""

    at: datetime
    where: Where
    to: str | None  # recipient nick for a PM, None for a post
    text: str
    key: str
    # the phase whose resolution makes this PM moot (a night move's acknowledgement): still unsent by then, it is
    # never sent (C-14, issue 28 item 9: «выстрел состоится» after the night's result); "" for every other message
    moot_after: str = ""


@dataclass(frozen=True)
class Death:
    phase: str  # "setup", "day 1", "night 1", ...
    cause: str  # vote | runoff | mafia | maniac | hunt | failed_hunt | modkill | autokill


@dataclass(frozen=True)
class ReadSpan:
    """C-14: a run of the daemon's ticks whose reads of a game's threads had one outcome (`ok`: every thread
    answered), from the first tick's time to the last's. The ticks inside a successful span are never further
    apart than the game's `downtime_grace`, so no stretch without a read that could disturb a deadline hides in
    one; a tick after a longer pause opens a new span."""

    first: datetime
    last: datetime
    ok: bool


@dataclass(frozen=True)
class Schedule:
    """When the game runs (C-1). Lengths are elapsed time."""

    start: datetime  # Day 1 opens; aware
    day: timedelta = timedelta(hours=24)
    night: timedelta = timedelta(hours=12)
    runoff: timedelta = timedelta(hours=12)
    timezone: str = "Europe/Moscow"
    setup_opens: datetime | None = None  # when roles go out (the game's start command); default: `start`
    # C-13: when the bot resolved each phase, by label ("day 1"): a deadline gets only the inputs read by then;
    # and when it first made each interim count (by its key) and reminder ("remind:day 1"): the same for those
    resolved: tuple[tuple[str, datetime], ...] = ()
    # C-14: the game's reads as spans of ticks with one outcome, in time order; a deadline the bot could not read
    # before for longer than `downtime_grace` costs nobody a missing vote. Empty: not recorded (a transcript
    # without `reads`): no deadline is disturbed
    reads: tuple[ReadSpan, ...] = ()


@dataclass(frozen=True)
class PlayerSpec:
    nick: str
    role: Role | None = None  # None: drawn with the seed


@dataclass(frozen=True)
class GameSetup:
    """Everything fixed before the game starts; with the inputs it determines the whole game."""

    variant: str  # "moscow" | "free_hunt"
    seed: int
    schedule: Schedule
    players: tuple[PlayerSpec, ...]
    bot: str
    gms: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)  # variant options: mafia, maniac, edited_votes, ...
    language: str = "ru"
    markup: str = "bbcode"  # how the forum renders posts: "bbcode" or "markdown" (escaping)
    game_url: str = ""  # the threads' addresses, linked from the bot's posts (issue 17 item 6); "" for none
    vote_url: str = ""
    signup: object = None  # forumbot.engine.signup_values.SignupSetup: the players come from a sign-up (S-1)
    reserve: object = None  # forumbot.engine.signup_values.ReserveSetup: the sign-up's reserve, in play (S-4)
