"""Rule variants by name. A community's house rules are one more module registered here."""

from __future__ import annotations

from forumbot.errors import SetupError
from forumbot.rules.base import DayOutcome, Kill, NightMoves, NightReport, RoleTeam, Seat, Variant
from forumbot.rules.free_hunt import FreeHunt
from forumbot.rules.moscow import Moscow

VARIANTS: dict[str, Variant] = {"moscow": Moscow(), "free_hunt": FreeHunt()}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise SetupError.told("setup.rule.variant", "unknown variant {name!r}; known: {known}", name=name,
                               known=", ".join(sorted(VARIANTS))) from None


__all__ = ["DayOutcome", "Kill", "NightMoves", "NightReport", "RoleTeam", "Seat", "Variant", "VARIANTS", "get_variant"]
