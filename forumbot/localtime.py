"""Times as a GM reads them on the command line: in the game's zone, the zone named (issue 17 item 13).

The store keeps UTC; a Moscow GM told "10:00 UTC" has to add three hours to every deadline he reads."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo


def local(at: datetime | None, zone: str) -> str:
    """`2026-12-01 10:00:00 Europe/Moscow`; UTC when `zone` is empty; "-" for a time the store does not hold."""
    if at is None:
        return "-"
    shown = at.astimezone(ZoneInfo(zone or "UTC"))
    return f"{shown:%Y-%m-%d %H:%M:%S} {zone or 'UTC'}"
