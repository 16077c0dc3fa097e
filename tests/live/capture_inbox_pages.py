"""Capture a two-page PM inbox from a live MyBB or phpBB board (../shared/boards/<engine>.sh build), for the
inbox-overflow fixtures (fixtures/<engine>/80_... to 84_...).

Run from the project root: `python3 tests/live/capture_inbox_pages.py mybb|phpbb BOARD_DIR`. One player sends the
bot more PMs than an inbox page shows; the bot's session then saves, as served (bytes): the inbox's
page 1 and page 2, one of the PMs, and the inbox after the adapter read them all and deleted them a tick later.
Entries for index.json are printed. The board is changed by it: rebuild it before capturing again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "live")]

from adapters.html.dom import select_one  # noqa: E402
from adapters.mybb.forum import MybbForum  # noqa: E402
from adapters.phpbb.forum import PhpbbForum  # noqa: E402
from boards import Board  # noqa: E402

PMS = {"mybb": 25, "phpbb": 30}  # a page: MyBB 20 PMs, phpBB 25 (topics_per_page)


def main(engine: str, board_dir: Path) -> None:
    count = PMS[engine]
    board = Board(engine, board_dir, {}, 0)
    out = ROOT / "fixtures" / engine
    cls = {"mybb": MybbForum, "phpbb": PhpbbForum}[engine]
    forum = cls(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow")
    forum.login()
    _, cursor = forum.fetch_pms(None)  # the seeded PMs: read, so they are "known" below
    player = board.member(board.players[0])
    for n in range(1, count + 1):
        player.pm(board.bot, f"Переполнение {n:02d}", f"Ночной ход номер {n}.")
    entries = []

    def save(name: str, page, note: str) -> None:  # type: ignore[no-untyped-def]
        (out / name).write_bytes(page.content)
        entries.append({"file": name, "method": "GET", "url": page.url, "status": page.status, "history": [],
                        "content_type": page.headers.get("Content-Type", ""), "bytes": len(page.content),
                        "note": note, "request_body": None})

    first = forum.read_page(forum.url("inbox"))
    save("80_pm_inbox_overflow_page1.html", first, f"the bot's inbox after {count} PMs from {board.players[0]}: "
         "page 1, all of them new")
    link = select_one(first.tree(), forum.profile.selectors["next_page"])
    second = forum.read_page(urljoin(first.url, link.get("href", "")))
    save("81_pm_inbox_overflow_page2.html", second, "page 2: the oldest new PMs, then the ones read before")
    pms, cursor = forum.fetch_pms(cursor)
    print(f"{engine}: the adapter read {len(pms)} of {count}: {[p.subject for p in pms]}", file=sys.stderr)
    view = forum.read_page(forum.url("pm", pm=pms[0].id))
    save("82_pm_view_overflow_first.html", view, f"the oldest of the {count} PMs (id {pms[0].id})")
    again, cursor = forum.fetch_pms(cursor)  # deletes the 25 read ones
    after = forum.read_page(forum.url("inbox"))
    save("83_pm_inbox_overflow_after_delete.html", after, f"the inbox after the next tick deleted the {count} read "
         f"PMs ({len(again)} new read then)")
    print(json.dumps(entries, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
