"""The configuration's schema: the dataclasses a forumbot.toml is read into, the values its keys may take, and
what the installed engines declare (their traits)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Mapping

from forumbot.config.season import SeasonConfig
from forumbot.config.signup import SignupConfig
from forumbot.errors import ConfigError
from forumbot.forum.registry import engine_class
from forumbot.model import GameSetup, PlayerSpec, Schedule
from forumbot.texts import TABLES, gm_language

VARIANTS = ("moscow", "free_hunt")
MODES = ("live", "shadow")
LANGUAGES = ("ru", "en")
MAX_PHASE_HOURS = 24 * 365  # longer is a typo, and much longer overflows date arithmetic

# What an engine's adapter class declares, read here so that adding an engine touches only adapters/ and the
# entry-point registry: `settings` (the forum-table keys it takes besides FORUM_KEYS, passed to it by
# daemon.build_adapter), `prints_local_times` (pages print local times without a zone: read in `timezone_name`,
# which defaults to the zone of the games on that forum, since a board set up for a Moscow game shows Moscow
# time), `markup` ("bbcode" or "markdown"). An adapter named "module:attr" may take any key.


@dataclass(frozen=True)
class EngineTraits:
    settings: frozenset[str]
    prints_local_times: bool
    markup: str


@functools.cache
def engine_traits(engine: str) -> EngineTraits | None:
    """The traits of an installed engine (entry-point group "forumbot.adapters"); None for one not installed."""
    cls = engine_class(engine) if ":" not in engine else None
    if cls is None:
        return None
    return EngineTraits(frozenset(cls.settings), bool(cls.prints_local_times), str(cls.markup))


FORUM_KEYS = ("engine", "login", "base_url", "password_env", "markup")


@dataclass(frozen=True)
class ForumConfig:
    name: str
    engine: str  # an entry-point name of group "forumbot.adapters", or "module:attr"
    login: str  # the bot's account
    base_url: str = ""
    password_env: str = ""  # the environment variable holding the password ("" = no password)
    markup: str = "bbcode"  # how the forum renders posts: bbcode, or markdown (Discourse)
    extra: dict[str, Any] = field(default_factory=dict)  # any other keys, passed to the adapter

    def password(self, environ: dict[str, str]) -> str | None:
        return environ.get(self.password_env) if self.password_env else None

    def login_refused_hint(self) -> str:
        """What to fix when the board refused the bot's login: the variable holding the password, by name."""
        if not self.password_env:
            return f" (forums.{self.name} has no password_env: name the environment variable holding the password)"
        return (f" (check the password in the environment variable {self.password_env} and "
                f"forums.{self.name}.login = {self.login!r})")

    @property
    def timezone_name(self) -> str:
        """The zone the adapter reads the board's local times in ("" where the engine's dates carry one)."""
        return str(self.extra.get("timezone_name", ""))


@dataclass(frozen=True)
class GameConfig:
    name: str
    forum: str
    variant: str
    game_thread: str
    vote_thread: str
    players: tuple[PlayerSpec, ...]
    gms: tuple[str, ...]
    schedule: Schedule
    mode: str = "live"
    language: str = "ru"
    options: dict[str, Any] = field(default_factory=dict)
    shadow_to: str = ""  # who gets the shadow-mode PMs; default: the first GM
    pm_subject: str = ""  # subject of the bot's PMs; default: the game's name
    publish: bool = True  # its public pages, where [pages] is configured (issue 20)
    title: str = ""  # the game's name as players read it ("Осенняя мафия"); default: a readable form of `name`
    signup: SignupConfig | None = None  # [games.NAME.signup]: the players come from a sign-up (S-1)

    @property
    def readable_name(self) -> str:
        """The config key as words: "осень_2026" reads «осень 2026»."""
        return " ".join(self.name.replace("_", " ").replace("-", " ").split())

    @property
    def subject(self) -> str:
        """The bot's PM subject: `pm_subject`, else the game's `title`, else the key's readable form in the
        game's language: a bare config key ("autumn") read to Russian players as a stray word. A player's reply
        keeps the subject and a GM addresses a game by naming it, so each of these names the game
        (stored_game._names)."""
        if self.pm_subject:
            return self.pm_subject
        if self.title:
            return self.title
        return TABLES.get(self.language, TABLES["ru"])["pm.subject"].format(name=self.readable_name)

    @property
    def shadow_recipient(self) -> str:
        return self.shadow_to or (self.gms[0] if self.gms else "")

    @property
    def signup_thread(self) -> str:
        """The thread the sign-up is read from and posted to (S-1): its own, else the game thread."""
        return (self.signup.thread if self.signup is not None else "") or self.game_thread

    @property
    def keyed_threads(self) -> tuple[tuple[str, str], ...]:
        """Every thread of the game the bot reads, by its config key: the game's two and the sign-up's own
        (S-1; read during the game too, for its reserve words, S-4)."""
        own = self.signup.thread if self.signup is not None else ""
        return (("game_thread", self.game_thread), ("vote_thread", self.vote_thread)) + \
            ((("signup.thread", own),) if own else ())

    @property
    def threads(self) -> tuple[str, ...]:
        return tuple(thread for _, thread in self.keyed_threads)

    @property
    def planned_players(self) -> tuple[PlayerSpec, ...]:
        """The players, or for a sign-up (S-2) its N places as stand-ins: what the offline checks draw."""
        if self.signup is None:
            return self.players
        return tuple(PlayerSpec(f"place {i}") for i in range(1, self.signup.seats + 1))

    def setup(self, seed: int, bot: str, markup: str = "bbcode", planned: bool = False) -> GameSetup:
        return GameSetup(
            variant=self.variant, seed=seed, schedule=self.schedule,
            players=self.planned_players if planned else self.players, bot=bot,
            gms=self.gms, options=dict(self.options), language=self.language, markup=markup,
            game_url=self.game_thread, vote_url=self.vote_thread,
        )


@dataclass(frozen=True)
class Config:
    path: Path
    database_url: str
    forums: dict[str, ForumConfig]
    games: dict[str, GameConfig]
    poll_seconds: int = 300
    # Posts are resolved up to (cycle start - grace): a forum clock a little ahead of ours, or a post still
    # being written when the page was read, cannot slip past a deadline unseen.
    grace_seconds: int = 60
    retries: int = 3
    backoff_seconds: float = 5.0
    log_level: str = "INFO"
    pages: Any = None  # forumbot.config.pages.PagesConfig when [pages] is configured (issue 20)
    season: SeasonConfig | None = None  # [season] (S-5); the standings (S-6) read its `games`

    @property
    def state_dir(self) -> Path:
        """Where lock files live: beside the config."""
        return self.path.parent

    @property
    def gm_texts(self) -> Mapping[str, str]:
        """The texts the GMs' own tools speak (issue 28): English when every game is played in English, else
        Russian (texts.gm_language)."""
        return TABLES[gm_language([g.language for g in self.games.values()])]


class ConfigProblems(ConfigError):
    """A ConfigError listing several problems; str() is one line, `problems` has them one by one."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.problems = list(problems)
        head = f"{path}: {len(problems)} problem{'s' if len(problems) > 1 else ''}: "
        super().__init__(head + "; ".join(problems))

def known_engines() -> list[str]:
    """The engine names installed (entry-point group "forumbot.adapters"; forumbot ships its own there)."""
    return sorted({ep.name for ep in entry_points(group="forumbot.adapters")})

def shared_threads(games: Mapping[str, GameConfig], name: str) -> list[tuple[str, str]]:
    """(key, other game) for each thread of game `name` that another configured game on its forum also names.

    Not a problem in itself: a season plays game after game in the same threads, each game reading only what
    was posted from its own `game start` on. Two games may not *run* in one thread at once; `game start`
    refuses that, since only the database knows which games are running."""
    game = games[name]
    found = []
    for key in ("game_thread", "vote_thread"):
        thread = getattr(game, key)
        found += [(key, other.name) for other in games.values() if other.name != name and other.forum == game.forum
                  and thread in (other.game_thread, other.vote_thread)]
    return found
