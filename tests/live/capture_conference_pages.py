"""Capture, from a live phpBB or MyBB board (../shared/boards/<engine>.sh build), how a reply to all of a PM the
bot sent to several players reaches the bot, for M-15's conversation fixtures (fixtures/<engine>/90_... to 92_...).

Run from the project root: `python3 tests/live/capture_conference_pages.py phpbb|mybb BOARD_DIR`. The bot's adapter
sends one PM to three players; the first answers it with the engine's own "reply to all" (phpBB: the view's
`reply_to_all=1` link, MyBB: `do=replyall`), then PMs the bot alone; the bot's session saves, as served (bytes), the
view of each as the bot reads it. Entries for index.json are printed. The board is changed by it: rebuild it
before capturing again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "live")]

from adapters.mybb.forum import MybbForum  # noqa: E402
from adapters.phpbb.forum import PhpbbForum  # noqa: E402
from boards import MYBB_FLOOD, PHPBB_FLOOD, Board  # noqa: E402

REPLY_ALL = {"phpbb": "ucp.php?i=pm&mode=compose&action=reply&f=0&reply_to_all=1&p={id}",
             "mybb": "private.php?action=send&pmid={id}&do=replyall"}


def reply_all(member, engine: str, pm_id: str, text: str) -> None:  # type: ignore[no-untyped-def]
    path = REPLY_ALL[engine].format(id=pm_id)
    if engine == "phpbb":
        r = member.paced("pm", lambda: member.submit(path, lambda f: f["id"] == "postform", {"message": text},
                                                     "post"), member.flood, PHPBB_FLOOD.search)
    else:
        r = member.paced("pm", lambda: member.submit(path, lambda f: "private.php" in f["action"] and
                                                     any(k == "message" for k, _ in f["fields"]),
                                                     {"message": text}, "submit", drop=("preview", "saveasdraft")),
                         float(member.board.env.get("PM_FLOOD", "60")), MYBB_FLOOD.search)
    assert r.status_code == 200, r.status_code


def main(engine: str, board_dir: Path) -> None:
    board = Board(engine, board_dir, {}, 0)
    out = ROOT / "fixtures" / engine
    cls = {"mybb": MybbForum, "phpbb": PhpbbForum}[engine]
    forum = cls(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow")
    forum.login()
    _, cursor = forum.fetch_pms(None)  # the seeded PMs: read, so they are "known" below
    mafia = board.players[:3]
    forum.send_pm(", ".join(mafia), "Конференция мафии", "Конференция мафии: " + ", ".join(mafia) + ".")
    first = board.member(mafia[0])
    sent = next(m for m in first.pms_from(board.bot) if "Конференция мафии:" in m.text)
    reply_all(first, engine, sent.id, "Маяк: ник жирным.")
    second = board.member(mafia[1])
    assert any("Маяк" in m.text for m in second.pms_from(mafia[0])), "the reply to all did not reach the others"
    board.wait_past_a_pm()
    first.pm(board.bot, "Ход", "подтверждаю")
    pms, cursor = forum.fetch_pms(cursor)
    print(f"{engine}: the bot read {[(p.id, p.author, p.subject, p.text) for p in pms]}", file=sys.stderr)
    entries = []

    def save(name: str, pm_id: str, note: str) -> None:
        page = forum.read_page(forum.url("pm", pm=pm_id))
        (out / name).write_bytes(page.content)
        entries.append({"file": name, "method": "GET", "url": page.url, "status": page.status, "history": [],
                        "content_type": page.headers.get("Content-Type", ""), "bytes": len(page.content),
                        "note": note, "request_body": None})

    conv = next(p for p in pms if "Маяк" in p.text)
    alone = next(p for p in pms if "подтверждаю" in p.text)
    save("90_pm_view_reply_to_all.html", conv.id, f"{mafia[0]}'s reply to all of the bot's PM to "
         f"{', '.join(mafia)}, as the bot reads it (M-15's conversation)")
    save("91_pm_view_to_the_bot_alone.html", alone.id, f"{mafia[0]}'s PM to the bot alone, sent after it")
    print(json.dumps(entries, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
