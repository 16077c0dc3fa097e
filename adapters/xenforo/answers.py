"""What XenForo's refusals say, and what the GM is to do about each.

XF answers a form's error with 200 (XF\\Mvc\\Controller::error's default code), noPermission with 403 and a
missing record with 404; the JSON renderer lists the phrase in `errors` whatever the code, so the phrase, not the
status, tells them apart. The phrase keys are XF's own (their English and Russian texts: unverified, see the
profile's `messages`):
- `you_may_only_invite_x_members_to_join_this_conversation` (2.3: `..._this_direct_message`): more recipients than
  the bot's group may invite (Service\\Conversation\\Creator, the `maxRecipients` permission);
- `you_cannot_start_conversation_with_yourself` (Repository\\Conversation::getValidatedRecipients): the one
  recipient is the bot;
- `you_may_not_start_a_conversation_with_the_following_recipients_x` (the same, User::canStartConversationWith):
  members whose privacy ("Start conversations with you") or group shuts the bot out;
- `do_not_have_permission` (Controller::noPermission): e.g. a group without "Start conversations";
- `your_account_has_temporarily_been_locked_due_to_failed_login_attempts` (Pub\\Controller\\Login with the option
  loginLimit "block", once a row of XF's getAttemptLimits is reached: see COUNTED); with loginLimit "captcha" the
  login view asks for a CAPTCHA (`did_not_complete_the_captcha_verification_properly`).
"""

from __future__ import annotations

from typing import Any, Callable

from lxml import html as lxml_html

from adapters.html.dom import clean_text, select
from forumbot.errors import CaptchaRequired, ForumError, FormRejected, LoginRequired, PmNotAllowed

Matches = Callable[[str, str], Any]

# getAttemptLimits (2.2 Service\User\Login, 2.3 LoginLimitTrait): the bot's name from its address, and every name
# from its address, so a second bot with a wrong password on the same host locks this one too
COUNTED = ("XF counts failed logins of the bot's name, 4 in 5 minutes or 8 in 30, and of any name from this "
           "address, 8 in 5 minutes or 16 in 30")


def refusal(matches: Matches, text: str, action: str = "post") -> ForumError | None:
    """The typed error for one of XF's refusals, in the board's own words and with the next step; None for a
    text the shared reading (flood, token, wrong password) handles. `action`: what was refused ("pm",
    "pm_start" for a conversation: a noPermission there is the bot's group without "Start conversations")."""
    said = " ".join(text.split())
    if matches("login_required", text):
        return LoginRequired(f"xenforo: not logged in: {said}")
    if matches("login_locked", text):
        return LoginRequired(f"xenforo: the board locked the bot's login after failed attempts: «{said}» "
                             f"({COUNTED}); check password_env and any other bot on this host, wait, then run "
                             "`forumbot tick`")
    if matches("recipient_privacy", text):
        return FormRejected(f"xenforo: the board refused the conversation for these members' settings: «{said}» "
                            "(each must let members start conversations with them: Privacy, \"Start "
                            "conversations with you\"; or give the bot's user group \"Bypass user privacy\")")
    if matches("no_recipient", text):
        return FormRejected(f"xenforo: no such user: {said}")
    if matches("self_conversation", text):
        return FormRejected(f"xenforo: the board refused a conversation with the bot's own account: «{said}» (the "
                            "recipient is the bot itself: check the game's gms and players, the bot cannot be one)")
    if matches("recipient_limit", text):
        return FormRejected(f"xenforo: the board refused that many recipients in one conversation: «{said}» (raise "
                            "the bot's user group permission \"Maximum number of people invited to a "
                            "conversation\")")
    if matches("no_permission", text) and action in ("pm", "pm_start"):
        return PmNotAllowed(f"xenforo: the board does not let the bot start conversations: «{said}» (give the "
                            "bot's user group the permission \"Start conversations\")", said)
    if matches("no_permission", text):
        return FormRejected(f"xenforo: the board says the bot's account may not do this: «{said}» (give the bot's "
                            "user group the permission: \"Start conversations\" for PMs, \"Reply to threads\" for "
                            "posts)")
    return None


def captcha_at_login(said: str) -> CaptchaRequired:
    return CaptchaRequired(f"xenforo: the board asks for a CAPTCHA to log in after failed attempts: «{said}» "
                           f"({COUNTED}); check password_env and any other bot on this host, log in once as the "
                           "bot in a browser (or wait until XF forgets the failures), then run `forumbot tick`")


def view_tree(view: Any) -> Any:
    """A re-rendered view (`html` of a JSON answer: {"content": ...} or the markup) as a tree, or None."""
    markup = view.get("content", "") if isinstance(view, dict) else view if isinstance(view, str) else ""
    if not markup.strip():
        return None
    try:
        return lxml_html.fromstring(markup)
    except (ValueError, SyntaxError):  # lxml's ParserError is a ValueError
        return None


def view_error(view: Any, selector: str) -> str:
    """The error a re-rendered view shows."""
    tree = view_tree(view)
    return "" if tree is None else " ".join(clean_text(e) for e in select(tree, selector))


def view_has(view: Any, selector: str) -> bool:
    tree = view_tree(view)
    return tree is not None and bool(select(tree, selector))
