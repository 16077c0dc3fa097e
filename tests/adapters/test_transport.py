"""The shared transport: pacing, retries, Retry-After, charsets, challenges, cookies. No real waiting."""

from __future__ import annotations

import json

import pytest
import requests

from forumbot.errors import CaptchaRequired, FloodLimited, ForumUnavailable
from forumbot.forum.transport_settings import PACE_MARGIN
from forumbot.forum.transport import Transport
from forumbot.forum.http_page import declared_charset

U = "http://forum.test/"


@pytest.fixture
def t(clock):
    return Transport(U, bot="gm_bot", intervals={"post": 15, "pm": 60}, clock=clock, sleep=clock.sleep)


def test_user_agent_is_stable_and_names_the_bot(t, http):
    http.add("GET", U + "a", body="x")
    t.get("a"), t.get("a")
    agents = {c.request.headers["User-Agent"] for c in http.calls}
    assert len(agents) == 1 and "forumbot" in agents.pop()


def test_min_interval_per_action(t, http, clock):
    http.add("POST", U + "p", body="ok")
    t.post_form("p", [("m", "1")], action="post")
    clock.now += 5
    t.post_form("p", [("m", "2")], action="post")
    assert clock.sleeps == [10 + PACE_MARGIN]  # servers count whole seconds
    t.post_form("p", [("m", "3")], action="read")  # another action is not held back
    assert clock.sleeps == [10 + PACE_MARGIN]


def test_max_wait_turns_a_long_pause_into_flood_limited(clock, http):
    t = Transport(U, intervals={"pm": 60}, max_wait=5, clock=clock, sleep=clock.sleep)
    http.add("POST", U + "p", body="ok")
    t.post_form("p", [], action="pm")
    with pytest.raises(FloodLimited) as err:
        t.post_form("p", [], action="pm")
    assert err.value.retry_after == 60 + PACE_MARGIN and clock.sleeps == []


def test_retry_after_is_honoured(t, http, clock):
    http.add("GET", U + "a", status=429, headers={"Retry-After": "7"})
    http.add("GET", U + "a", body="fine")
    assert t.get("a").text == "fine" and clock.sleeps == [7]


def test_429_exhausted_is_flood_limited_with_retry_after(t, http):
    http.add("GET", U + "a", status=429, headers={"Retry-After": "3"})
    with pytest.raises(FloodLimited) as err:
        t.get("a")
    assert err.value.retry_after == 3


def test_5xx_backs_off_then_unavailable(t, http, clock):
    http.add("GET", U + "a", status=502)
    with pytest.raises(ForumUnavailable):
        t.get("a")
    assert clock.sleeps == [2, 4, 8]


def test_post_is_not_repeated_after_a_5xx(t, http):
    http.add("POST", U + "p", status=500)
    with pytest.raises(ForumUnavailable):
        t.post_form("p", [], action="post")
    assert len(http.calls) == 1


def test_connect_timeout_is_retried_even_for_post(t, http):
    http.add("POST", U + "p", body=requests.exceptions.ConnectTimeout())
    http.add("POST", U + "p", body="ok")
    assert t.post_form("p", [], action="post").text == "ok"


def test_cloudflare_challenge_is_captcha_required(t, http):
    http.add("GET", U + "a", status=403, headers={"cf-mitigated": "challenge"}, body="<html>Just a moment</html>")
    with pytest.raises(CaptchaRequired):
        t.get("a")


def test_charset_from_header_then_meta_never_guessed(t, http):
    body = "<html><head><meta charset=windows-1251></head><body>Привет</body></html>".encode("cp1251")
    http.add("GET", U + "meta", body=body, content_type="text/html")
    assert t.get("meta").text.endswith("Привет</body></html>")
    http.add("GET", U + "hdr", body=body, content_type="text/html; charset=windows-1251")
    assert "Привет" in " ".join(t.get("hdr").tree().itertext())
    assert declared_charset("text/html", b"<p>no declaration</p>") is None


def test_form_body_is_encoded_in_the_page_charset(t, http):
    http.add("POST", U + "p", body="ok")
    t.post_form("p", [("message", "Голос: Петя 🙂")], charset="windows-1251")
    sent = http.calls[0].request.body
    assert b"%C3%EE%EB%EE%F1" in sent and b"%26%23128578%3B" in sent  # cp1251 bytes, emoji as &#128578;


def test_cookies_round_trip_as_json(t, http, clock):
    http.add("GET", U + "login", body="x", headers={"Set-Cookie": "phpbb3_abc_sid=s1; Path=/"})
    t.get("login")
    t.done("post")
    state = json.loads(json.dumps(t.export_state()))
    fresh = Transport(U, clock=clock, sleep=clock.sleep, intervals={"post": 15})
    fresh.import_state(state)
    assert fresh.session.cookies.get("phpbb3_abc_sid") == "s1"
    http.add("GET", U + "next", body="y")
    fresh.get("next")
    assert "phpbb3_abc_sid=s1" in http.calls[-1].request.headers["Cookie"]
    assert fresh.last_action["post"] == clock.now
