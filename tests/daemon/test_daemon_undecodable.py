"""A vote-thread post holding bytes the page's charset cannot show is skipped and named to the GMs once, and the
votes around it count (issue 26 item 9c).

On the vBulletin fake board (windows-1251, built to its markup: closed_boards.py) М6's vote post holds the byte
0x98, which windows-1251 lacks (a post left unconverted, or damaged). Before, every tick refused the whole page
("does not decode as windows-1251"): none of the day's votes were read and the day never resolved. Now the tick
reads the page without that post, PMs the GM about it once, and the day resolves on the other votes."""

from __future__ import annotations

from datetime import timedelta

import responses
from daemon_world import GM, T0
from test_daemon_closed_engines import BoardWorld

SPOT = "QQBADBYTEQQ"


def test_a_post_with_undecodable_bytes_is_skipped_the_gm_told_once_and_the_votes_around_it_count(tmp_path):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine="vbulletin")
        plain = w.board.answer

        def answer(status, body, headers=None):
            code, sent, data = plain(status, body, headers)
            return code, sent, data.replace(SPOT.encode(), b"\x98")

        w.board.answer = answer
        w.board.install(mock)
        w.start()
        w.tick()
        w.now = T0 + timedelta(hours=2)
        damaged = w.post("vote", "М6", f"Маф2 {SPOT}")
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
    assert told == [f"Бот не смог прочитать сообщение {damaged.id} от М6 в теме {w.urls['vote']}: в нём есть байты не "
                    "в кодировке форума (повреждённый или не перекодированный текст). Оно пропущено и не засчитано. "
                    "Прочитайте его на форуме; если в нём голос или ход, внесите его командой ГМа."]
    day_end = [t for _, t, at in w.bot_posts() if at >= T0 + timedelta(hours=24)]
    assert day_end and "[b]Маф1[/b] — 6 голосов: Шериф, М1, М2, М3, М4, М5" in day_end[0]
    assert "Без голоса (4): Дон, Маф1, Маф2, М6." in day_end[0]  # the damaged post is no vote; the day resolved
