"""An error box inside the PM list's own form is a failed read, never "no PMs" (issue 26 item 9a).

issue 17 item 16 made an inbox showing the engine's error box a PageShowsError, but `error_box` skipped every box
inside a form (vBulletin 3.8's quick reply panel is one and is no error), so a box printed inside the PM list's
form still read as an empty inbox on SMF, PunBB (FluxBB + Visman's New PMS) and vBulletin: the night's moves
dropped. Each page below is a saved (or, for vBulletin, the fake board's) inbox whose form holds the engine's own
error box where its rows were; each place and each box is cited beside the code that builds it (SYNTHETIC pages,
changed here, never saved).

- SMF 2.1.4 (../shared/boards/src/smf-2.1.4.tar.gz): a fatal error raised while the folder template runs, after
  template_folder() opened form#pmFolder (Themes/default/PersonalMessage.template.php:187) and before its rows
  (the get_pmessage loops, :199, :231, :649), goes through setup_fatal_error_context (Sources/Errors.php:363
  sub_template 'fatal_error', :389 obExit(null, true, false, true)); obExit, the header being out already, prints
  no new page but the fatal_error sub-template and the footer where the output stands (Sources/Subs.php:4101-4172),
  so Errors.template.php:37-48's div#fatal_error lands inside the open form. The box is the one the real board
  printed (fixtures/smf/22_reply_flood_error.html).
- FluxBB 1.5.11 Visman (../shared/boards/src/fluxbb-1.5.11-visman.tar.gz): message() prints div#msg (include/
  functions.php:1060-1068) where the page stands once the header is out (:1051, no buffer cleared), so a
  message() from inside the list (include/pms_new/mdl/list.php:91-225, the form round div#vf: a mod or hook
  there; the stock list calls none) sits inside its form. Words: lang/Russian/common.php:17 'No permission'.
- vBulletin 3.8 / 4.2 (ENGINES.md §12): form#pmform round the folder's rows, as closed_boards.VbBoard serves it;
  in it the 3.8 standard_error panel (VbBoard.error_page's markup) or 4.2's construct_errors list
  (div.blockbody.errorblock ul.blockrow.error li, §12). Where vB would print one inside the form: unverified (no
  vB private.php page has been seen); the reader must not read one there as "no PMs" all the same.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
import responses
from lxml import etree

from adapters.html.dom import parse, select, select_one
from adapters.html.pagechecks import error_box
from adapters.vbulletin.forum import VbulletinForum
from adapters_support import FIXTURES
from forumbot.errors import PageFormatChanged, PageShowsError
from forumbot.forum.http_page import Page
from probe_cases import BASE, CASES, adapter_class

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import VbBoard  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
FLUX_NO_PERMISSION = "У вас нет прав на просмотр этой страницы."  # lang/Russian/common.php:17


def _adapter(engine: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    return adapter


def _smf_inbox_with_fatal_error() -> bytes:
    tree = parse((FIXTURES / "smf" / "30_pm_inbox.html").read_bytes().decode("utf-8"))
    form = select_one(tree, "form#pmFolder")
    table = select_one(form, "table.table_grid")
    for row in select(table, "tbody tr"):  # the subject loop failed at its first row
        row.getparent().remove(row)
    for later in list(table.itersiblings()):  # nothing of the template after the failure is printed
        form.remove(later)
    box = select_one(parse((FIXTURES / "smf" / "22_reply_flood_error.html").read_bytes().decode("utf-8")),
                     "#fatal_error")
    table.addnext(box)
    return etree.tostring(tree, method="html", encoding="utf-8")


def _punbb_list_with_message() -> bytes:
    tree = parse((FIXTURES / "punbb" / "31_pm_list.html").read_bytes().decode("utf-8"))
    vf = select_one(tree, "#vf")
    for row in select(vf, "tbody tr"):
        row.getparent().remove(row)
    box = etree.fromstring(f'<div id="msg" class="block"><h2><span>Информация</span></h2><div class="box">'
                           f'<div class="inbox"><p>{FLUX_NO_PERMISSION}</p></div></div></div>')
    vf.addnext(box)  # inside the list's form (mdl/list.php:91), after div#vf
    return etree.tostring(tree, method="html", encoding="utf-8")


@pytest.mark.parametrize("status", [200, 403])
@pytest.mark.parametrize("engine, build, said", [
    ("smf", _smf_inbox_with_fatal_error, "Последнее сообщение с вашего IP"),
    ("punbb", _punbb_list_with_message, FLUX_NO_PERMISSION),
])
def test_an_error_box_inside_the_pm_lists_form_is_page_shows_error(engine, build, said, status):
    body = build()
    tree = parse(body.decode("utf-8"))
    box = select_one(tree, "#fatal_error, #msg")
    assert any(a.tag == "form" for a in box.iterancestors())  # the page is what the test says
    assert select_one(tree, adapter_class(engine).profile.selectors["pm_list"]) is not None
    url_name = "inbox" if engine == "smf" else "pm_list"
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        http.add("GET", BASE + adapter_class(engine).profile.urls[url_name], body=body, status=status,
                 content_type=CASES[engine][4])
        with pytest.raises(PageShowsError, match=said) as caught:
            _adapter(engine).fetch_pms(None)  # before: ([], cursor), "no PMs"
    assert isinstance(caught.value, PageFormatChanged)  # the tick folds nothing on it and reads again


# vB 3.8.11's STANDARD_ERROR table (install/vbulletin-style.xml 27629-27743, hanson-tapatalk/dbdvb388): the message
# between the `main error message` comments in `<div style="margin: 10px">`
VB3_PANEL = ('<table class="tborder"><tr><td class="tcat">Сообщение</td></tr><tr><td class="panelsurround" '
             'align="center"><div class="panel"><div align="left"><!-- main error message --><div style="margin: '
             '10px">{said}</div><!-- / main error message --></div></div></td></tr></table>')
VB4_ERRORS = '<div class="blockbody formcontrols errorblock"><ul class="blockrow error"><li>{said}</li></ul></div>'


@pytest.mark.parametrize("box", [VB3_PANEL, VB4_ERRORS], ids=["vb3-panel", "vb4-errorblock"])
def test_vbulletin_error_box_inside_form_pmform_is_page_shows_error(box):
    said = "Форум временно недоступен из-за высокой нагрузки."
    board = VbBoard("Бот", "пароль", lambda: NOW)
    board.thread(101, "101")
    adapter = VbulletinForum(board.base, "Бот", "пароль", timezone_name="Europe/Moscow")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        board.install(http)
        adapter.login()
        served = board.handle

        def handle(method, path, query, form, cookies):
            if method == "GET" and path == "private.php" and "do" not in query:
                rows = board.pm_rows(query.get("folderid", "0"))
                token = f'value="{board.token}" />'
                assert "pmform" in rows and token in rows
                return board.answer(200, board.page(rows.replace(token, token + box.format(said=said), 1), True))
            return served(method, path, query, form, cookies)

        board.handle = handle
        with pytest.raises(PageShowsError, match=said):
            adapter.fetch_pms(None)  # before: ([], cursor)


def test_vbulletin_quick_reply_panel_in_its_form_is_still_no_error():
    """The exemption the old rule was for stays: a panel in a form that is not the PM list's (vB 3.8's quick
    reply on a thread page) is not an error box."""
    board = VbBoard("Бот", "пароль", lambda: NOW)
    html = board.page('<form action="newreply.php?do=postreply&amp;t=1" method="post" id="qrform">'
                      + VB3_PANEL.format(said="Быстрый ответ") + '</form>', True)
    page = Page(url=board.base + "showthread.php?t=1", status=200, headers={}, content=html.encode("utf-8"),
                charset="utf-8")
    assert error_box(page, VbulletinForum.profile) == ""
