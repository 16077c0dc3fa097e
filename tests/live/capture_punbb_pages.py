"""Capture the pages fixtures/punbb/ holds from a live FluxBB board (../shared/boards/fluxbb.sh build).

Run from the project root: `python3 tests/live/capture_punbb_pages.py [BOARD_DIR]`. Logs in as the bot, reads the
game thread, replies (and at once again: the flood error), reads and sends PMs (and at once again), and saves every
answer as served (bytes) under fixtures/punbb/, then a guest's view of the pages that need a login.
The board is changed by it (a reply and a PM): rebuild it before capturing again. `--empty-list-only` saves
only the admin's dialogue list, which the seeding leaves empty (the board is not changed).
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "fixtures" / "punbb"


def load_env(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        k, _, v = line.partition("=")
        env[k] = shlex.split(v)[0] if v else ""
    return env


def env_float(env: dict[str, str], key: str, default: float) -> float:
    try:
        return float(env.get(key) or default)
    except ValueError:
        return default


def form_fields(html: str, form_id: str) -> dict[str, str]:
    from lxml import html as lh
    tree = lh.fromstring(html)
    form = tree.get_element_by_id(form_id)
    out = {}
    for el in form.xpath(".//input|.//textarea"):
        name = el.get("name")
        if not name or el.get("type") in ("submit", "checkbox"):
            continue
        out[name] = el.get("value", "") if el.tag == "input" else (el.text or "")
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    board = Path(args[0]) if args else Path(os.environ.get(
        "BOARD_DIR", Path.home() / ".cache" / "forumbot-boards" / "fluxbb"))
    env = load_env(board / "board.env")
    base = env["BASE_URL"]
    OUT.mkdir(parents=True, exist_ok=True)
    s = requests.Session()
    s.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) forumbot-capture"

    def save(name: str, r: requests.Response) -> str:
        (OUT / name).write_bytes(r.content)
        print(f"{name}: {r.status_code} {r.url} {len(r.content)} bytes")
        return r.text

    def login(password: str, name: str) -> requests.Response:
        page = s.get(base + "login.php")
        fields = form_fields(page.text, "login")
        fields.update(req_username=env["BOT_NAME"], req_password=password, login="1")
        return s.post(base + "login.php?action=in", data=fields)

    if "--empty-list-only" in sys.argv:  # as the admin, whom the seeding gives no dialogue
        s.post(base + "login.php?action=in", data={**form_fields(s.get(base + "login.php").text, "login"),
               "req_username": env["ADMIN_NAME"], "req_password": env["PASSWORD"], "login": "1"})
        save("43_pm_list_empty.html", s.get(base + "pmsnew.php?mdl=list"))
        return
    if "--dialogue-reply-only" in sys.argv:  # against the board a full capture left, 30 s or more after it
        s.post(base + "login.php?action=in", data={**form_fields(s.get(base + "login.php").text, "login"),
               "req_username": env["BOT_NAME"], "req_password": env["PASSWORD"], "login": "1"})
        dialogue_reply(s, base, save)
        return
    g = requests.Session()
    save("40_guest_pm_inbox.html", g.get(base + "pmsnew.php"))
    save("41_guest_reply_form.html", g.get(base + "post.php?tid=" + env["GAME_TOPIC"]))
    save("42_guest_topic_page1.html", g.get(base + "viewtopic.php?id=" + env["GAME_TOPIC"]))

    save("01_login_page.html", s.get(base + "login.php"))
    save("02_login_failed.html", login("wrong-password", "bad"))
    save("03_login_success.html", login(env["PASSWORD"], "ok"))
    save("04_index_logged_in.html", s.get(base + "index.php"))
    tid = env["GAME_TOPIC"]
    save("10_topic_page1.html", s.get(base + f"viewtopic.php?id={tid}"))
    save("11_topic_page2_last.html", s.get(base + f"viewtopic.php?id={tid}&p=2"))
    save("12_topic_via_post_link.html", s.get(base + f"viewtopic.php?pid={env['EDIT_MOD_POST']}"))
    save("13_topic_page3_past_end.html", s.get(base + f"viewtopic.php?id={tid}&p=3"))
    form = save("20_reply_form.html", s.get(base + f"post.php?tid={tid}"))
    fields = form_fields(form, "post")
    fields.update(req_message="Ночь 1 наступила. Ведущий бот пишет [b]итоги[/b] дня. [m:capture1]", submit="1")
    save("21_reply_result.html", s.post(base + f"post.php?action=post&tid={tid}", data=fields))
    form = s.get(base + f"post.php?tid={tid}").text
    fields = form_fields(form, "post")
    fields.update(req_message="Второй ответ сразу же.", submit="1")
    save("22_reply_flood_error.html", s.post(base + f"post.php?action=post&tid={tid}", data=fields))
    save("23_topic_page2_after_reply.html", s.get(base + f"viewtopic.php?id={tid}&p=2"))

    save("30_pm_new_folder.html", s.get(base + "pmsnew.php"))
    save("31_pm_list.html", s.get(base + "pmsnew.php?mdl=list"))
    for dlg in range(1, 6):
        save(f"32_pm_dialogue_{dlg}.html", s.get(base + f"pmsnew.php?mdl=topic&tid={dlg}"))
    form = save("33_pm_compose_form.html", s.get(base + "pmsnew.php?mdl=post"))
    fields = form_fields(form, "post")
    fields.update(req_addressee=env["GM_NAME"], req_subject="Роли", req_message="Ваша роль: Мирный. [m:capture2]",
                  submit="1")
    save("34_pm_sent_result.html", s.post(base + "pmsnew.php?mdl=post", data=fields))
    form = s.get(base + "pmsnew.php?mdl=post").text
    fields = form_fields(form, "post")
    fields.update(req_addressee=env["GM_NAME"], req_subject="Ещё", req_message="Сразу второе.", submit="1")
    save("35_pm_flood_error.html", s.post(base + "pmsnew.php?mdl=post", data=fields))
    time.sleep(env_float(env, "POST_FLOOD", 30) + 1)  # past the PM flood timer, so only the name is wrong
    fields = form_fields(s.get(base + "pmsnew.php?mdl=post").text, "post")
    fields.update(req_addressee="Никого_нет", req_subject="Ещё", req_message="Кому?", submit="1")
    save("36_pm_unknown_recipient.html", s.post(base + "pmsnew.php?mdl=post", data=fields))
    save("37_pm_list_after_send.html", s.get(base + "pmsnew.php?mdl=list"))
    save("38_pm_new_folder_after_reading.html", s.get(base + "pmsnew.php"))
    save("39_pm_sent_dialogue.html", s.get(base + "pmsnew.php?mdl=topic&tid=6"))
    time.sleep(env_float(env, "POST_FLOOD", 30) + 1)
    dialogue_reply(s, base, save)


def dialogue_reply(s: requests.Session, base: str, save) -> None:
    """A PM into the bot's existing dialogue 5 (with Маша): how the adapter writes to a name it has a dialogue with."""
    form = save("33b_pm_dialogue_reply_form.html", s.get(base + "pmsnew.php?mdl=post&tid=5"))
    fields = form_fields(form, "post")
    fields.update(req_message="[b]Итоги ночи[/b]\n\nВаша проверка: Кот Баюн — мафия. [m:capture3]", submit="1")
    save("34b_pm_dialogue_reply_result.html", s.post(base + "pmsnew.php?mdl=post&tid=5", data=fields))
    save("39b_pm_dialogue_after_reply.html", s.get(base + "pmsnew.php?mdl=topic&tid=5"))
    save("37b_pm_list_after_reply.html", s.get(base + "pmsnew.php?mdl=list"))


if __name__ == "__main__":
    main()
