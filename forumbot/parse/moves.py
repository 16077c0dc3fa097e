"""Night moves sent by PM: one move per line (C-12)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from forumbot.model import Move, MoveKind, RejectedLine, Rejection, Role
from forumbot.parse.inflect import loose_match
from forumbot.parse.nicknames import NickMatcher
from forumbot.parse.normalize import (
    WHITE_SPACE,
    Spans,
    has_text,
    keyword_form,
    keyword_within,
    keyword_words,
    normalize,
    strip_markup,
)

MOVE_WORDS: Mapping[MoveKind, tuple[str, ...]] = {
    MoveKind.CHECK: ("проверка", "проверяю", "check"),
    MoveKind.SHOT: ("убить", "убиваю", "выстрел", "стреляю", "kill", "shoot"),
    MoveKind.HEAL: ("лечу", "лечить", "лечение", "heal"),
    MoveKind.HUNT: ("охота", "охочусь", "hunt"),
    MoveKind.CONFIRM: ("подтверждаю", "принял", "confirm"),
    MoveKind.DON: ("дон", "don"),
    MoveKind.MODKILL: ("модкилл", "modkill"),
}
# C-2 counts any reply containing a confirm word; the feminine and past forms are the same reply.
CONFIRM_WORDS: tuple[str, ...] = ("подтверждаю", "принял", "приняла", "confirm", "confirmed")
EXECUTOR_WORDS: tuple[str, ...] = ("исполнитель", "by")
# C-12: a keyword may be followed by one of these before the nickname ("охочусь на Маша", "стреляю в Петя").
PREPOSITIONS: tuple[str, ...] = ("на", "в")
HUNT_STATUS_WORDS: Mapping[str, Role] = {
    "маф": Role.MAFIA,
    "мафия": Role.MAFIA,
    "мафию": Role.MAFIA,
    "мафиози": Role.MAFIA,
    "mafia": Role.MAFIA,
    "маньяк": Role.MANIAC,
    "маньяка": Role.MANIAC,
    "maniac": Role.MANIAC,
}

_KINDS = {keyword_form(word): kind for kind, words in MOVE_WORDS.items() for word in words}
_CONFIRM = frozenset(keyword_form(word) for word in CONFIRM_WORDS)
_EXECUTOR = frozenset(keyword_form(word) for word in EXECUTOR_WORDS)
_STATUS = {keyword_form(word): role for word, role in HUNT_STATUS_WORDS.items()}
_PREPOSITION = frozenset(keyword_form(word) for word in PREPOSITIONS)
# A word longer than this (normalised) is none of the words above; a PM line's words are looked for in this much
# of its normalised text (issue 17 item 23: NFKC expands a character up to 18-fold).
_WORD_LIMIT = 4 * max(len(w) for w in (*_KINDS, *_CONFIRM, *_EXECUTOR, *_STATUS, *_PREPOSITION)) + 4
LINE_LOOK = 100_000
_HEAD = re.compile(r"[\s:,]*([^\s:,]+)[\s:,]*(.*)", re.DOTALL)
_BARE_KINDS = (MoveKind.CHECK, MoveKind.SHOT, MoveKind.HEAL, MoveKind.DON)


def _word_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


class _Line:
    """One PM line being read, with what the sender may name."""

    def __init__(
        self,
        line: str,
        matcher: NickMatcher,
        *,
        variant: str,
        alive: Collection[str],
        everyone: Collection[str],
        bare_kind: MoveKind | None,
        sender: str | None,
    ) -> None:
        self.line = line
        self.matcher = matcher
        self.variant = variant
        self.alive = alive
        self.everyone = everyone
        self.bare_kind = bare_kind
        self.sender = sender

    def parse(self) -> Move | Rejection:
        m = _HEAD.match(self.line)
        if m is None:
            return Rejection("unknown_command", self.line)
        head, rest = m.group(1), m.group(2)
        kind = _KINDS.get(keyword_within(head, _WORD_LIMIT) or "")
        if kind is None:
            if _CONFIRM.intersection(keyword_words(self.line, LINE_LOOK)):
                return Move(MoveKind.CONFIRM)
            return self.bare()
        if kind is MoveKind.CONFIRM:
            return Move(MoveKind.CONFIRM)
        move = self.keyword_move(kind, head, rest)
        if isinstance(move, Move):
            return move
        # A nickname may begin with a move word ("Дон Корлеоне"); then the line may be a bare nickname.
        bare = self.bare()
        return bare if isinstance(bare, Move) else move

    def bare(self) -> Move | Rejection:
        """C-12: a bare nickname is the sender's only possible move; a hunt always needs its keyword."""
        if self.bare_kind in _BARE_KINDS:
            allowed = self.everyone if self.bare_kind is MoveKind.CHECK else self.alive
            found = self.matcher.match(self.line, allowed=allowed)
            if isinstance(found, str):
                return Move(self.bare_kind, found)
            if found.code in ("not_alive", "ambiguous_name"):
                return found
        return Rejection("unknown_command", self.line)

    def find(self, text: str, allowed: Collection[str] | None) -> str | Rejection:
        """The player `text` names: strictly (C-4), else in an inflected or short form (C-12, PMs only)."""
        strict = self.matcher.match(text, allowed=allowed)
        if isinstance(strict, str) or strict.code != "unknown_name":
            return strict
        return self.loosely(strict, normalize(text) if len(text) <= self.matcher.loose.limit * 4 else None)

    def loosely(self, strict: str | Rejection, key: str | None) -> str | Rejection:
        if isinstance(strict, str) or strict.code != "unknown_name":
            return strict
        loose = loose_match(key, self.matcher.loose, self.alive)
        return strict if loose is None else loose

    def keyword_move(self, kind: MoveKind, head: str, rest: str) -> Move | Rejection:
        if kind is MoveKind.MODKILL:
            return self.modkill(rest)
        move = self.keyword_argument(kind, head, rest)
        after = self.after_preposition(rest)
        if isinstance(move, Move) or after is None:
            return move
        # The whole rest first, so a nickname that starts with "на" or "в" still matches as written.
        again = self.keyword_argument(kind, head, after)
        return again if isinstance(again, Move) or move.code == "unknown_name" else move

    @staticmethod
    def after_preposition(rest: str) -> str | None:
        """`rest` without a leading preposition standing as a word, or None if it has none (C-12)."""
        spans = _word_spans(rest)
        if not spans or keyword_within(rest[spans[0][0] : spans[0][1]], _WORD_LIMIT) not in _PREPOSITION:
            return None
        return rest[spans[0][1] :]

    def keyword_argument(self, kind: MoveKind, head: str, rest: str) -> Move | Rejection:
        if not has_text(rest):
            return Rejection("missing_argument", head)
        if kind is MoveKind.CHECK:
            return self.named(kind, self.find(rest, self.everyone))
        if kind is MoveKind.SHOT:
            return self.shot(rest)
        if kind is MoveKind.HUNT:
            return self.hunt(rest)
        return self.named(kind, self.find(rest, self.alive))

    @staticmethod
    def named(kind: MoveKind, found: str | Rejection) -> Move | Rejection:
        return found if isinstance(found, Rejection) else Move(kind, found)

    def modkill(self, rest: str) -> Move | Rejection:
        """M-12: `модкилл` alone or with the sender's own nick; the target None means the sender."""
        if not has_text(rest):
            return Move(MoveKind.MODKILL)
        found = self.matcher.match(rest)
        if isinstance(found, Rejection):
            return found
        if self.sender is None:
            return Move(MoveKind.MODKILL, found)  # the caller compares it with the sender
        if found == self.sender or found == self.matcher.match(self.sender):
            return Move(MoveKind.MODKILL)
        return Rejection("modkill_other", found)

    @staticmethod
    def splits(rest: str, words: frozenset[str]) -> list[tuple[int, int]]:
        """(end of before, start of after) of every split of `rest` around one of `words` standing as a word."""
        spans = _word_spans(rest)
        return [spans[i] for i in range(1, len(spans) - 1) if keyword_within(rest[spans[i][0] : spans[i][1]], _WORD_LIMIT) in words]

    def shot(self, rest: str) -> Move | Rejection:
        whole = self.find(rest, self.alive)
        if isinstance(whole, str):
            return Move(MoveKind.SHOT, whole)
        # Every part is normalised in one pass (`Spans`): `kill X by by by …` is linear in its length.
        splits = self.splits(rest, _EXECUTOR)
        parts = Spans(rest, WHITE_SPACE, self.matcher.key_limit) if splits else None
        first: Rejection | None = None
        for before, after in splits:
            assert parts is not None
            key = parts.key(0, before)
            target = self.loosely(self.matcher.match_key(key, self.alive), key)
            if isinstance(target, Rejection):
                if first is None:
                    quoted = self.matcher.match(rest[:before], allowed=self.alive)  # quoting its text
                    first = quoted if isinstance(quoted, Rejection) else target
                continue
            if self.variant != "free_hunt":
                # Only Free Hunt names an executor (H-7); Moscow's grammar has no such part.
                return Rejection("unknown_command", self.line)
            key = parts.key(after, len(rest))
            executor = self.loosely(self.matcher.match_key(key, self.alive), key)
            if isinstance(executor, str):
                return Move(MoveKind.SHOT, target, executor=executor)
            if first is None:
                quoted = self.matcher.match(rest[after:], allowed=self.alive)  # quoting its text
                why = quoted if isinstance(quoted, Rejection) else executor
                first = Rejection("bad_executor", why.detail) if why.code == "not_alive" else why
        if first is not None and whole.code == "unknown_name":
            return first
        return whole

    def hunt(self, rest: str) -> Move | Rejection:
        whole = self.find(rest, self.alive)
        if isinstance(whole, str):
            return Move(MoveKind.HUNT, whole)
        spans = _word_spans(rest)
        if len(spans) < 2 or whole.code != "unknown_name":
            return whole
        name_text, last = rest[: spans[-1][0]], rest[spans[-1][0] :]
        role = _STATUS.get(keyword_within(last, _WORD_LIMIT) or "")
        found = self.find(name_text, self.alive)
        if role is not None:
            return found if isinstance(found, Rejection) else Move(MoveKind.HUNT, found, guess=role)
        if isinstance(found, str):
            return Rejection("bad_hunt_status", last.strip())
        return whole


def parse_pm(
    text: str,
    matcher: NickMatcher,
    *,
    variant: str,
    alive: Collection[str],
    everyone: Collection[str],
    bare_kind: MoveKind | None = None,
    sender: str | None = None,
) -> list[Move | RejectedLine]:
    """Each non-empty line of a player's PM as a move or a rejected line, in order (C-12)."""
    out: list[Move | RejectedLine] = []
    for raw in strip_markup(text).splitlines():
        line = raw.strip()
        if not has_text(line):
            continue
        parsed = _Line(
            line,
            matcher,
            variant=variant,
            alive=alive,
            everyone=everyone,
            bare_kind=bare_kind,
            sender=sender,
        ).parse()
        out.append(RejectedLine(line, parsed) if isinstance(parsed, Rejection) else parsed)
    return out
