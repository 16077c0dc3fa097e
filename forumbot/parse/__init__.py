"""Pure parsers: formatting, nicknames, votes, night moves and GM commands. No I/O, no clock."""

from forumbot.parse.accounts import account_key
from forumbot.parse.commands import parse_command, parse_duration
from forumbot.parse.moves import parse_pm
from forumbot.parse.nicknames import NickMatcher
from forumbot.parse.normalize import fold_lookalikes, keyword_form, normalize, strip_markup
from forumbot.parse.votes import (
    DEFAULT_AGITATION_MARKERS,
    find_agitation,
    house_vote,
    parse_hunt_vote,
    parse_moscow_vote,
    parse_runoff_vote,
)

__all__ = [
    "DEFAULT_AGITATION_MARKERS",
    "NickMatcher",
    "account_key",
    "find_agitation",
    "fold_lookalikes",
    "keyword_form",
    "normalize",
    "parse_command",
    "parse_duration",
    "house_vote",
    "parse_hunt_vote",
    "parse_moscow_vote",
    "parse_pm",
    "parse_runoff_vote",
    "strip_markup",
]
