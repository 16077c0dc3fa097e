"""Engine markup as data: URLs, selectors, pagination, forms and messages, one profile per engine.

A board with a prosilver-like style needs a new profile (often `dataclasses.replace` of PHPBB with a few
selectors changed), not new code. What cannot be declared is a named hook (see hooks.py).
Every selector in `selectors`, `strip` and the forms is checked against saved pages by the tests.

One module per engine (phpbb, mybb, flaskbb, smf, xenforo, punbb, mybbru, vbulletin, invision), the shape they
share in `types`; every name is imported from here.
"""

from __future__ import annotations

from adapters.flaskbb.profile import FLASKBB
from adapters.invision.profile import INVISION
from adapters.mybb.profile import MYBB, MYBB_MAX_RECIPIENTS
from adapters.mybbru.profile import MYBBRU
from adapters.phpbb.profile import PHPBB
from adapters.punbb.profile import PUNBB
from adapters.smf.profile import SMF, SMF_MAX_RECIPIENTS, SMF_PMS_PER_HOUR
from adapters.html.profile import FLOWS, FormSpec, HtmlProfile, Pagination, frozen_map
from adapters.vbulletin.profile import VBULLETIN
from adapters.xenforo.profile import XENFORO

__all__ = ["FLASKBB", "FLOWS", "INVISION", "MYBB", "MYBBRU", "MYBB_MAX_RECIPIENTS", "PHPBB", "PUNBB", "SMF",
           "SMF_MAX_RECIPIENTS", "SMF_PMS_PER_HOUR", "VBULLETIN", "XENFORO", "FormSpec", "HtmlProfile", "Pagination",
           "frozen_map", "profile_for"]


def profile_for(engine: str) -> "HtmlProfile | None":
    """The profile of HTML engine `engine` among those imported here: what a forum table's `profile`
    overrides are checked against (None for an engine without one)."""
    return next((p for p in list(globals().values()) if isinstance(p, HtmlProfile) and p.engine == engine), None)
