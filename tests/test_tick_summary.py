"""The tests' reading of the tick summary (tests/tick_summary.py) against lines the summary itself writes."""

from __future__ import annotations

from tick_summary import IDLE_SUMMARY, deferred

from forumbot.texts import TABLES


def test_an_idle_line_is_read_in_both_languages_and_a_busy_one_is_not():
    for t in TABLES.values():
        idle = f"g1 (день 1): {t['summary.queued'].format(n=0)}, {t['summary.sent'].format(n=0)}"
        busy = f"g1 (день 1): {t['summary.queued'].format(n=10)}, {t['summary.sent'].format(n=0)}"
        sent = f"g1 (день 1): {t['summary.queued'].format(n=0)}, {t['summary.sent'].format(n=20)}"
        assert IDLE_SUMMARY.search(idle) and not IDLE_SUMMARY.search(busy) and not IDLE_SUMMARY.search(sent)


def test_a_deferral_is_read_with_its_numbers_in_both_languages():
    for t in TABLES.values():
        when = t["summary.next_try"].format(seconds=42)
        line = (f"g1: {t['summary.sent'].format(n=3)}, "
                + t["summary.deferred"].format(n=5, when=when, error="FloodLimited: wait (x)"))
        got = deferred(line)
        assert got is not None and (got.sent, got.waiting, got.retry) == (3, 5, 42.0), line
        plain = deferred(f"g1: {t['summary.sent'].format(n=1)}, "
                         + t["summary.deferred"].format(n=2, when="", error="too soon"))
        assert plain is not None and (plain.sent, plain.waiting, plain.retry, plain.error) == (1, 2, 0.0, "too soon")
    assert deferred("g1: 0 message(s) queued, 0 sent") is None
