"""A post the reader cannot read is skipped and named to the GMs once, and the game goes on (issue 17 item 17).

On the vBulletin fake board (built to its markup, closed_boards.py) a player posts [b] typed 250 times in the
vote thread: today every tick's read of that page was "incomplete", so no vote was read and the day never
resolved. Now the tick stores the other posts, folds, and PMs the GM about that post once, whatever the number
of ticks that read its page again."""

from __future__ import annotations

from datetime import timedelta

import closed_boards
import responses
from daemon_world import GM, T0
from test_daemon_closed_engines import BoardWorld


def test_a_deep_post_is_skipped_the_gm_told_once_and_the_votes_around_it_count(tmp_path, monkeypatch):
    plain = closed_boards.bbcode
    monkeypatch.setattr(closed_boards, "bbcode", lambda t: t if t.startswith("<") else plain(t))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine="vbulletin")
        w.board.install(mock)
        w.start()
        w.tick()
        w.now = T0 + timedelta(hours=2)
        deep = w.post("vote", "М6", "<b>" * 250 + "Маф2" + "</b>" * 250)
        for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5"):
            w.post("vote", nick, "Маф1")
        report = w.tick()
        assert not report.unreachable and all(g.error is None for g in report.games), report
        w.now += timedelta(minutes=5)
        w.tick()
        w.now = T0 + timedelta(hours=24, minutes=1)
        w.tick()
        w.close()
    told = [text.split("\n\n#fb:")[0] for to, text, _ in w.bot_pms() if to == GM and "не смог прочитать" in text]
    assert told == [f"Бот не смог прочитать сообщение {deep.id} от М6 в теме {w.urls['vote']}: в нём слишком "
                    "глубоко вложены теги (цитаты или форматирование). Оно пропущено и не засчитано. Прочитайте "
                    "его на форуме; если в нём голос или ход, внесите его командой ГМа."]
    day_end = [t for _, t, at in w.bot_posts() if at >= T0 + timedelta(hours=24)]
    assert day_end and "[b]Маф1[/b] — 6 голосов: Шериф, М1, М2, М3, М4, М5" in day_end[0]
    assert "Без голоса (4): Дон, Маф1, Маф2, М6." in day_end[0]  # the deep post is no vote, and the day resolved


def test_an_inbox_showing_the_error_box_at_the_night_deadline_folds_nothing_until_it_reads(tmp_path):
    """issue 17 item 16: the inbox served as the engine's error page (logged-in marks intact) at the night's
    deadline was read as "no PMs" and the night resolved without its moves; the moves read a tick later then
    rewrote the past. Now that tick folds nothing, and the next one resolves the night with the moves."""
    from daemon_world import STEPS

    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine="vbulletin")
        w.board.install(mock)
        w.start()
        for at, act in STEPS[:5]:  # through the night's moves: the Don and Маф2 kill М2
            w.now = at
            act(w)
            w.tick()
        served = w.board.handle
        broken = {"on": True}

        def handle(method, path, query, form, cookies):
            if broken["on"] and method == "GET" and path == "private.php" and "do" not in query:
                return w.board.error_page("Форум временно недоступен из-за высокой нагрузки.", True)
            return served(method, path, query, form, cookies)

        w.board.handle = handle
        w.board.add_pm("М3", "статус", w.now)  # a PM the error page hides
        w.now = T0 + timedelta(hours=36, minutes=1)  # the night's deadline has passed
        before = len(w.bot_posts())
        report = w.tick()
        assert report.games[0].state == "error" and "Форум временно недоступен" in str(report.games[0].error)
        assert len(w.bot_posts()) == before  # no night result on an inbox that said nothing
        broken["on"] = False
        w.now += timedelta(minutes=1)
        report = w.tick()
        w.close()
    assert report.games[0].error is None
    night = [t for _, t, at in w.bot_posts() if at >= T0 + timedelta(hours=36)]
    assert night and "М2" in night[0] and "Мафия не договорилась" not in night[0]


def test_an_inbox_whose_pm_list_the_profile_cannot_read_folds_nothing_until_it_reads(tmp_path):
    """The same night with the inbox served in a style the profile does not read (the folder's form#pmform,
    §12, without its id; the rows' links in another form): read as "no PMs" the night resolved without its
    moves, and the moves read later would rewrite an announced result (C-13). Now the tick names the missing PM
    list and folds nothing; the page read again resolves the night."""
    from daemon_world import STEPS

    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine="vbulletin")
        w.board.install(mock)
        w.start()
        for at, act in STEPS[:5]:  # through the night's moves: the Don and Маф2 kill М2
            w.now = at
            act(w)
            w.tick()
        served = w.board.handle
        themed = {"on": True}

        def handle(method, path, query, form, cookies):
            status, headers, body = served(method, path, query, form, cookies)
            if themed["on"] and method == "GET" and path == "private.php" and "do" not in query:
                text = body if isinstance(body, str) else body.decode("cp1251")
                text = text.replace(' id="pmform"', "").replace("do=showpm&amp;pmid=", "do=showpm&amp;message=")
                body = text if isinstance(body, str) else text.encode("cp1251")
            return status, headers, body

        w.board.handle = handle
        w.board.add_pm("М3", "статус", w.now)  # a PM the themed list hides
        w.now = T0 + timedelta(hours=36, minutes=1)  # the night's deadline has passed
        before = len(w.bot_posts())
        report = w.tick()
        assert report.games[0].state == "error" and "shows no PM list" in str(report.games[0].error)
        assert len(w.bot_posts()) == before  # no night result on an inbox it could not read
        themed["on"] = False
        w.now += timedelta(minutes=1)
        report = w.tick()
        w.close()
    assert report.games[0].error is None
    night = [t for _, t, at in w.bot_posts() if at >= T0 + timedelta(hours=36)]
    assert night and "М2" in night[0] and "Мафия не договорилась" not in night[0]
