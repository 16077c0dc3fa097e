"""Expected failures, each with a message fit for a user. The CLI prints them in one line, no traceback."""

from __future__ import annotations


class ForumbotError(Exception):
    """Base of every expected failure."""


class SetupError(ForumbotError):
    """A game that breaks a setup rule: wrong player count, unknown role, duplicate nickname, bad cast.

    str() is the English. One made by `told` also names its text in the texts tables (`key`, with `params`), so
    the config's problems say it in the GMs' language (issue 28): the rules import no texts."""

    key: str = ""
    params: dict[str, object] = {}

    @classmethod
    def told(cls, key: str, english: str, **params: object) -> "SetupError":
        """The error whose text is `key` in the texts tables; `english` is the en table's template for it
        (tests/test_issue28_setup_texts.py holds the two the same)."""
        error = cls(english.format(**params))
        error.key, error.params = key, params
        return error


class TranscriptError(ForumbotError):
    """A replay transcript that is not valid JSON or lacks / mistypes a field."""


class ConfigError(ForumbotError):
    """A configuration file with a missing or wrong field."""


class UnsafeName(ForumbotError):
    """A game's or forum's name that cannot be a path component (forumbot/names.py)."""


# --- forum errors, raised by adapters so the daemon can react instead of crashing --------------------


class ForumError(ForumbotError):
    """Anything that went wrong talking to a forum."""


class ForumUnavailable(ForumError):
    """Network error, timeout, HTTP 5xx, or retries exhausted."""


class LoginRequired(ForumError):
    """The forum served a login page (session expired, or bad credentials on login)."""


class CaptchaRequired(ForumError):
    """A captcha or an anti-bot challenge stands in the way; a human must act."""


class FloodLimited(ForumError):
    """The forum refused an action as too soon after the previous one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FormRejected(ForumError):
    """The forum refused what was sent, for good: sending it again would be refused again (no such recipient,
    a text it will not take, a locked topic, a full quota). The outbox sets such a message aside."""


class FormTransient(FormRejected):
    """The forum refused a form for now, not for what it carried: its token expired, it was posted too fast,
    the topic moved on while replying. Nothing was posted; the same message is sent again next cycle."""


class PmNotAllowed(FormRejected):
    """The board does not let the bot's account send private messages (its group's right or quota): every PM would
    be refused alike until an administrator changes that. `said` holds the board's own words, which the handshake
    quotes to the GM in his language."""

    def __init__(self, message: str, said: str) -> None:
        super().__init__(message)
        self.said = said


class PartlySent(ForumError):
    """A PM sent in parts (MyBB: 5 recipients per PM) reached `sent`, then sending to `remaining` failed with
    `cause`: the outbox sends it on to `remaining` only, so those who have it do not get it twice."""

    def __init__(self, message: str, sent: list[str], remaining: list[str], cause: ForumError) -> None:
        super().__init__(message)
        self.sent, self.remaining, self.cause = sent, remaining, cause


class PostQueued(FormRejected):
    """The forum took the post but holds it for a moderator's approval (Discourse: `"action": "enqueued"`): it is
    not on the forum yet, and sending it again would queue a second copy. A FormRejected, so that code knowing
    only refusals neither retries nor resends it."""

    def __init__(self, message: str, pending_id: str | None = None) -> None:
        super().__init__(message)
        self.pending_id = pending_id


class PageFormatChanged(ForumError):
    """A page no longer has the markup the engine profile expects."""


class PageIncomplete(ForumUnavailable):
    """A page came back cut short (HTTP 200, but it does not end where a complete page ends): what it holds is
    not all there is, so nothing is decided on it. Transient like a dropped connection: read again later."""


class PageShowsError(PageFormatChanged):
    """A page read to decide on shows the engine's error box (or a 403/404) where content was expected, the
    logged-in marks intact: it says nothing of the inbox or topic it stands for, so nothing is decided on it
    (issue 17 item 16). A PageFormatChanged (the page is not the one expected): not retried within the tick,
    the next tick reads again."""


class PostGone(ForumError):
    """A post's own link says the post is not there (HTTP 404 or 403, or the engine's error box, where the post's
    page was expected): deleted, or hidden from the bot. Raised by `reread_from` for the post it starts at, so
    the re-read can start at the next one (C-11)."""
