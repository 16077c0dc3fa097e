"""The other side of a game on a real SMF 2.1.4 board (stock English, Curve2 theme): the players' and the GM's
browser, through SMF's own forms (issue 9).

What the board does that a driver must know (seen on the live board; adapters/smf/forum.py knows it too):
- every form carries a session pair whose *name* is random per session (also in the page's JavaScript as
  `smf_session_var` / `smf_session_id`); a form without it gets it from the JavaScript;
- SMF refuses a second login from one IP within 2 s (a 403 "wait about 2 seconds" page);
- spamWaitTime holds for posts and for PMs, each its own timer, and per *IP*, not per member: every account here
  (and the bot) posts from 127.0.0.1, so the pacing is shared by all members of a board. A flood is a 403 page,
  and the refused attempt restarts the timer, which lets go only of entries older than the limit in whole
  seconds: a member waits the limit plus a second;
- a reply redirects to `topic=T.new#new`: the new id is read from the topic's last page (the member's newest
  post past the form's `last_msg`);
- a moderator deletes a post by a GET link carrying the session pair (`action=deletemsg`), shown on the page
  that holds the post;
- in the stock "all at once" display mode an inbox page holds the PMs themselves: one request a page.
"""

from __future__ import annotations

import re
import subprocess
import time
import urllib.parse

import requests
from bs4 import BeautifulSoup

from boards import HANG_GUARD, PM, Board, Member, Post, _forms, _text

SMF_FLOOD = re.compile(r"from your IP was less than|с вашего IP")
LOGIN_WAIT = re.compile(r"wait about (\d+) seconds|подождать около (\d+) секунд")
SESSION_VAR = re.compile(r"""smf_session_var\s*=\s*["']([0-9A-Za-z_]+)["']""")
SESSION_ID = re.compile(r"""smf_session_id\s*=\s*["']([0-9A-Za-z]+)["']""")
LOGIN_GAP = 2.5  # SMF: no two logins from one IP within 2 s
_last_login: dict[str, float] = {}  # per board (base URL): logins are refused per IP, not per member
_shared: dict[str, dict] = {}  # per board: the flood timers and where each post lives


def _board_state(board: Board) -> dict:
    return _shared.setdefault(board.base_url, {"last_sent": {}, "topic_of": {}})


def _session_pair(page: str) -> dict[str, str]:
    var, sid = SESSION_VAR.search(page), SESSION_ID.search(page)
    return {var.group(1): sid.group(1)} if var and sid else {}


def _error(page: str) -> str:
    soup = BeautifulSoup(page, "lxml")
    found = soup.select_one("#fatal_error div.windowbg, div#post_error li, div.errorbox, div.error")
    return _text(found) if found is not None else ""


class SmfMember(Member):
    engine = "smf"

    def __init__(self, board: Board, name: str) -> None:
        self.state = _board_state(board)
        super().__init__(board, name)
        self.last_sent = self.state["last_sent"]  # one flood timer per IP: shared by every member of the board

    # --- plumbing -------------------------------------------------------------------------------------------

    def _flood_seconds(self) -> float:
        return float(self.board.env.get("SPAM_WAIT", "5")) + 1.0

    def _form_post(self, path: str, form_id: str, values: dict[str, str], submit: str,
                   drop: tuple[str, ...] = ()) -> requests.Response:
        """GET the page, take its form `form_id`, overlay `values`, add the session pair where the form lacks
        it, and POST it (redirects followed, as a browser does)."""
        page = self.get(path)
        forms = [f for f in _forms(page.text) if f["id"] == form_id]
        assert forms, f"{self.name}: no form #{form_id} on {path}: {_error(page.text)}"
        form = forms[0]
        data = [(k, v) for k, v in form["fields"] if k not in values and k not in drop]
        have = {k for k, _ in data}
        data += [(k, v) for k, v in _session_pair(page.text).items() if k not in have and k not in values]
        data += list(values.items())
        data.append((submit, form["submits"].get(submit, "1")))
        return self.s.post(urllib.parse.urljoin(page.url, form["action"] or path), data=data, timeout=HANG_GUARD,
                           headers={"Referer": page.url})

    def login(self) -> None:
        for _ in range(5):
            last = _last_login.get(self.board.base_url)
            if last is not None:
                time.sleep(max(0.0, last + LOGIN_GAP - time.monotonic()))
            r = self._form_post("index.php?action=login", "frmLogin",
                                {"user": self.name, "passwrd": self.board.password, "cookielength": "3153600"},
                                "login", drop=("hash_passwrd",))
            _last_login[self.board.base_url] = time.monotonic()
            if not LOGIN_WAIT.search(r.text):
                break
        assert "action=logout" in self.get("index.php").text, f"{self.name} cannot log in to SMF: {_error(r.text)}"

    # --- reading --------------------------------------------------------------------------------------------

    def _page_posts(self, topic: str, page: int) -> list[Post]:
        per_page = int(self.board.env.get("PER_PAGE", "15"))
        soup = BeautifulSoup(self.get(f"index.php?topic={topic}.{page * per_page}").text, "lxml")
        out = []
        for div in soup.select("form#quickModForm > div[id^='msg']"):
            post_id = div["id"][len("msg"):]
            body = div.select_one("div.inner[id^='msg_']")
            out.append(Post(post_id, _text(div.select_one("div.poster h4")), _text(body), str(body)))
            self.state["topic_of"].setdefault(post_id, topic)
        return out

    def _inbox_ids(self) -> list[str]:
        """Every PM of the inbox, a page at a time; the stock display mode shows the PMs on the folder page, so
        they are read here and kept."""
        per_page = int(self.board.env.get("PER_PAGE", "15"))
        ids: list[str] = []
        start = 0
        while True:
            soup = BeautifulSoup(self.get(f"index.php?action=pm;f=inbox;sort=date;start={start}").text, "lxml")
            new = []
            for view in soup.select("form#pmFolder ~ div.windowbg[id^='msg'], div.windowbg[id^='msg']"):
                pm_id = view["id"][len("msg"):]
                if not pm_id.isdigit() or pm_id in ids or pm_id in new:
                    continue
                new.append(pm_id)
                if pm_id not in self._pm_cache:
                    self._pm_cache[pm_id] = PM(pm_id, _text(view.select_one("div.poster h4 a")),
                                               _text(view.select_one("div.subject_title h5")),
                                               _text(view.select_one("div.inner[id^='msg_']")))
            if not new:
                return sorted(ids, key=int)
            ids += new
            start += per_page

    def _read_pm(self, pm_id: str) -> PM:
        soup = BeautifulSoup(self.get(f"index.php?action=pm;f=inbox;pmsg={pm_id}").text, "lxml")
        view = soup.select_one(f"div.windowbg[id='msg{pm_id}']")
        assert view is not None, f"{self.name}: PM {pm_id} not found"
        return PM(pm_id, _text(view.select_one("div.poster h4 a")), _text(view.select_one("div.subject_title h5")),
                  _text(view.select_one("div.inner[id^='msg_']")))

    # --- posting --------------------------------------------------------------------------------------------

    def _last_msg(self, path: str) -> int:
        forms = [f for f in _forms(self.get(path).text) if f["id"] == "postmodify"]
        value = dict(forms[0]["fields"]).get("last_msg", "0") if forms else "0"
        return int(value) if value.isdigit() else 0

    def _send_post(self, topic: str, path: str, message: str) -> str:
        before = self._last_msg(path)
        r = self.paced("post", lambda: self._form_post(path, "postmodify", {"message": message}, "post",
                                                       drop=("preview",)),
                       self._flood_seconds(), SMF_FLOOD.search)
        problem = _error(r.text) if "action=post" in r.url else ""
        assert not problem, f"{self.name}: not posted: {problem}"
        mine = [int(p.id) for p in self._page_posts_last(topic) if p.author == self.name and int(p.id) > before]
        assert mine, f"{self.name}: the reply is not on the last page of topic {topic} ({r.url})"
        post_id = str(max(mine))
        self.state["topic_of"][post_id] = topic
        return post_id

    def _page_posts_last(self, topic: str) -> list[Post]:
        soup = BeautifulSoup(self.get(f"index.php?topic={topic}.msg2147483647").text, "lxml")
        return [Post(d["id"][3:], _text(d.select_one("div.poster h4")), "", "")
                for d in soup.select("form#quickModForm > div[id^='msg']")]

    def reply(self, topic: str, text: str) -> str:
        return self._send_post(topic, f"index.php?action=post;topic={topic}.0", text)

    def quote(self, topic: str, post_id: str, text: str) -> str:
        path = f"index.php?action=post;quote={post_id};topic={topic}.0"
        forms = [f for f in _forms(self.get(path).text) if f["id"] == "postmodify"]
        quoted = dict(forms[0]["fields"])["message"]
        assert "[quote" in quoted, f"SMF gave no quote of post {post_id}"
        return self._send_post(topic, path, f"{quoted}\n{text}")

    def _topic_of(self, post_id: str) -> str:
        if post_id not in self.state["topic_of"]:
            r = self.get(f"index.php?msg={post_id}")
            found = re.search(r"topic=(\d+)", r.url)
            assert found, f"post {post_id}: no topic ({r.url})"
            self.state["topic_of"][post_id] = found.group(1)
        return self.state["topic_of"][post_id]

    def edit(self, post_id: str, text: str) -> None:
        topic = self._topic_of(post_id)
        r = self._form_post(f"index.php?action=post;msg={post_id};topic={topic}.0", "postmodify",
                            {"message": text}, "post", drop=("preview",))
        problem = _error(r.text) if "action=post" in r.url or r.status_code != 200 else ""
        assert r.status_code == 200 and not problem, f"{self.name}: edit {post_id}: {r.status_code} {problem}"

    def delete(self, post_id: str) -> None:
        """A moderator's removal: the "Remove" link under the post, on the page that holds it."""
        topic = self._topic_of(post_id)
        page = self.get(f"index.php?topic={topic}.msg{post_id}")
        links = [a["href"] for a in BeautifulSoup(page.text, "lxml").select("a[href*='action=deletemsg']")
                 if re.search(rf"[;&?]msg={post_id}(?:\D|$)", a["href"])]
        assert links, f"{self.name} has no Remove link for post {post_id} (not a moderator?)"
        r = self.s.get(urllib.parse.urljoin(page.url, links[0]), timeout=HANG_GUARD, headers={"Referer": page.url})
        assert r.status_code == 200 and not _error(r.text), f"{self.name}: delete {post_id}: {_error(r.text)}"
        assert post_id not in {p.id for p in self._page_posts_last(topic)} | {p.id for p in self.posts(topic)}, \
            f"post {post_id} is still there"

    def pm(self, to: str, subject: str, text: str) -> None:
        r = self.paced("pm", lambda: self._form_post("index.php?action=pm;sa=send", "postmodify",
                                                     {"to": to, "subject": subject, "message": text}, "post",
                                                     drop=("preview",)),
                       self._flood_seconds(), SMF_FLOOD.search)
        assert "done=sent" in r.url or "sa=send2" not in r.url and not _error(r.text), \
            f"{self.name}: PM to {to} not sent ({r.status_code} {r.url}): {_error(r.text)}"


def set_setting(board: Board, name: str, value: str) -> None:
    """Change one of SMF's settings on a running board (smf.sh has knobs only for some). SMF's settings cache is
    off on these boards, so the next request reads the new value."""
    env = board.env
    sql = f"REPLACE INTO smf_settings (variable, value) VALUES ('{name}', '{value}')"
    done = subprocess.run(["mariadb", "--no-defaults", "-h", "127.0.0.1", "-P", env["DB_PORT"], "-u", env["DB_USER"],
                           f"-p{env['DB_PASSWORD']}", env["DB_NAME"], "-e", sql], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


MEMBER = SmfMember
