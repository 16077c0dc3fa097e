"""Discourse as its source code says it behaves (issue 10 item 5, (a)-(e)).

Every answer is shaped as the Discourse source produces it; fixtures/discourse/README.md names the source file
of each shape.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from adapters.discourse.forum import DiscourseForum
from adapters_support import FIXTURES
from forumbot.errors import ConfigError, FormRejected, LoginRequired, PostQueued

U = "https://talk.test/"
PM_LIST = U + "topics/private-messages/gm_bot.json"
JSON = "application/json"


def fx(name: str) -> str:
    return (FIXTURES / "discourse" / name).read_text(encoding="utf-8")


def keyed(clock) -> DiscourseForum:
    return DiscourseForum(U, "gm_bot", admin_api_key="admin-k", clock=clock, sleep=clock.sleep)


def posts(http) -> list:
    return [c for c in http.calls if c.request.method == "POST"]


# --- (a) a restored password session fetches a CSRF token before its first write ---------------------------


def restored(clock) -> DiscourseForum:
    """A password-mode adapter as the daemon opens it after a restart: the stored session, no login."""
    first = DiscourseForum(U, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    first.transport.session.cookies.set("_t", "session-cookie", domain="talk.test", path="/")
    jar = first.export_cookies()
    again = DiscourseForum(U, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    again.import_cookies(jar)
    return again


def test_a_restored_session_fetches_the_csrf_token_before_its_first_write_issue10_item5a(clock, http):
    forum = restored(clock)
    assert forum.transport.session.cookies.get("_t") == "session-cookie"  # kept by the store: no new login
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_reply.json"), content_type=JSON)
    assert forum.reply("42", "Ночь наступила") == "108"
    assert [c.request.url for c in http.calls] == [U + "session/csrf", U + "posts.json"]  # no POST /session
    assert http.calls[1].request.headers["X-CSRF-Token"] == "Zq3xk0example-token"
    forum.reply("42", "Ещё одно сообщение")
    assert len(http.calls) == 3  # one token per process, not one per write


def test_a_bad_csrf_refusal_refreshes_the_token_and_sends_once_more_without_a_login_issue10_item5a(clock, http):
    """ApplicationController#handle_unverified_request answers 403 `["BAD CSRF"]` before the action runs, so
    the post was not made: a fresh token and the same request once more, instead of a full login."""
    forum = restored(clock)
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("GET", U + "session/csrf", body=fx("session_csrf_2.json"), content_type=JSON)
    http.add("POST", U + "posts.json", status=403, body=fx("bad_csrf_403.txt"), content_type="text/plain")
    http.add("POST", U + "posts.json", body=fx("posts_create_reply.json"), content_type=JSON)
    assert forum.reply("42", "Ночь наступила") == "108"
    assert [c.request.url for c in http.calls] == [U + "session/csrf", U + "posts.json", U + "session/csrf",
                                                   U + "posts.json"]
    assert http.calls[-1].request.headers["X-CSRF-Token"] == "Fresh9token-after-bad-csrf"


def test_an_expired_session_is_still_login_required_issue10_item5a(clock, http):
    forum = restored(clock)
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("POST", U + "posts.json", status=403, body=fx("not_logged_in_403.json"), content_type=JSON)
    with pytest.raises(LoginRequired, match="logged in"):
        forum.reply("42", "Ночь наступила")
    assert len(posts(http)) == 1


def test_a_write_forbidden_to_a_logged_in_account_is_refused_not_a_login_issue10_item5a(clock, http):
    """Discourse::InvalidAccess renders 403 with error_type "invalid_access" (ApplicationController): the bot is
    logged in but may not post there (a closed topic); a login would not help and would cost one of 6 a minute."""
    forum = restored(clock)
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("POST", U + "posts.json", status=403, body=fx("invalid_access_403.json"), content_type=JSON)
    with pytest.raises(FormRejected, match="not permitted"):
        forum.reply("42", "Ночь наступила")


def test_after_a_restart_the_daemon_restores_the_session_and_the_first_write_costs_no_login_issue10_item5a(
        clock, http, tmp_path):
    """The whole path: forumbot.cycle.daemon.Forums opens the forum from the stored session (no POST /session), and
    the first write fetches the token first, so it is not refused and no login is spent."""
    from sqlalchemy import select

    from forumbot.config.load import load_config
    from forumbot.cycle.daemon import Forums, build_adapter
    from forumbot.store import open_engine, session_factory, upgrade
    from forumbot.store.models import ForumRow
    from forumbot.store.records import forum_id
    from forumbot.forum.retry import Retry

    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml('password_env = "FORUMBOT_TALK_PASSWORD"'), encoding="utf-8")
    config = load_config(path)
    engine = open_engine(f"sqlite:///{tmp_path / 'f.db'}")
    upgrade(engine)
    sessions = session_factory(engine)
    with sessions.begin() as s:
        forum_id(s, "talk", "discourse")
        s.scalar(select(ForumRow).where(ForumRow.name == "talk")).cookies = restored(clock).export_cookies()
    forums = Forums(config, sessions, {"FORUMBOT_TALK_PASSWORD": "pw"}, build_adapter)
    adapter = forums.open({"talk"}, Retry(sleep=clock.sleep))["talk"]
    assert adapter.transport.session.cookies.get("_t") == "session-cookie" and len(http.calls) == 0
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_reply.json"), content_type=JSON)
    assert adapter.reply("42", "Ночь наступила") == "108"
    assert [c.request.url for c in http.calls] == [U + "session/csrf", U + "posts.json"]
    engine.dispose()


def test_the_session_goes_to_the_store_as_cookies_and_flood_times_issue10_item5a(clock):
    """forumbot.cycle.daemon keeps a session (so a tick does not log in) only for adapters with export_cookies."""
    forum = restored(clock)
    state = json.loads(forum.export_cookies())
    assert [c["name"] for c in state["cookies"]] == ["_t"] and "last_action" in state


# --- (b) a post held for approval is reported as queued -------------------------------------------------------


def test_an_enqueued_post_is_post_queued_with_its_pending_id_issue10_item5b(clock, http):
    """NewPostManager#enqueue + NewPostResultSerializer; PostsController#backwards_compatible_json keeps the
    whole result (not the post) when action is "enqueued", with status 200."""
    http.add("POST", U + "posts.json", body=fx("posts_create_enqueued.json"), content_type=JSON)
    with pytest.raises(PostQueued) as queued:
        keyed(clock).reply("42", "Итоги голосования")
    assert queued.value.pending_id == "17" and "approval" in str(queued.value)


def test_an_enqueued_post_is_neither_resent_nor_counted_and_the_gms_are_told_issue10_item5b(clock, http, tmp_path):
    from sqlalchemy import select

    from forumbot.model import Message, Where
    from forumbot.outbox.store import Destination, enqueue
    from forumbot.outbox.deliver import deliver
    from forumbot.store import open_engine, session_factory, upgrade
    from forumbot.store.models import GameRow, OutboxRow
    from forumbot.store.records import forum_id

    engine = open_engine(f"sqlite:///{tmp_path / 'f.db'}")
    upgrade(engine)
    sessions = session_factory(engine)
    now = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
    with sessions.begin() as s:
        game = GameRow(name="g1", forum_id=forum_id(s, "main", "discourse"), status="running", mode="live", seed=1,
                    setup_json="{}", commitment="c", started_at=now)
        s.add(game)
        s.flush()
        gid = game.id
        enqueue(s, gid, "g1", [Message(at=now, where=Where.VOTE, to=None, key="day1/count/1", text="Итоги: Петя 3")],
                origin="core")
    target = Destination(game_id=gid, game="g1", game_thread="41", vote_thread="42", subject="Мафия: осень",
                    gms=("Ведущий",), language="ru")
    forum = keyed(clock)
    http.add("POST", U + "posts.json", body=fx("posts_create_enqueued.json"), content_type=JSON)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot_topics.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_pm_reply.json"), content_type=JSON)
    report = deliver(sessions, forum, target, now)
    # the queued post is neither sent nor counted; the GM's notice goes out in the same delivery
    assert report.error is None and report.sent == 1 and report.queued == ["day1/count/1"]
    with sessions.begin() as s:
        rows = {r.key: r for r in s.scalars(select(OutboxRow))}
    assert rows["day1/count/1"].status == "queued" and rows["day1/count/1"].remote_id == "pending:17"
    notice = rows["queued/day1/count/1/Ведущий"]
    assert notice.where == Where.PM and notice.to == "Ведущий" and notice.status == "sent"
    assert "проверку модератором" in notice.text and "Итоги: Петя 3" in notice.text
    n = len(posts(http))
    sent = json.loads(posts(http)[-1].request.body)
    assert sent["topic_id"] == 90 and "проверку модератором" in sent["raw"]  # into the GM's PM topic
    assert deliver(sessions, forum, target, now).sent == 0 and len(posts(http)) == n  # nothing sent again
    engine.dispose()


# --- (c) one PM topic per player -----------------------------------------------------------------------------


def test_a_pm_replies_in_the_players_topic_titled_for_the_game_issue10_item5c(clock, http):
    """TopicListItemSerializer: `participants` (the topic's users but the bot, via the top-level `users`) and
    `allowed_user_count`; masha has two 1:1 topics, one titled as the game's PMs."""
    forum = keyed(clock)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot_topics.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_pm_reply.json"), content_type=JSON)
    assert forum.send_pm("Masha", "Мафия: осень", "Ночь 1: кого проверяешь?") == "402"
    assert json.loads(http.calls[-1].request.body) == {"topic_id": 91, "raw": "Ночь 1: кого проверяешь?"}
    forum.send_pm("masha", "Другая игра", "Текст")  # no topic of that title: her most recently active one
    assert json.loads(http.calls[-1].request.body)["topic_id"] == 95
    forum.send_pm("Ведущий", "Мафия: осень", "Отчёт")
    assert json.loads(http.calls[-1].request.body)["topic_id"] == 90
    forum.send_pm("petya", "Мафия: осень", "Роль")  # his game topic is closed: the older open one
    assert json.loads(http.calls[-1].request.body)["topic_id"] == 89
    forum.send_pm("petya, masha", "Мафия: осень", "Вы — мафия")  # the topic with exactly both of them
    assert json.loads(http.calls[-1].request.body)["topic_id"] == 94
    assert [c.request.url for c in http.calls].count(PM_LIST) == 1  # the list is read once per process


def test_a_pm_opens_a_topic_only_for_a_player_without_one_then_replies_there_issue10_item5c(clock, http):
    forum = keyed(clock)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot_topics.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_pm.json"), content_type=JSON)  # topic 88
    forum.send_pm("vasya", "Мафия: осень", "Твоя роль: шериф")
    opened = json.loads(http.calls[-1].request.body)
    assert opened["archetype"] == "private_message" and opened["target_recipients"] == "vasya"
    assert opened["title"] == "Мафия: осень"
    http.replace("POST", U + "posts.json", body=fx("posts_create_pm_reply.json"), content_type=JSON)
    forum.send_pm("vasya", "Мафия: осень", "Ночь 1")
    assert json.loads(http.calls[-1].request.body) == {"topic_id": 88, "raw": "Ночь 1"}


def test_the_inbox_read_teaches_the_pm_topics_so_a_send_costs_no_list_request_issue10_item5c(clock, http):
    forum = keyed(clock)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot.json"), content_type=JSON)
    http.add("GET", U + "t/77.json", body=fx("t_77.json"), content_type=JSON)
    forum.fetch_pms()
    http.add("POST", U + "posts.json", body=fx("posts_create_pm_reply.json"), content_type=JSON)
    n = len(http.calls)
    forum.send_pm("masha", "Мафия: осень", "Принято")
    assert len(http.calls) == n + 1 and json.loads(http.calls[-1].request.body)["topic_id"] == 77


def test_a_refused_reply_in_a_pm_topic_opens_a_new_one_issue10_item5c(clock, http):
    forum = keyed(clock)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot_topics.json"), content_type=JSON)
    http.add("POST", U + "posts.json", status=422, body=fx("posts_error_422.json"), content_type=JSON)
    http.add("POST", U + "posts.json", body=fx("posts_create_pm.json"), content_type=JSON)
    assert forum.send_pm("masha", "Мафия: осень", "Текст роли, достаточно длинный") == "401"
    bodies = [json.loads(c.request.body) for c in posts(http)]
    assert bodies[0]["topic_id"] == 91 and bodies[1]["archetype"] == "private_message"


def test_the_bots_replies_in_a_pm_topic_are_not_read_as_pms_whatever_the_case_of_its_login_issue10_item5c(
        clock, http):
    """Now that the bot replies in players' PM topics, its own posts there come back with each read of them;
    Discourse compares usernames case-insensitively (username_lower), and so must the inbox."""
    forum = DiscourseForum(U, "GM_Bot", admin_api_key="admin-k", clock=clock, sleep=clock.sleep)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot.json"), content_type=JSON)
    http.add("GET", U + "t/77.json", body=fx("t_77.json"), content_type=JSON)
    pms, _ = forum.fetch_pms()
    assert [(p.id, p.author) for p in pms] == [("301", "masha")]  # 302 is the bot's own (gm_bot)


def test_find_own_pm_looks_in_the_players_pm_topic_issue10_item5c(clock, http):
    """After a crash between sending and recording, the PM is looked for where it would be: at the end of the
    player's PM topic, so it is neither lost nor sent twice."""
    topic = json.loads(fx("t_77.json"))
    topic["post_stream"]["posts"][1]["cooked"] = "<p>Твоя роль: шериф</p>\n<p>#fb:1a2b3c4d</p>"
    forum = keyed(clock)
    http.add("GET", PM_LIST, body=fx("private_messages_gm_bot.json"), content_type=JSON)
    http.add("GET", U + "t/77.json", body=json.dumps(topic, ensure_ascii=False), content_type=JSON)
    assert forum.find_own_pm("masha", "#fb:1a2b3c4d") == "302"
    assert forum.find_own_pm("masha", "#fb:99999999") is None
    assert forum.find_own_pm("petya", "#fb:1a2b3c4d") is None  # no PM topic with him: nothing to read
    assert [c.request.url for c in http.calls].count(U + "t/77.json") == 2


# --- (d) what the account lacks, for check-config --online -----------------------------------------------------


def _topic_opened_by(user_id: int, username: str) -> str:
    data = json.loads(fx("t_42.json"))
    data["user_id"] = user_id
    data["details"] = {"created_by": {"id": user_id, "username": username, "name": "", "avatar_template": ""}}
    return json.dumps(data, ensure_ascii=False)


def test_a_trust_level_0_account_is_told_what_it_cannot_do_issue10_item5d(clock, http):
    """UserCardSerializer: trust_level, admin, moderator, can_send_private_messages; PostValidator and
    User#posted_too_much_in_topic? for the per-topic limits."""
    http.add("GET", U + "u/gm_bot.json", body=fx("u_gm_bot_tl0.json"), content_type=JSON)
    http.add("GET", U + "t/42.json", body=_topic_opened_by(5, "masha"), content_type=JSON)
    problems = keyed(clock).check_account(["https://talk.test/t/mafia-game-1/42", "42"])
    assert len(problems) == 3
    assert "may not send PMs (trust level 0" in problems[0] and "trust level 1" in problems[0]
    assert "at most 3 replies in a topic" in problems[1]
    assert "did not open topic 42" in problems[2] and "max_consecutive_replies" in problems[2]
    assert [c.request.url for c in http.calls].count(U + "t/42.json") == 1  # one thread, read once


def test_a_trust_level_1_account_is_told_only_about_threads_it_did_not_open_issue10_item5d(clock, http):
    http.add("GET", U + "u/gm_bot.json", body=fx("u_gm_bot_tl1.json"), content_type=JSON)
    http.add("GET", U + "t/42.json", body=fx("t_42.json"), content_type=JSON)  # opened by the bot (user 2)
    http.add("GET", U + "t/43.json", body=_topic_opened_by(5, "masha"), content_type=JSON)
    problems = keyed(clock).check_account(["42", "43"])
    assert len(problems) == 1 and "did not open topic 43" in problems[0]


def test_a_moderator_account_lacks_nothing_issue10_item5d(clock, http):
    http.add("GET", U + "u/gm_bot.json", body=fx("u_gm_bot_moderator.json"), content_type=JSON)
    assert keyed(clock).check_account(["43"]) == [] and len(http.calls) == 1


def test_check_config_online_names_what_the_discourse_account_lacks_issue10_item5d(tmp_path, http, capsys,
                                                                                     monkeypatch):
    from forumbot.cli.main import main

    monkeypatch.setenv("FORUMBOT_TALK_KEY", "admin-k")
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(), encoding="utf-8")
    http.add("GET", U + "t/42.json", body=fx("t_42.json"), content_type=JSON)
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type=JSON)
    http.add("GET", U + "t/43.json", body=_topic_opened_by(5, "masha"), content_type=JSON)
    http.add("GET", U + "t/43/posts.json", body=fx("t_42_posts.json"), content_type=JSON)
    http.add("GET", U + "u/gm_bot.json", body=fx("u_gm_bot_tl1.json"), content_type=JSON)
    code = main(["check-config", "--online", "-c", str(path)])
    err = capsys.readouterr().err
    # what the account lacks is for a human to fix on the board: a config-class problem (exit 2), not an outage
    assert code == 2 and "forumbot: forums.talk: account gm_bot is not staff and did not open topic 43" in err
    assert http.calls[0].request.headers["Api-Key"] == "admin-k"
    assert http.calls[0].request.headers["Api-Username"] == "gm_bot"


# --- (e) an admin API key is the default; the user API key's daily budget ------------------------------------


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    """check-config names an unset key variable: the variables these configs name are set, as where the bot runs."""
    for variable in ("FORUMBOT_TALK_KEY", "FORUMBOT_TALK_USER_KEY", "FORUMBOT_TALK_PASSWORD"):
        monkeypatch.setenv(variable, "secret")


def config_toml(forum: str = 'admin_api_key_env = "FORUMBOT_TALK_KEY"', poll: int = 300,
                login: str = "gm_bot") -> str:
    players = ",\n    ".join(f'"p{i}"' for i in range(10))
    return f"""poll_seconds = {poll}

[forums.talk]
engine = "discourse"
base_url = "{U}"
login = "{login}"
{forum}

[games.g1]
forum = "talk"
variant = "moscow"
game_thread = "{U}t/game/42"
vote_thread = "{U}t/vote/43"
gms = ["Ведущий"]
start = 2099-12-01T10:00:00+03:00
timezone = "Europe/Moscow"
players = [
    {players}
]
"""


def test_an_admin_key_from_the_environment_acts_as_the_bot_issue10_item5e(clock, http):
    forum = DiscourseForum(U, "Ведущий_Бот", admin_api_key_env="KEY", environ={"KEY": "admin-k"}, clock=clock,
                           sleep=clock.sleep)
    forum.login()  # nothing to do: no login request, no CSRF
    http.add("GET", U + "t/42.json", body=fx("t_42.json"), content_type=JSON)
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type=JSON)
    forum.fetch_posts("42")
    sent = http.calls[0].request.headers
    assert sent["Api-Key"] == "admin-k" and "User-Api-Key" not in sent
    # Discourse matches Api-Username by `downcase` of the header's raw bytes, which leaves Cyrillic capitals:
    # the name goes out already lower-cased, as User.normalize_username keys it
    assert sent["Api-Username"].encode("latin-1").decode("utf-8") == "ведущий_бот"
    by_id = DiscourseForum(U, "Ведущий_Бот", admin_api_key="admin-k", api_user_id=7, clock=clock)
    assert by_id.transport.session.headers["Api-User-Id"] == "7"
    assert "Api-Username" not in by_id.transport.session.headers


def test_a_key_variable_that_is_not_set_is_a_config_error_naming_it_issue10_item5e():
    with pytest.raises(ConfigError, match="admin_api_key_env: environment variable KEY is not set"):
        DiscourseForum(U, "gm_bot", admin_api_key_env="KEY", environ={})


def test_a_password_login_on_an_sso_board_names_the_api_key_issue10_item5e(clock, http):
    """SessionController#check_local_login_allowed raises Discourse::InvalidAccess (403 invalid_access) when
    DiscourseConnect is on or local logins are off."""
    forum = DiscourseForum(U, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"), content_type=JSON)
    http.add("POST", U + "session", status=403, body=fx("invalid_access_403.json"), content_type=JSON)
    with pytest.raises(LoginRequired, match="no password logins .*admin_api_key_env"):
        forum.login()


def test_check_config_warns_of_a_user_api_key_with_a_fast_poll_issue10_item5e(tmp_path, capsys):
    """max_user_api_reqs_per_day = 2,880 (lib/auth/default_current_user_provider.rb): at 3 requests a cycle,
    a poll under 90 s runs out of the day's requests."""
    from forumbot.cli.main import main

    path = tmp_path / "forumbot.toml"
    for poll, warned in ((60, True), (90, False)):
        path.write_text(config_toml('user_api_key_env = "FORUMBOT_TALK_USER_KEY"', poll=poll), encoding="utf-8")
        assert main(["check-config", "-c", str(path)]) == 0  # a warning, not a problem
        err = capsys.readouterr().err
        # issue 28: the engine's own finding in the GMs' language, as the rest of check-config
        assert ("предупреждение: forums.talk: ключ API пользователя даёт 2,880 запросов в сутки" in err) is warned
        assert "ключа API нет" not in err


def test_check_config_names_the_preferred_admin_key_when_only_a_password_is_given_issue10_item5e(tmp_path, capsys,
                                                                                             monkeypatch):
    from forumbot.cli.main import main

    monkeypatch.setenv("FORUMBOT_TALK_PASSWORD", "secret")

    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml('password_env = "FORUMBOT_TALK_PASSWORD"'), encoding="utf-8")
    assert main(["check-config", "-c", str(path)]) == 0
    err = capsys.readouterr().err
    assert "на форуме с SSO это невозможно" in err and "admin_api_key_env" in err
    path.write_text(config_toml(), encoding="utf-8")  # the documented default: no warning at all
    assert main(["check-config", "-c", str(path)]) == 0 and "предупреждение" not in capsys.readouterr().err
    path.write_text(config_toml(login="Ведущий"), encoding="utf-8")
    assert main(["check-config", "-c", str(path)]) == 0 and "api_user_id" in capsys.readouterr().err


def test_check_config_names_an_unset_admin_key_variable(tmp_path, capsys, monkeypatch):
    """Like an unset password (issue 7 item 20): the key's variable must be set where the bot runs."""
    from forumbot.cli.main import main

    monkeypatch.delenv("FORUMBOT_TALK_KEY")
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(), encoding="utf-8")
    assert main(["check-config", "-c", str(path)]) == 2
    assert "forums.talk.admin_api_key_env: переменная окружения FORUMBOT_TALK_KEY не задана" in capsys.readouterr().err
