"""The FluxBB 1.5 player driver (Visman's fork, Russian UI, PMs through its "New PMS" module) for live games.

Every form answers 200 with a "redirect" page (`#punredirect`, meta refresh) when done, or comes back with its
errors in `#posterror`. Posts and PMs share the member group's `g_post_flood` (New PMS applies it to PMs, on its
own timer): the refusal "Хотя бы N секунд должно пройти ..." names the seconds, so a member waits what the board
says, whatever its group (the board's POST_FLOOD knob is the Members' one; other groups have their own).
PMs are dialogues: a member writes into its newest dialogue with the recipient when there is one (as a player
answers the bot's role PM), else opens a new one with the subject. A PM's id is the message's id (`#pN`).
"""

from __future__ import annotations

import re
import time

import requests
from bs4 import BeautifulSoup

from boards import PM, Member, Post, _forms, _text

FLUX_FLOOD = re.compile(r"(\d+)\s*секунд\w* должно пройти|должно пройти хотя бы (\d+)|(\d+) seconds have to pass")


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _errors(page: str) -> str:
    soup = BeautifulSoup(page, "lxml")
    if soup.select_one("#punredirect, #pun-redirect") is not None:
        return ""
    found = soup.select("#posterror li") or soup.select("#msg div.inbox p")
    return " ".join(_text(li) for li in found)


class FluxbbMember(Member):
    engine = "fluxbb"

    def login(self) -> None:
        r = self.submit("login.php", lambda f: f["id"] == "login",
                        {"req_username": self.name, "req_password": self.board.password, "save_pass": "1"}, "login")
        assert not _errors(r.text), f"{self.name} cannot log in to FluxBB: {_errors(r.text)}"
        assert "login.php?action=out" in self.get("index.php").text, f"{self.name} cannot log in to FluxBB"

    # --- sending, paced by the board's own flood rule ----------------------------------------------------------

    def _flood_paced(self, kind: str, send) -> requests.Response:  # type: ignore[no-untyped-def]
        """Send after POST_FLOOD since this member's last send of the kind; a refusal names the seconds this
        member's group must wait (the GM's group has its own): wait them and send again."""
        wait = float(self.board.env.get("POST_FLOOD", "30"))
        for _ in range(5):
            last = self.last_sent.get(kind)
            if last is not None:
                time.sleep(max(0.0, last + wait + 0.3 - time.monotonic()))
            r = send()
            self.last_sent[kind] = time.monotonic()
            refused = FLUX_FLOOD.search(_errors(r.text))
            if not refused:
                return r
            wait = float(next(g for g in refused.groups() if g))
        raise AssertionError(f"{self.name}: the board kept refusing a {kind} as a flood")

    def _posted(self, r: requests.Response) -> str:
        assert not _errors(r.text), f"{self.name}: not posted: {_errors(r.text)}"
        found = re.search(r"viewtopic\.php\?pid=(\d+)", r.url + " " + r.text)
        assert found, f"{self.name}: no post id in the answer to a reply"
        return found.group(1)

    def _post_form(self, path: str, text: str, prefix: bool = False) -> str:
        def send() -> requests.Response:
            quoted = ""
            if prefix:  # the quote the board put into the form, then the member's own words
                form = [f for f in _forms(self.get(path).text) if f["id"] == "post"][0]
                quoted = dict(form["fields"])["req_message"]
                assert "[quote" in quoted, f"FluxBB gave no quote at {path}"
            return self.submit(path, lambda f: f["id"] == "post", {"req_message": f"{quoted}{text}"}, "submit",
                               drop=("preview",))
        return self._posted(self._flood_paced("post", send))

    def reply(self, topic: str, text: str) -> str:
        return self._post_form(f"post.php?tid={topic}", text)

    def quote(self, topic: str, post_id: str, text: str) -> str:
        return self._post_form(f"post.php?tid={topic}&qid={post_id}", text, prefix=True)

    def edit(self, post_id: str, text: str) -> None:
        r = self.submit(f"edit.php?id={post_id}", lambda f: f["id"] == "edit", {"req_message": text}, "submit",
                        drop=("preview",))
        assert not _errors(r.text), f"{self.name}: edit {post_id}: {_errors(r.text)}"

    def delete(self, post_id: str) -> None:
        r = self.submit(f"delete.php?id={post_id}", lambda f: "delete.php" in f["action"], {}, "delete")
        assert not _errors(r.text), f"{self.name}: delete {post_id}: {_errors(r.text)}"

    def pm(self, to: str, subject: str, text: str) -> None:
        def send() -> requests.Response:
            dialogue = self._dialogue_with(to)
            if dialogue is not None:
                return self.submit(f"pmsnew.php?mdl=post&tid={dialogue}", lambda f: f["id"] == "post",
                                   {"req_message": text}, "submit", drop=("preview", "save"))
            return self.submit("pmsnew.php?mdl=post", lambda f: f["id"] == "post",
                               {"req_addressee": to, "req_subject": subject, "req_message": text}, "submit",
                               drop=("preview", "save"))
        r = self._flood_paced("pm", send)
        assert not _errors(r.text) and "punredirect" in r.text, f"{self.name}: PM to {to} not sent: {_errors(r.text)}"

    # --- reading ------------------------------------------------------------------------------------------------

    def _page_posts(self, topic: str, page: int) -> list[Post]:
        return self._posts_of(self.get(f"viewtopic.php?id={topic}&p={page + 1}").text)

    @staticmethod
    def _posts_of(page: str) -> list[Post]:
        out = []
        for div in BeautifulSoup(page, "lxml").select("div.blockpost[id^='p']"):
            who = div.select_one("div.postleft dl dt strong")
            body = div.select_one("div.postright div.postmsg:not(.postsignature)")
            for notice in body.select("p.postedit"):
                notice.decompose()  # "Отредактировано ... (time)" is the board's, not the author's
            out.append(Post(div["id"][1:], _text(who), _text(body), str(body)))
        return out

    def _dialogues(self) -> list[tuple[str, list[str]]]:
        """(dialogue id, [sender, recipient]) of every dialogue this member has, newest first, page by page."""
        rows: list[tuple[str, list[str]]] = []
        page = 1
        while True:
            soup = BeautifulSoup(self.get(f"pmsnew.php?mdl=list&p={page}").text, "lxml")
            found = []
            for tr in soup.select("#vf tbody tr"):
                link = tr.select_one("td.tcl a[href*='mdl=topic'][href*='tid=']:not([href*='action='])")
                m = re.search(r"tid=(\d+)", link["href"]) if link is not None else None
                if m and m.group(1) not in {d for d, _ in rows}:
                    found.append((m.group(1), [_text(td) for td in tr.select("td.tc2")][:2]))
            if not found:
                return rows
            rows += found
            page += 1

    def _dialogue_with(self, name: str) -> str | None:
        pair = {_fold(self.name), _fold(name)}
        return next((d for d, users in self._dialogues() if {_fold(u) for u in users} == pair), None)

    def _inbox_ids(self) -> list[str]:
        """Every message of every dialogue (each dialogue page read; the messages kept, as a PM never changes)."""
        ids: list[str] = []
        for dialogue, _users in self._dialogues():
            subject = ""
            page = 1
            while True:
                html = self.get(f"pmsnew.php?mdl=topic&tid={dialogue}&p={page}").text
                soup = BeautifulSoup(html, "lxml")
                title = soup.select_one("#brdmain .crumbs li strong, .crumbs strong")
                subject = subject or _text(title)
                posts = [p for p in self._posts_of(html) if p.id not in ids]
                for post in posts:
                    ids.append(post.id)
                    self._pm_cache.setdefault(post.id, PM(post.id, post.author, subject, post.text))
                if not posts or soup.select_one("p.pagelink a[rel='next']") is None:
                    break
                page += 1
        return ids

    def _read_pm(self, pm_id: str) -> PM:
        return self._pm_cache[pm_id]  # filled by _inbox_ids


MEMBER = FluxbbMember
