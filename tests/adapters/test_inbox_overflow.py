"""More PMs between two ticks than one inbox page shows, on inboxes saved from the live boards (fixtures 80-83:
MyBB 25 PMs at 20 a page, phpBB 30 at 25). Before the inbox walk only page 1 was read: its newest id became the
cursor, so the older PMs on page 2 (on page 1 once the next tick deleted the read ones) were skipped for ever,
5 of 25 on the live MyBB board. Nothing a player sent may be dropped silently; an idle inbox must still cost one
request."""

from __future__ import annotations

import json
import re

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import HTML, add_page, form_body, page
from forumbot.errors import PageFormatChanged

MYBB = "http://127.0.0.1:18935/"
PHPBB = "http://127.0.0.1:18930/"


def mybb(http, clock):
    forum = MybbForum(MYBB, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    return {"forum": forum, "ids": [str(n) for n in range(1, 50, 2)],
            "inbox": MYBB + "private.php", "page2": MYBB + "private.php?fid=0&page=2",
            "pm": re.compile(re.escape(MYBB) + r"private\.php\?action=read&pmid=\d+$"),
            "delete": [("POST", re.compile(re.escape(MYBB) + r"private\.php$"), "83_pm_inbox_overflow_after_delete.html"),
                       ("GET", MYBB + "private.php?fid=4", "83_pm_inbox_overflow_after_delete.html")],
            "deleted": lambda body: sorted((k[6:-1] for k in body if k.startswith("check[")), key=int)}


def phpbb(http, clock):
    forum = PhpbbForum(PHPBB, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    ucp = re.compile(re.escape(PHPBB) + r"ucp\.php\?.*")
    return {"forum": forum, "ids": [str(n) for n in range(1, 31)],
            "inbox": PHPBB + "ucp.php?i=pm&folder=inbox",
            "page2": PHPBB + "ucp.php?i=pm&mode=view&action=view_folder&f=0&st=0&sk=t&sd=d&start=25",
            "pm": re.compile(re.escape(PHPBB) + r"ucp\.php\?i=pm&mode=view&f=0&p=\d+$"),
            "delete": [("POST", ucp, "40_pm_delete_confirm.html"), ("POST", ucp, "41_pm_delete_done.html")],
            "deleted": lambda body: sorted(body.get("marked_msg_id[]", []), key=int)}


ENGINES = {"mybb": mybb, "phpbb": phpbb}


def serve(http, engine: str, url, name: str, method: str = "GET") -> None:
    if isinstance(url, str):
        add_page(http, method, url, engine, name)
    else:
        http.add(method, url, body=page(engine, name), status=200, content_type=HTML)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_pms_past_one_inbox_page_are_each_read_once_in_order(engine, http, clock):
    """All of them in the first tick (page 1 all new: page 2 is read), none again in the ticks that delete them
    (page 2's deleted too, by id) and after."""
    case = ENGINES[engine](http, clock)
    forum, ids = case["forum"], case["ids"]
    # the inbox as three ticks find it (responses serves same-URL pages in turn)
    for name in ("80_pm_inbox_overflow_page1.html", "80_pm_inbox_overflow_page1.html",
                 "83_pm_inbox_overflow_after_delete.html"):
        serve(http, engine, case["inbox"], name)
    serve(http, engine, case["page2"], "81_pm_inbox_overflow_page2.html")
    serve(http, engine, case["pm"], "82_pm_view_overflow_first.html")

    pms, cursor = forum.fetch_pms(json.dumps({"max": 0, "del": []}))
    assert [p.id for p in pms] == ids, "every PM once, oldest first"
    gets = [c.request.url for c in http.calls]
    assert gets[:2] == [case["inbox"], case["page2"]] and len(gets) == 2 + len(ids)

    # the next tick: page 1 shows PMs already read, so no walk; all of them are deleted
    for method, url, name in case["delete"]:
        serve(http, engine, url, name, method)
    before = len(http.calls)
    again, cursor = forum.fetch_pms(cursor)
    assert again == []
    calls = http.calls[before:]
    assert calls[0].request.url == case["inbox"] and case["page2"] not in [c.request.url for c in calls]
    posts = [c for c in calls if c.request.method == "POST"]
    assert case["deleted"](form_body(posts[0])) == ids, "page 2's read PMs are deleted too"
    assert json.loads(cursor)["del"] == []

    # and the tick after: an empty inbox, one request
    before = len(http.calls)
    assert forum.fetch_pms(cursor)[0] == [] and len(http.calls) == before + 1


@pytest.mark.parametrize("engine", list(ENGINES))
def test_an_idle_inbox_costs_one_request_though_it_has_a_second_page(engine, http, clock):
    case = ENGINES[engine](http, clock)
    serve(http, engine, case["inbox"], "80_pm_inbox_overflow_page1.html")
    newest = case["ids"][-1]
    pms, cursor = case["forum"].fetch_pms(json.dumps({"max": int(newest), "del": []}))
    assert pms == [] and len(http.calls) == 1
    assert json.loads(cursor) == {"max": int(newest), "del": []}


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_page_1_holding_a_known_pm_ends_the_walk(engine, http, clock):
    """The PMs newer than the cursor all sit on page 1 (the cursor's own PM is there too): no page 2."""
    case = ENGINES[engine](http, clock)
    serve(http, engine, case["inbox"], "80_pm_inbox_overflow_page1.html")
    serve(http, engine, case["pm"], "82_pm_view_overflow_first.html")
    ids = case["ids"]
    known = ids[-3]
    pms, _ = case["forum"].fetch_pms(json.dumps({"max": int(known), "del": []}))
    assert [p.id for p in pms] == ids[-2:] and len(http.calls) == 3


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_linked_page_that_shows_no_pms_is_an_error_not_the_end(engine, http, clock):
    case = ENGINES[engine](http, clock)
    serve(http, engine, case["inbox"], "80_pm_inbox_overflow_page1.html")
    serve(http, engine, case["page2"], "83_pm_inbox_overflow_after_delete.html")
    with pytest.raises(PageFormatChanged):
        case["forum"].fetch_pms(json.dumps({"max": 0, "del": []}))
