"""What the bot says about activity, R-11 `post_minimum`: who is below the minimum in a count, the warning in a
day's result, the reminder PM, the house rule's line. A part of `Texts`, which builds on it; every method reads
the table and formatting `Texts` sets up."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence


class ActivityTexts:
    def few_posts_block(self, few: Sequence[tuple[str, int]], need: int) -> str:
        """A count's line of the alive players still below the minimum, each with his posts (R-11)."""
        if not few:
            return ""
        names = ", ".join(self._("posts.item", nick=self.n(nick), count=self.count(got, "post")) for nick, got in few)
        return self.prose(self._("posts.below", need=self.count(need, "post"), count=len(few), names=names))

    def post_minimum_warning(self, nicks: Sequence[str], need: int) -> str:
        """The day's result naming those below the minimum, who stay (R-11 `warn`, a first `warn_then_autokill`)."""
        return self.prose(self._("posts.warning", need=self.count(need, "post"), names=self.names(nicks, bold=True)))

    def post_minimum_reminder(self, got: int, need: int, deadline: datetime) -> str:
        return self._("posts.reminder", got=self.count(got, "post"), need=self.count(need, "post"),
                      at=self.time(deadline))

    def post_minimum_rule(self, need: int, chars: int, action: str) -> str:
        """The house rule's line in the opening post (without the leading dash)."""
        line = self._("house.post_minimum", need=self.count(need, "post"), action=self.T[f"posts.action.{action}"])
        return line + (self._("house.post_minimum_chars", chars=chars) if chars > 1 else "")
