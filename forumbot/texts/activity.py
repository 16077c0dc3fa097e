"""What the bot says about activity, R-11 `post_minimum`: who is below the minimum in a count, the warning in a
day's result, the reminder PM, the house rule's line. A part of `Texts`; it speaks through the shared
`Voice` (the table, the formatting, the zone)."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.texts.voice import Voice


class ActivityTexts:
    def __init__(self, v: Voice) -> None:
        self.v = v

    def few_posts_block(self, few: Sequence[tuple[str, int]], need: int) -> str:
        """A count's line of the alive players still below the minimum, each with his posts (R-11)."""
        if not few:
            return ""
        names = ", ".join(self.v._("posts.item", nick=self.v.n(nick), count=self.v.count(got, "post")) for nick, got in few)
        return self.v.prose(self.v._("posts.below", need=self.v.count(need, "post"), count=len(few), names=names))

    def post_minimum_warning(self, nicks: Sequence[str], need: int) -> str:
        """The day's result naming those below the minimum, who stay (R-11 `warn`, a first `warn_then_autokill`)."""
        return self.v.prose(self.v._("posts.warning", need=self.v.count(need, "post"), names=self.v.names(nicks, bold=True)))

    def post_minimum_reminder(self, got: int, need: int, deadline: datetime, early: datetime | None = None) -> str:
        """The reminder PM (R-11). `early`: the end a majority's delay set (R-12), while the majority may still
        break and the day run to its `deadline`: both are named."""
        if early is not None:
            return self.v._("posts.reminder.majority", got=self.v.count(got, "post"), need=self.v.count(need, "post"),
                            early=self.v.time(early), at=self.v.time(deadline))
        return self.v._("posts.reminder", got=self.v.count(got, "post"), need=self.v.count(need, "post"),
                      at=self.v.deadline(deadline))

    def post_minimum_rule(self, need: int, chars: int, action: str) -> str:
        """The house rule's line in the opening post (without the leading dash)."""
        line = self.v._("house.post_minimum", need=self.v.count(need, "post"), action=self.v.T[f"posts.action.{action}"])
        return line + (self.v._("house.post_minimum_chars", chars=chars) if chars > 1 else "")
