"""Capture the reply previews the handshake sends (issue 28 item 4) from a live MyBB, SMF or FluxBB board
(../shared/boards/<engine>.sh build), for fixtures/<engine>/ (SMF: fixtures/smf/en/, the stock English board).

Run from the project root: `python3 tests/live/capture_preview_pages.py mybb|smf|fluxbb BOARD_DIR`. Through the
adapter, as served (bytes): the bot's reply preview in the game thread (the adapter's `preview_reply`, which posts
nothing); then the admin makes the bot a moderator and the bot closes the vote thread, and a player's reply
preview there is refused: the page the player's account is served in place of the reply form. Entries for
index.json are printed. The board is changed by it (the bot moderates, the vote thread is closed): rebuild it
before capturing again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "live")]

from adapters.mybb.forum import MybbForum  # noqa: E402
from adapters.punbb.forum import PunbbForum  # noqa: E402
from adapters.smf.forum import SmfForum  # noqa: E402
from boards import Board  # noqa: E402
from forumbot.errors import ForumError  # noqa: E402
from forumbot.texts import ru  # noqa: E402
from moderators import promote_fluxbb, promote_mybb, promote_smf  # noqa: E402

# engine: (adapter, its fixtures' folder, the preview's file, the refusal's file, the admin's promotion)
CAPTURES: dict[str, tuple[type, str, str, str, Callable[[Board], None]]] = {
    "mybb": (MybbForum, "mybb", "53_reply_preview.html", "54_reply_form_thread_closed.html", promote_mybb),
    "smf": (SmfForum, "smf/en", "23_reply_preview.html", "24_reply_form_topic_locked.html", promote_smf),
    "fluxbb": (PunbbForum, "punbb", "48_reply_preview.html", "49_reply_form_topic_closed.html", promote_fluxbb),
}


def recording(forum: Any) -> list[tuple[str, Any]]:
    """Every page the adapter's transport is served from now on, as (method, page)."""
    served: list[tuple[str, Any]] = []
    get, post_form = forum.transport.get, forum.transport.post_form

    def recorded_get(*args: Any, **kwargs: Any) -> Any:
        page = get(*args, **kwargs)
        served.append(("GET", page))
        return page

    def recorded_post(*args: Any, **kwargs: Any) -> Any:
        page = post_form(*args, **kwargs)
        served.append(("POST", page))
        return page

    forum.transport.get, forum.transport.post_form = recorded_get, recorded_post
    return served


def main(engine: str, board_dir: Path) -> None:
    cls, folder, preview_file, refusal_file, promote = CAPTURES[engine]
    board = Board(engine, board_dir, {}, 0)
    out = ROOT / "fixtures" / folder
    entries = []

    def save(name: str, method: str, page: Any, note: str) -> None:
        (out / name).write_bytes(page.content)
        entries.append({"file": name, "method": method, "url": page.url, "status": page.status, "history": [],
                        "content_type": page.headers.get("Content-Type", ""), "bytes": len(page.content),
                        "note": note, "request_body": None})

    text = ru.T["handshake.preview"]
    bot = cls(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow")
    bot.login()
    served = recording(bot)
    bot.preview_reply(board.topic_url(board.env["GAME_TOPIC"]), text)
    method, answer = served[-1]
    save(preview_file, method, answer, f"the bot's reply form sent with its preview button, «{text}»: the message "
         "shown back above the form, nothing posted (tests/live/capture_preview_pages.py)")

    promote(board)
    vote = board.topic_url(board.env["VOTE_TOPIC"])
    bot.lock_thread(vote, True)
    player = cls(board.base_url, board.players[0], board.password, timezone_name="Europe/Moscow")
    player.login()
    served = recording(player)
    try:
        player.preview_reply(vote, text)
    except ForumError as e:
        print(f"{engine}: refused as expected: {e}", file=sys.stderr)
    else:
        raise SystemExit(f"{engine}: the preview in the closed thread was not refused")
    method, answer = served[-1]
    save(refusal_file, method, answer, f"{board.players[0]} opens the reply form of the vote thread the bot closed "
         "(as a moderator): the board's refusal in its place (tests/live/capture_preview_pages.py)")
    print(json.dumps(entries, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
