"""Issue 19 item 7: an adapter's optional abilities are declared once, in CAPABILITIES on its class, and the
shell asks `forumbot.forum.adapter.can` instead of probing with getattr/hasattr. A declaration must tell the truth:
every ability declared is implemented, and every optional method implemented is declared."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from forumbot.forum.adapter import ACCOUNTS, COOKIES, OWN_PM, REREAD, UNREAD_PMS, AdapterBase, can
from forumbot.forum.registry import adapter_factory

METHODS = {REREAD: ("reread_from",), ACCOUNTS: ("account_exists",),
           UNREAD_PMS: ("shows_unread_pms", "unread_pms_shown"), OWN_PM: ("find_own_pm",),
           COOKIES: ("export_cookies", "import_cookies")}
ENGINES = sorted(ep.name for ep in entry_points(group="forumbot.adapters"))


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_declares_exactly_the_optional_abilities_it_implements(engine):
    cls = adapter_factory(engine)
    assert issubclass(cls, AdapterBase)
    for ability, names in METHODS.items():
        implemented = all(hasattr(cls, name) for name in names)
        assert (ability in cls.CAPABILITIES) == implemented, f"{engine}: {ability}"


def test_an_adapter_outside_the_base_declares_nothing():
    class Bare:
        def reread_from(self, topic, post_id, ids=()):  # implemented, but not declared: not used
            return []

    assert not can(Bare(), REREAD)
    assert len(ENGINES) >= 10
