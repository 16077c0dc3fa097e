"""An inbox page showing the engine's error box is an error, never "no PMs" (issue 17 item 16).

Re-run with the inbox served as the engine's error page (HTTP 200 or 403, logged-in marks and footer intact),
smf, punbb, mybbru, xenforo, vbulletin and invision read it as an empty inbox; in a XenForo game the night then
resolved without its moves. Here each engine's saved inbox page has its main block replaced by the main block of
the same engine's saved error page (smf 22, punbb 35, mybbru s-reply-flood; XenForo's error box as ENGINES.md
§12 quotes it), and vBulletin and Invision serve their fake boards' error page at the inbox (closed_boards.py,
built to their markup): fetch_pms raises PageShowsError naming what the page said. The unaltered inbox still
reads (no false alarm on an ordinary page)."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
import responses
from urllib.parse import parse_qsl
from responses import matchers
from lxml import etree

from adapters.html.dom import parse, select_one
from adapters_support import FIXTURES
from forumbot.errors import ForumUnavailable, PageFormatChanged, PageShowsError
from probe_cases import BASE, CASES, adapter_class

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard, VbBoard  # noqa: E402

XF_ERROR = ('<div class="blockMessage blockMessage--error blockMessage--iconic">'
            "У вас нет прав для просмотра этой страницы или выполнения этого действия.</div>")
# engine: (inbox url name, saved inbox, saved error page, the main block both share)
PAGES = {
    "smf": ("inbox", "30_pm_inbox.html", "22_reply_flood_error.html", "#main_content_section"),
    "punbb": ("pm_list", "31_pm_list.html", "35_pm_flood_error.html", "#brdmain"),
    "mybbru": ("inbox", "s-messages-inbox.SYNTHETIC.html", "s-reply-flood.SYNTHETIC.html", "#pun-main"),
    "xenforo": ("inbox", "E-conversations-list-xf22.html", None, "div.p-body-pageContent"),
}
SAID = {"smf": "Последнее сообщение с вашего IP", "punbb": "Хотя бы 30 секунд", "mybbru": "Должно пройти",
        "xenforo": "У вас нет прав"}


def _adapter(engine: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    return adapter


def _error_inbox(engine: str) -> bytes:
    _, inbox, error, main = PAGES[engine]
    charset = "cp1251" if engine == "mybbru" else "utf-8"
    tree = parse((FIXTURES / engine / inbox).read_bytes().decode(charset))
    old = select_one(tree, main)
    if error is None:
        new = etree.fromstring(f'<div class="p-body-pageContent">{XF_ERROR}</div>')
    else:
        new = select_one(parse((FIXTURES / engine / error).read_bytes().decode(charset)), main)
    old.getparent().replace(old, new)
    return etree.tostring(tree, method="html", encoding=charset)


def _serve(http, engine: str, body: bytes, status: int) -> None:
    url = BASE + adapter_class(engine).profile.urls[PAGES[engine][0]]
    http.add("GET", url, body=body, status=status, content_type=CASES[engine][4])


@pytest.mark.parametrize("status", [200, 403])
@pytest.mark.parametrize("engine", sorted(PAGES))
def test_an_inbox_showing_the_error_box_is_page_shows_error_not_an_empty_inbox(engine, status):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        _serve(http, engine, _error_inbox(engine), status)
        with pytest.raises(PageShowsError, match=SAID[engine]) as caught:
            _adapter(engine).fetch_pms(None)  # today: ([], cursor) - "no PMs"
    assert isinstance(caught.value, PageFormatChanged)  # the tick's handling: no fold, the next tick reads again


@pytest.mark.parametrize("engine", sorted(PAGES))
def test_the_same_inbox_unaltered_is_read_on(engine):
    """No false alarm: the saved inbox passes; the adapter reads its rows (SMF shows the PMs on it) or goes on
    to open what it lists (not served here: ForumUnavailable)."""
    _, inbox, _, _ = PAGES[engine]
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        url = BASE + adapter_class(engine).profile.urls[PAGES[engine][0]]
        base, _, query = url.partition("?")
        http.add("GET", base, body=(FIXTURES / engine / inbox).read_bytes(), content_type=CASES[engine][4],
                 match=[matchers.query_param_matcher(dict(parse_qsl(query.replace(";", "&"))), strict_match=True)])
        try:
            pms, _ = _adapter(engine).fetch_pms(None)
            assert pms
        except ForumUnavailable as e:
            assert "ConnectionError" in str(e) and len(http.calls) > 1


NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("status", [200, 403])
@pytest.mark.parametrize("cls", [VbBoard, IpsBoard])
def test_closed_engines_inbox_error_page_is_page_shows_error(cls, status):
    from adapters.invision.forum import InvisionForum
    from adapters.vbulletin.forum import VbulletinForum

    board = cls("Бот", "пароль", lambda: NOW)
    board.thread(101, "101")
    adapter_cls = VbulletinForum if cls is VbBoard else InvisionForum
    adapter = adapter_cls(board.base, "Бот", "пароль", timezone_name="Europe/Moscow")
    inbox = adapter.profile.urls["inbox"]
    said = "Форум временно недоступен из-за высокой нагрузки."
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        board.install(http)
        adapter.login()
        served = board.handle

        def handle(method, path, query, form, cookies):
            if method == "GET" and inbox.startswith(path) and (path != "private.php" or "do" not in query):
                s, headers, body = board.error_page(said, True) if cls is VbBoard else \
                    board.error_page(said, True, status)
                return status, headers, body
            return served(method, path, query, form, cookies)

        board.handle = handle
        with pytest.raises(PageShowsError, match=said):
            adapter.fetch_pms(None)  # today: ([], cursor)
