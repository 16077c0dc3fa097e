"""Capture SMF's member-list search (the look-up of a game's accounts, issue 28 item 4) from a live SMF board
(../shared/boards/smf.sh build, stock English), for fixtures/smf/en/.

Run from the project root: `python3 tests/live/capture_member_pages.py BOARD_DIR`. As the bot, through the adapter's
transport, as served (bytes): the search for a player's name, for it in other case, for a name no account has; then,
with the board's "members per page" (defaultMaxMembers) set to 1, the two pages of the search for "a"; then, with
view_mlist taken from Regular Members (the bot's group), the page served in place of the list. Entries for
index.json are printed. The board's settings are put back at the end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "live")]

from adapters.smf.forum import SmfForum  # noqa: E402
from adapters.html.dom import select_one  # noqa: E402
from board_smf import set_setting  # noqa: E402
from boards import HANG_GUARD, Board  # noqa: E402

SEARCH = "index.php?action=mlist;sa=search;fields=name;search="


def permissions(board: Board, sql: str) -> None:
    """Regular Members' (group 0) permissions changed in the database, as the admin's Permissions page would."""
    done = subprocess.run(["mariadb", "--no-defaults", "-S", board.env["DB_SOCKET"], "-u", "root", board.env["DB_NAME"],
                           "-e", sql], capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr


def main(board_dir: Path) -> None:
    board = Board("smf", board_dir, {}, 0)
    out = ROOT / "fixtures" / "smf" / "en"
    entries: list[dict[str, Any]] = []
    bot = SmfForum(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow")
    bot.login()

    def save(name: str, path: str, note: str) -> Any:
        page = bot.transport.get(path)
        (out / name).write_bytes(page.content)
        entries.append({"file": name, "method": "GET", "url": page.url, "status": page.status, "history": [],
                        "content_type": page.headers.get("Content-Type", ""), "bytes": len(page.content),
                        "note": note + " (tests/live/capture_member_pages.py)", "request_body": None})
        return page

    def search(name: str) -> str:
        return SEARCH + quote(name, safe="")

    save("50_mlist_search_masha.html", search("Маша"), "the member list searched by name for Маша: one row")
    save("51_mlist_search_upper_case.html", search("КОТ БАЮН"),
         "searched for КОТ БАЮН: the row reads Кот Баюн (MariaDB compares case-insensitively)")
    save("52_mlist_search_no_matches.html", search("Никто"), "searched for Никто: \"Sorry, no matches were found\"")
    set_setting(board, "defaultMaxMembers", "1")
    try:
        first = save("53_mlist_search_a_page1.html", search("a"),
                     "searched for \"a\" with the board's members per page (defaultMaxMembers) set to 1: admin, "
                     "and the link to page 2")
        following = select_one(first.tree(), bot.profile.selectors["next_page"])
        assert following is not None, "no next page link"
        save("54_mlist_search_a_page2.html", urljoin(first.url, following.get("href", "")),
             "its page 2 (the first page's next-page link): alice, the last page")
    finally:
        set_setting(board, "defaultMaxMembers", "30")
    permissions(board, "DELETE FROM smf_permissions WHERE id_group = 0 AND permission = 'view_mlist'")
    try:
        save("55_mlist_not_allowed_403.html", search("Маша"),
             "searched for Маша once Regular Members (the bot's group) may no longer view the member list "
             "(view_mlist removed): SMF's fatal error page in its place")
    finally:
        permissions(board, "INSERT IGNORE INTO smf_permissions (id_group, permission, add_deny) VALUES (0, 'view_mlist', 1)")
    print(json.dumps(entries, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
