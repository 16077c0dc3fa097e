"""The bot's Discourse account as check-config sees it: what it lacks to run a game, and what a forum table's auth
settings cost. Functions handed what they read (issue 27 item 2: no mixin)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence
from urllib.parse import quote

from adapters.discourse.text import username_lower
from forumbot.errors import PageFormatChanged
from forumbot.forum.adapter import ConfigWarning

USER_API_DAILY = 2880  # GlobalSetting.max_user_api_reqs_per_day
REQUESTS_PER_CYCLE = 3  # at least: the game thread, the vote thread and the PM list


def account_problems(username: str, get_json: Callable[[str], Mapping[str, Any]], topic_ids: Sequence[str],
                     mine: Callable[[Mapping[str, Any]], bool]) -> list[str]:
    """What the bot's account `username` lacks to run a game, from /u/{username}.json (UserCardSerializer:
    trust_level, admin, moderator, can_send_private_messages) and, for each of `topic_ids`, who opened it;
    `get_json` reads a path of the board's API, `mine` tells the bot's own post or user."""
    data = get_json(f"u/{quote(username_lower(username), safe='')}.json")
    user = data.get("user")
    if not isinstance(user, dict) or "trust_level" not in user:
        raise PageFormatChanged(f"discourse: /u/{username}.json has no user.trust_level")
    level = int(user.get("trust_level") or 0)
    staff = bool(user.get("admin") or user.get("moderator"))
    problems: list[str] = []
    if staff:
        return problems
    can_pm = user.get("can_send_private_messages")
    if can_pm is False or (can_pm is None and level < 1):
        problems.append(f"account {username} may not send PMs (trust level {level}; Discourse lets "
                        "trust level 1 and up send them, personal_message_enabled_groups): raise it to "
                        "trust level 1 or make it a moderator")
    if level < 1:
        problems.append(f"account {username} is trust level 0: at most 3 replies in a topic it did not "
                        "open (newuser_max_replies_per_topic) and one post per 30 s: raise it to trust "
                        "level 1 or make it a moderator")
    for tid in dict.fromkeys(topic_ids):
        info = get_json(f"t/{tid}.json")
        opener = (info.get("details") or {}).get("created_by") or {}
        if mine(opener) or (
                user.get("id") is not None and info.get("user_id") == user.get("id")):
            continue  # the topic's opener may post any number of times in a row
        problems.append(f"account {username} is not staff and did not open topic {tid}: Discourse "
                        "refuses its 4th post in a row there (max_consecutive_replies, default 3), so a "
                        "quiet thread stops the vote counts: make the account a moderator, open the "
                        "thread with it, or set max_consecutive_replies to 0")
    return problems

def config_warnings(forum: Any, poll_seconds: float) -> list[ConfigWarning | str]:
    """What check-config warns about in a Discourse forum table (`forum`: a ForumConfig), as facts the shell words
    in the GMs' language."""
    options: Mapping[str, Any] = forum.extra
    admin = options.get("admin_api_key_env") or options.get("admin_api_key")
    user = options.get("user_api_key_env") or options.get("api_key")
    out: list[ConfigWarning | str] = []
    if user and not admin and poll_seconds < REQUESTS_PER_CYCLE * 86400 / USER_API_DAILY:
        needed = 86400 / max(float(poll_seconds), 1.0) * REQUESTS_PER_CYCLE
        out.append(ConfigWarning("discourse.user_key_daily", {
            "daily": f"{USER_API_DAILY:,}", "poll": f"{poll_seconds:g}", "needed": f"{needed:,.0f}",
            "every": REQUESTS_PER_CYCLE * 86400 // USER_API_DAILY}))
    if not admin and not user:
        out.append(ConfigWarning("discourse.no_key"))
    if admin and not options.get("api_user_id") and not forum.login.isascii():
        out.append(ConfigWarning("discourse.login_not_ascii"))
    if options.get("admin_api_key") or options.get("api_key"):
        out.append(ConfigWarning("discourse.key_in_file"))
    return out
