"""The emulated board's state and XF's rules over it: members, threads, posts, conversations, flood checks
(floodCheckLength 30 s, floodCheckLengthDiscussion 180 s), CSRF tokens valid 24 h, a moderation queue."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from typing import Callable

FLOOD_POST = 30  # option floodCheckLength (stock)
FLOOD_DISCUSSION = 180  # option floodCheckLengthDiscussion (stock): a new thread or conversation
CSRF_LIFETIME = 86400  # XF accepts a token 24 h
PER_PAGE = 20  # messagesPerPage (stock)
# Phrases, English (XF's master language). Names as XF's phrase keys.
PHRASES = {
    "must_wait_x_seconds_before_performing_this_action":
        "You must wait at least {count} seconds before performing this action.",
    "security_error_occurred":
        "Security error occurred. Please press back, refresh the page, and try again.",
    # Controller::assertValidCsrfToken for a token sent without the xf_csrf cookie (validateCsrfToken's
    # "no_cookie"); the English text is unverified
    "cookies_required_to_use_this_site":
        "Cookies are required to use this site. You must accept them to continue using the site.",
    "incorrect_password": "Incorrect password. Please try again.",
    "requested_user_x_not_found": "The requested user '{name}' could not be found.",
    "login_required": "You must be logged-in to do that.",
    "following_recipients_could_not_be_found_x": "The following recipients could not be found: {names}.",
    "requested_page_not_found": "The requested page could not be found.",
    "requested_post_not_found": "The requested post could not be found.",
    "requested_thread_not_found": "The requested thread could not be found.",
    "do_not_have_permission": "You do not have permission to view this page or perform this action.",
    # The keys below are XF's own (XF\Service\Conversation\Creator / Repository\Conversation::
    # getValidatedRecipients, Pub\Controller\Login::actionLogin); their English texts are unverified (no phrase
    # file was found: the master language is not public). 2.3 names the recipient limit after direct messages.
    "you_may_only_invite_x_members_to_join_this_conversation":
        "You may only invite {count} member(s) to join this conversation.",
    "you_may_only_invite_x_members_to_join_this_direct_message":
        "You may only invite {count} member(s) to join this direct message.",
    "you_cannot_start_conversation_with_yourself": "You cannot start a conversation with yourself.",
    # Repository\Conversation::getValidatedRecipients for recipients canStartConversationWith refuses; the wording is
    # the one a XenForo-styled clone's validation rule carries (none from XF itself was found)
    "you_may_not_start_a_conversation_with_the_following_recipients_x":
        "You may not start a conversation with the following recipients: {names}.",
    "did_not_complete_the_captcha_verification_properly":
        "Did not complete the CAPTCHA verification properly. Please try again.",
    "your_account_has_temporarily_been_locked_due_to_failed_login_attempts":
        "Your account has temporarily been locked due to failed login attempts.",
}
# XF's getAttemptLimits (2.2 Service\User\Login; 2.3 LoginLimitTrait::getLoginAttemptLimits, the same table):
# (counted over, seconds, failures). "user" counts one name's failures from the address, "ip" every name's; every
# client of this emulator is 127.0.0.1, so the "ip" rows count every failure it recorded.
LOGIN_LIMITS = (("user", 300, 4), ("user", 1800, 8), ("ip", 300, 8), ("ip", 1800, 16))


@dataclass
class Member:
    id: int
    name: str
    password: str
    two_step: bool = False
    moderated: bool = False  # every post of this member awaits approval
    locks: bool = False  # Thread::canLockUnlock (a moderator's lockUnlockThread permission)
    starts_conversations: bool = True  # User::canStartConversation (the conversation "start" permission)
    replies: bool = True  # Thread::canReply (the forum's "postReply" permission for this member's group)
    # User::canStartConversationWith(this member): false when his privacy option allow_send_personal_conversation
    # ("none", or "followed" while he does not follow the starter) or his group's "receive" permission shuts the
    # starter out
    accepts_conversations: bool = True


@dataclass
class Post:
    id: int
    thread: int
    author: str
    text: str
    at: float
    edited: float | None = None
    approved: bool = True
    deleted: bool = False  # soft-deleted (message_state "deleted"): shown to moderators only


@dataclass
class Thread:
    id: int
    slug: str
    title: str
    posts: list[int] = field(default_factory=list)
    discussion_open: bool = True  # false once locked


@dataclass
class Message:
    id: int
    conversation: int
    author: str
    text: str
    at: float


@dataclass
class Conversation:
    id: int
    slug: str
    title: str
    starter: str
    members: list[str]
    messages: list[int] = field(default_factory=list)
    last_read: dict[str, int] = field(default_factory=dict)  # member -> the newest message id he has seen
    conversation_open: bool = True  # ConversationMaster.conversation_open: False, no one replies (canReply)


@dataclass
class Board:
    """Everything the emulated XF holds. `clock` gives unix seconds (a test's clock, or a shared file's)."""

    clock: Callable[[], float]
    version: str = "2.2"
    friendly: bool = True
    max_recipients: int = 5  # conversation maxRecipients for Registered (unverified default)
    login_limit: str = "captcha"  # option loginLimit: "captcha" (the stock choice, unverified) or "block"
    failed_logins: list[tuple[str, float]] = field(default_factory=list)  # (folded name, time): xf_login_attempt
    members: dict[str, Member] = field(default_factory=dict)
    threads: dict[int, Thread] = field(default_factory=dict)
    posts: dict[int, Post] = field(default_factory=dict)
    conversations: dict[int, Conversation] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    flood: dict[tuple[str, str], float] = field(default_factory=dict)  # (member, action) -> last time
    sessions: dict[str, str | None] = field(default_factory=dict)  # xf_session -> member name
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, route) served
    moderated_threads: set[int] = field(default_factory=set)
    api_keys: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # key -> (user, scopes)
    secret: str = "xfemu"
    lock: threading.RLock = field(default_factory=threading.RLock)
    _ids: dict[str, int] = field(default_factory=dict)

    def next_id(self, kind: str, start: int = 1) -> int:
        self._ids[kind] = self._ids.get(kind, start - 1) + 1
        return self._ids[kind]

    # --- setting the scene ------------------------------------------------------------------------------------

    def member(self, name: str, password: str = "pw", **kw) -> Member:
        m = self.members.get(_fold(name)) or Member(self.next_id("user", 10), name, password, **kw)
        self.members[_fold(name)] = m
        return m

    def thread(self, title: str, slug: str, opener: str, text: str, at: float | None = None) -> Thread:
        t = Thread(self.next_id("thread", 101), slug, title)
        self.threads[t.id] = t
        self.add_post(t.id, opener, text, at)
        return t

    def add_post(self, tid: int, author: str, text: str, at: float | None = None, approved: bool = True) -> Post:
        with self.lock:
            self.member(author)
            p = Post(self.next_id("post", 5001), tid, author, text, self.clock() if at is None else at,
                     approved=approved)
            self.posts[p.id] = p
            self.threads[tid].posts.append(p.id)
            return p

    def edit_post(self, pid: int, text: str) -> None:
        with self.lock:
            self.posts[pid].text, self.posts[pid].edited = text, self.clock()

    def delete_post(self, pid: int, hard: bool = False) -> None:
        """A moderator deletes the post: "Remove from public view" (soft, XF's default choice) keeps the record
        for moderators; "Permanently delete" (hard) removes it."""
        with self.lock:
            if hard:
                post = self.posts.pop(pid)
                self.threads[post.thread].posts.remove(pid)
            else:
                self.posts[pid].deleted = True

    def start_conversation(self, starter: str, to: list[str], title: str, text: str,
                           at: float | None = None) -> Conversation:
        with self.lock:
            c = Conversation(self.next_id("conversation", 301), _slug(title), title, starter,
                             [starter, *[self.members[_fold(n)].name for n in to]])
            self.conversations[c.id] = c
            self.add_message(c.id, starter, text, at)
            return c

    def add_message(self, cid: int, author: str, text: str, at: float | None = None) -> Message:
        with self.lock:
            m = Message(self.next_id("message", 9001), cid, author, text, self.clock() if at is None else at)
            self.messages[m.id] = m
            c = self.conversations[cid]
            c.messages.append(m.id)
            c.last_read[author] = m.id
            return m

    # --- what a member sees -------------------------------------------------------------------------------

    def visible_posts(self, tid: int) -> list[Post]:
        return [self.posts[p] for p in self.threads[tid].posts if self.posts[p].approved and not self.posts[p].deleted]

    def conversations_of(self, name: str) -> list[Conversation]:
        mine = [c for c in self.conversations.values() if any(_fold(m) == _fold(name) for m in c.members)]
        return sorted(mine, key=lambda c: -self.messages[c.messages[-1]].at * 1e6 - c.messages[-1])

    def unread(self, c: Conversation, name: str) -> bool:
        return c.last_read.get(name, 0) < c.messages[-1]

    def unread_count(self, name: str) -> int:
        return sum(1 for c in self.conversations_of(name) if self.unread(c, name))

    def pms_to(self, name: str) -> list[Message]:
        """Every message in a conversation `name` takes part in, not written by him (for the tests)."""
        return [m for c in self.conversations_of(name) for m in map(self.messages.get, c.messages)
                if m is not None and _fold(m.author) != _fold(name)]

    # --- XF's checks ----------------------------------------------------------------------------------------

    def flood_wait(self, name: str, action: str, seconds: int) -> int:
        """XF's assertNotFlooding: seconds still to wait (0: allowed, and the time is recorded)."""
        with self.lock:
            last = self.flood.get((name, action))
            now = self.clock()
            if last is not None and now - last < seconds:
                return max(1, int(seconds - (now - last) + 0.999))
            self.flood[(name, action)] = now
            return 0

    def login_limited(self, name: str) -> bool:
        """XF's isLoginLimited (checkTooManyLoginAttempts): any row of LOGIN_LIMITS reached (countLoginAttemptsSince:
        attempt_date > now - seconds)."""
        now = self.clock()
        return any(sum(1 for n, at in self.failed_logins if at > now - seconds and (kind == "ip" or n == _fold(name)))
                   >= count for kind, seconds, count in LOGIN_LIMITS)

    def csrf_token(self, cookie: str) -> str:
        issued = int(self.clock())
        return f"{issued},{self._sign(cookie, issued)}"

    def csrf_ok(self, cookie: str | None, token: str | None) -> bool:
        if not cookie or not token or "," not in token:
            return False
        issued, sign = token.split(",", 1)
        if not issued.isdigit() or sign != self._sign(cookie, int(issued)):
            return False
        return self.clock() - int(issued) <= CSRF_LIFETIME

    def _sign(self, cookie: str, issued: int) -> str:
        return hashlib.sha256(f"{self.secret}|{cookie}|{issued}".encode()).hexdigest()[:32]


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _slug(title: str) -> str:
    out = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in title.lower()).strip("-")
    return "-".join(p for p in out.split("-") if p)  # XF: an empty slug links the bare id


fold = _fold
