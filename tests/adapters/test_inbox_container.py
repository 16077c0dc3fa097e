"""An inbox page without the engine's PM list container is an error, never "no PMs" (issue 17 item 16, issue 18).

A theme or a changed template that lists the PMs in markup the profile does not read showed no rows, and the
inbox read as empty: a night resolved without its moves, which read later rewrote an announced result (C-13).
Each engine's saved inbox page (phpBB, MyBB and SMF
captured from the live boards; FluxBB's dialogue list, which fetch_pms reads, too; mybb.ru's built to ENGINES.md
§12) is served twice, changed in the test only:
with its rows taken out and the container kept (an empty folder, as the engine prints one: no alarm), and
with the rows as their words alone and the container's id or name gone (a list the profile cannot read):
fetch_pms raises PageFormatChanged naming the selector, and `forumbot probe`'s inbox checks name it too.
FluxBB's New PMS prints no table at all for a member without a dialogue (div#infono instead, mdl/list.php): that
page, saved from the live board, is an empty inbox. vBulletin and Invision: tests/emulators (their folders are
the emulators' pages)."""

from __future__ import annotations

import pytest
import responses
from lxml import etree

from adapters.html.dom import clean_text, parse, select, select_one
from adapters.html.pagechecks import inbox_problems
from adapters_support import FIXTURES
from forumbot.errors import PageFormatChanged
from forumbot.forum.http_page import Page
from probe_cases import BASE, CASES, adapter_class

ENGINES = ["phpbb", "mybb", "smf", "mybbru", "punbb"]
# Where fetch_pms reads the PM list (url key) and its saved page: the inbox, except on FluxBB, whose New PMS
# dialogue list ("Моя переписка") is read
LISTS = {"punbb": ("pm_list", "31_pm_list.html")}


def _list(engine: str) -> tuple[str, str]:
    return LISTS.get(engine, ("inbox", CASES[engine][3]))


def _charset(engine: str) -> str:
    return "cp1251" if engine == "mybbru" else "utf-8"


def _inbox(engine: str, *, keep_container: bool) -> bytes:
    cls = adapter_class(engine)
    sel = cls.profile.selectors
    tree = parse((FIXTURES / engine / _list(engine)[1]).read_bytes().decode(_charset(engine)))
    container = select_one(tree, sel["pm_list"])
    assert container is not None, f"{engine}: the saved inbox shows {sel['pm_list']!r}"
    rows = select(tree, sel["pm_row"]) if "pm_row" in sel else [
        next(a for a in link.iterancestors() if a.tag == "tr") for link in select(tree, sel["pm_row_link"])]
    assert rows
    for row in rows:  # the rows out: an empty folder inside the engine's own container ...
        words = etree.Element("div", {"class": "pm-row-themed"})
        words.text = " ".join(clean_text(row).split()) if not keep_container else ""
        row.getparent().replace(row, words)
    if not keep_container:  # ... or a list the profile cannot read: rows as words, the container's marks gone
        for name in ("id", "name"):
            container.attrib.pop(name, None)
        assert select_one(tree, sel["pm_list"]) is None
    return etree.tostring(tree, method="html", encoding=_charset(engine))


def _adapter(engine: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    return adapter


def _serve(http, engine: str, body: bytes) -> None:
    http.add("GET", BASE + adapter_class(engine).profile.urls[_list(engine)[0]], body=body,
             content_type=CASES[engine][4])


@pytest.mark.parametrize("engine", ENGINES)
def test_an_inbox_without_its_pm_list_is_an_error_not_an_empty_inbox(engine):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        _serve(http, engine, _inbox(engine, keep_container=False))
        with pytest.raises(PageFormatChanged, match="shows no PM list") as e:
            _adapter(engine).fetch_pms(None)  # before: ([], cursor), "no PMs"
    assert adapter_class(engine).profile.selectors["pm_list"] in str(e.value)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_folder_in_its_container_is_an_empty_inbox(engine):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        _serve(http, engine, _inbox(engine, keep_container=True))
        pms, _ = _adapter(engine).fetch_pms(None)
    assert pms == []


@pytest.mark.parametrize("engine", ENGINES)
def test_probe_names_the_missing_pm_list(engine):
    adapter = _adapter(engine)
    url = BASE + adapter.profile.urls["inbox"]
    page = Page(url=url, status=200, headers={"Content-Type": CASES[engine][4]},
                content=_inbox(engine, keep_container=False), charset=_charset(engine))
    assert [p for p in inbox_problems(adapter, page) if p.startswith("check PM list:")]
    whole = Page(url=url, status=200, headers={"Content-Type": CASES[engine][4]},
                 content=(FIXTURES / engine / CASES[engine][3]).read_bytes(), charset=_charset(engine))
    assert not [p for p in inbox_problems(adapter, whole) if p.startswith("check PM list:")]


def test_fluxbb_a_member_without_a_dialogue_has_an_empty_inbox():
    # saved from the live board: the admin, whom the seeding gave no dialogue (fixtures/punbb/README.md)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        http.add("GET", BASE + "pmsnew.php?mdl=list", content_type=CASES["punbb"][4],
                 body=(FIXTURES / "punbb" / "43_pm_list_empty.html").read_bytes())
        pms, _ = _adapter("punbb").fetch_pms(None)
    assert pms == []
    # probe reads pmsnew.php, which served the same page (the "new" module shows the list when nothing is new)
    inbox = Page(url=BASE + "pmsnew.php", status=200, headers={"Content-Type": CASES["punbb"][4]},
                 content=(FIXTURES / "punbb" / "43_pm_list_empty.html").read_bytes(), charset="utf-8")
    assert inbox_problems(_adapter("punbb"), inbox) == []
