"""The other side of the live game: a forum member with a browser-like session (plain requests)."""

from __future__ import annotations

import re

import requests

from boards import HANG_GUARD
from flaskbb_server import Account

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
CONVERSATION = re.compile(r"/conversations/(\d+)/view")
MESSAGE = re.compile(r'<a class="author-name" href="[^"]*">([^<]+)</a>.*?<div class="message-content">(.*?)</div>',
                     re.S)


class Member:
    def __init__(self, base_url: str, account: Account) -> None:
        self.base = base_url.rstrip("/")
        self.account = account
        self.s = requests.Session()
        page = self.s.get(f"{self.base}/auth/login", timeout=HANG_GUARD)
        r = self.s.post(f"{self.base}/auth/login", allow_redirects=False, timeout=HANG_GUARD, data={
            "csrf_token": TOKEN.search(page.text).group(1), "login": account.name, "password": account.password,
            "submit": "Login"})
        assert r.status_code == 302, f"{account.name} cannot log in"

    def submit(self, path: str, data: dict) -> requests.Response:
        form = self.s.get(self.base + path, timeout=HANG_GUARD)
        r = self.s.post(self.base + path, data=dict(data, csrf_token=TOKEN.search(form.text).group(1)),
                        allow_redirects=False, timeout=HANG_GUARD)
        assert r.status_code in (200, 302), f"{self.account.name}: POST {path} -> {r.status_code}"
        return r

    def new_topic(self, forum: int, title: str, content: str) -> str:
        r = self.submit(f"/{forum}/topic/new", {"title": title, "content": content, "submit": "Post topic"})
        topic = re.search(r"/topic/(\d+)", r.headers.get("Location", ""))
        assert topic, f"no topic created: {r.status_code}"
        return f"{self.base}/topic/{topic.group(1)}"

    def reply(self, topic_url: str, text: str) -> None:
        tid = re.search(r"/topic/(\d+)", topic_url).group(1)
        r = self.submit(f"/topic/{tid}/post/new", {"content": text, "submit": "Reply"})
        assert "/post/" in r.headers.get("Location", ""), f"{self.account.name}: reply not posted"

    def pm(self, to: str, subject: str, text: str) -> None:
        r = self.submit("/conversations/new", {"to_user": to, "subject": subject, "message": text,
                                               "send_message": "Start Conversation"})
        assert r.headers.get("Location", "").endswith("/conversations/sent"), f"{self.account.name}: PM not sent"

    def answer(self, conversation: str, text: str) -> None:
        self.submit(f"/conversations/{conversation}/view", {"message": text, "submit": "Send Message"})

    def conversations(self) -> list[str]:
        page = self.s.get(f"{self.base}/conversations/", timeout=HANG_GUARD).text
        return list(dict.fromkeys(CONVERSATION.findall(page.split('id="message-content"', 1)[-1])))

    def messages(self, conversation: str) -> list[tuple[str, str]]:
        """(author, text) of each message, oldest first."""
        page = self.s.get(f"{self.base}/conversations/{conversation}/view", timeout=HANG_GUARD).text
        return [(a.strip(), re.sub(r"<[^>]+>", "", body).strip()) for a, body in MESSAGE.findall(page)]

    def messages_from(self, author: str) -> list[str]:
        return [t for c in self.conversations() for a, t in self.messages(c) if a == author]
