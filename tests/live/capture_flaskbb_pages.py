"""Save real FlaskBB pages into fixtures/flaskbb/ for the `responses` tests (run by hand, not by pytest).

    python3 tests/live/capture_flaskbb_pages.py [fixtures/flaskbb]

Starts a fresh forum from the live harness, plays the flows the adapter uses (login, topic pages, reply,
conversations) as real accounts, and writes each page byte for byte with index.json (URL, method, status,
Location). Times and CSRF tokens differ per run; the tests read them from the pages.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

import requests

from flaskbb_server import BOT, GM, PLAYERS, FlaskBBServer

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


class Capture:
    def __init__(self, base: str, out: Path) -> None:
        self.base, self.out, self.index = base.rstrip("/"), out, {}

    def save(self, name: str, r: requests.Response, method: str = "GET", note: str = "") -> requests.Response:
        (self.out / name).write_bytes(r.content)
        self.index[name] = {"url": r.url.replace(self.base, ""), "method": method, "status": r.status_code,
                            "location": r.headers.get("Location", "").replace(self.base, ""), "note": note}
        return r

    def session(self, account, remember: bool = True) -> requests.Session:
        s = requests.Session()
        page = s.get(f"{self.base}/auth/login")
        fields = {"csrf_token": TOKEN.search(page.text).group(1), "login": account.name,
                  "password": account.password, "submit": "Login"}
        if remember:
            fields["remember_me"] = "y"
        r = s.post(f"{self.base}/auth/login", data=fields, allow_redirects=False)
        assert r.status_code == 302, f"login {account.name}"
        return s

    def post(self, s: requests.Session, url: str, data: dict) -> requests.Response:
        form = s.get(self.base + url)
        return s.post(self.base + url, data=dict(data, csrf_token=TOKEN.search(form.text).group(1)),
                      allow_redirects=False)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = FlaskBBServer(Path(tmp) / "forum").start()
        try:
            play(Capture(server.base_url, out), server.directory / "flaskbb.sqlite")
        finally:
            server.stop()
        quota(out, Path(tmp) / "quota")


def play(c: Capture, db: Path) -> None:
    with sqlite3.connect(db) as conn:  # no signature form to drive; the column is what the profile page sets
        conn.execute("UPDATE users SET signature = ? WHERE username = ?", ("*Подпись* alice: alice", PLAYERS[0].name))
    guest = requests.Session()
    c.save("01_login_page.html", guest.get(f"{c.base}/auth/login"))
    token = TOKEN.search((c.out / "01_login_page.html").read_text()).group(1)
    c.save("02_login_failed.html", guest.post(f"{c.base}/auth/login", data={
        "csrf_token": token, "login": BOT.name, "password": "wrong-password", "submit": "Login"}), "POST",
        "wrong password: the form again with a flashed alert")
    c.save("03_inbox_logged_out.html", guest.get(f"{c.base}/conversations/", allow_redirects=False), "GET",
           "a page that needs login, without a session: 302 to /auth/login")
    gm, bot = c.session(GM), c.session(BOT)
    players = [c.session(p) for p in PLAYERS[:4]]
    c.save("04_index_logged_in.html", bot.get(f"{c.base}/"))

    r = c.post(gm, "/1/topic/new", {"title": "Мафия #1 - игровая тема", "content": "День 1 начинается. **Удачи!**"})
    topic = re.search(r"/topic/(\d+)", r.headers["Location"]).group(1)
    texts = [
        "Всем привет! Голосую позже.",
        "> Всем привет!\n\nЦитата выше, а это мой текст.",
        "Код:\n\n```\nkill alice\n```\n\nКонец поста.",
        "**bob** _курсив_ и [ссылка](http://127.0.0.1/)",
    ]
    for i in range(23):
        text = texts[i] if i < len(texts) else f"Сообщение {i}: обсуждаем."
        c.post(players[i % len(players)], f"/topic/{topic}/post/new", {"content": text})
    # edit the first player post: FlaskBB shows "Last modified: <time> by <user>"
    first = players[0]
    posts_page = first.get(f"{c.base}/topic/{topic}").text
    pid = re.findall(r'<div id="(\d+)" class="row post-row">', posts_page)[1]
    c.post(first, f"/post/{pid}/edit", {"content": "Всем привет! Голосую позже. (исправлено)"})
    c.save("10_reply_form.html", bot.get(f"{c.base}/topic/{topic}/post/new"))
    r = c.post(bot, f"/topic/{topic}/post/new", {"content": "Ведущий: список игроков.\n\n#fb:0123abcd"})
    c.save("11_reply_result.html", r, "POST", "302 to /post/<new id>")
    empty = c.post(bot, f"/topic/{topic}/post/new", {"content": ""})
    c.save("12_reply_rejected_empty.html", empty, "POST", "empty content: the form again with a field error")
    c.save("20_topic_page1.html", bot.get(f"{c.base}/topic/{topic}"))
    c.save("21_topic_page2.html", bot.get(f"{c.base}/topic/{topic}?page=2"))
    c.save("22_topic_page3_last.html", bot.get(f"{c.base}/topic/{topic}?page=3"))
    c.save("23_topic_page_past_end.html", bot.get(f"{c.base}/topic/{topic}?page=9"), "GET", "404")
    c.save("24_topic_guest.html", guest.get(f"{c.base}/topic/{topic}"))

    # conversations: the bot's role PM, answered inside it; a conversation started by a player
    c.save("30_new_conversation_form.html", bot.get(f"{c.base}/conversations/new"))
    r = c.post(bot, "/conversations/new", {"to_user": PLAYERS[0].name, "subject": "Мафия #1",
                                           "message": "alice, ваша роль: мирный.\n\n#fb:1111aaaa",
                                           "send_message": "Start Conversation"})
    c.save("31_new_conversation_result.html", r, "POST", "302 to /conversations/sent")
    bad = c.post(bot, "/conversations/new", {"to_user": "nobody-here", "subject": "x", "message": "y",
                                             "send_message": "Start Conversation"})
    c.save("32_new_conversation_unknown_user.html", bad, "POST", "unknown recipient: the form with a field error")
    inbox = players[0].get(f"{c.base}/conversations/").text
    conv = re.search(r"/conversations/(\d+)/view", inbox).group(1)
    c.post(players[0], f"/conversations/{conv}/view", {"message": "подтверждаю", "submit": "Send Message"})
    c.post(players[1], "/conversations/new", {"to_user": BOT.name, "subject": "ход", "message": "проверка alice",
                                              "send_message": "Start Conversation"})
    c.post(players[2], "/conversations/new", {"to_user": BOT.name, "subject": "Вопрос",
                                              "message": "> цитата\n\nпринял", "send_message": "Start Conversation"})
    c.save("33_inbox.html", bot.get(f"{c.base}/conversations/"))
    page = (c.out / "33_inbox.html").read_text()
    ids = re.findall(r"/conversations/(\d+)/view", page)
    c.save("34_conversation_role_pm_answered.html", bot.get(f"{c.base}/conversations/{ids[-1]}/view"))
    c.save("35_conversation_from_player.html", bot.get(f"{c.base}/conversations/{ids[0]}/view"))
    c.save("36_inbox_after_reading.html", bot.get(f"{c.base}/conversations/"))
    c.save("37_sent.html", bot.get(f"{c.base}/conversations/sent"))
    (c.out / "index.json").write_text(json.dumps(c.index, ensure_ascii=False, indent=1) + "\n")


def quota(out: Path, directory: Path) -> None:
    """The quota refusal: a forum whose message quota is on and already used up."""
    server = FlaskBBServer(directory)
    orig = server._wait_up

    def enable_quota_then_wait() -> None:
        db = sqlite3.connect(directory / "flaskbb.sqlite")
        db.execute("UPDATE settings SET value='true' WHERE group_key='conversations' AND key='MESSAGE_QUOTA_ENABLED'")
        db.execute("UPDATE settings SET value='0' WHERE group_key='conversations' AND key='MESSAGE_QUOTA'")
        db.commit()
        db.close()
        orig()

    server._wait_up = enable_quota_then_wait  # the server reads settings at its first request
    server.start()
    try:
        c = Capture(server.base_url, out)
        c.index = json.loads((out / "index.json").read_text())
        bot = c.session(BOT)
        r = c.post(bot, "/conversations/new", {"to_user": PLAYERS[0].name, "subject": "x", "message": "y",
                                               "send_message": "Start Conversation"})
        c.save("38_new_conversation_quota_full.html", bot.get(c.base + r.headers["Location"])
               if r.status_code in (301, 302, 303) else r, "POST", "quota used up: flashed on the page it leads to")
        (out / "index.json").write_text(json.dumps(c.index, ensure_ascii=False, indent=1) + "\n")
    finally:
        server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "fixtures" / "flaskbb"))
