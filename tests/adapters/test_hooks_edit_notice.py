"""The phpBB edit-notice hook with and without the editor's profile link (a guest's or a deleted user's edit)."""

from datetime import datetime, timezone

from lxml import html

from adapters.html.hooks import Context, phpbb_edit_notice
from adapters.phpbb.profile import PHPBB


def _ctx() -> Context:
    return Context(PHPBB, timezone.utc, datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc))


def test_edit_notice_without_a_user_link_is_read_not_crashed() -> None:
    notice = html.fromstring(
        '<div class="notice">Последний раз редактировалось Гость 26 ноя 2026, 17:35, всего редактировалось 2 раза.</div>'
    )
    edited_at, count = phpbb_edit_notice(notice, _ctx())
    assert count == 2
    assert edited_at is not None and (edited_at.month, edited_at.day, edited_at.hour, edited_at.minute) == (11, 26, 17, 35)
