"""The engine's values as plain data (issue 27 item 4): `to_plain` turns a Game, a Checkpoint or a Tip into lists,
strings and numbers that `json` writes as they are, and `from_plain` builds the value again. The store keeps
checkpoints and tips this way rather than pickled: reading a pickle calls whatever it names, so a row written by
anyone but this bot could run code; reading plain data only builds the values of `CLASS_TABLE`'s kind.

Every container is a list tagged by its first item (a list, a tuple, a dict by its pairs...), a dataclass is its
class's name and its fields in order, an enum its class's name and value; strings, numbers, booleans and None are
themselves. Anything else (a clock a test patched in, a value of the shell) is refused with `PlainError` when it is
written, and a name outside the table, or a dataclass whose fields changed, when it is read: a checkpoint is a
cache, so the caller folds from the inputs instead."""

from __future__ import annotations

import base64
import dataclasses
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone, tzinfo
from enum import Enum
from types import MappingProxyType
from typing import Any, Callable
from zoneinfo import ZoneInfo

# The modules whose dataclasses and enums a stored value may name: the fold's own pure code (engine/checkpoint.py's
# FOLD_PACKAGES and FOLD_MODULES); nothing of the shell, and nothing not already imported (reading never imports).
VALUE_MODULES = ("forumbot.engine.", "forumbot.rules.", "forumbot.rules", "forumbot.parse.", "forumbot.texts.",
                 "forumbot.model", "forumbot.markup", "forumbot.errors")

_SCALARS = (str, int, float, bool, type(None))


class PlainError(ValueError):
    """A value that has no plain form, or plain data that is not one of the engine's values."""


def to_plain(value: Any) -> Any:
    """`value` as JSON-ready data (lists, strings, numbers, booleans, None)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return ["t", *map(to_plain, value)]
    if kind is list:
        return ["l", *map(to_plain, value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return ["o", _name(kind), *(to_plain(getattr(value, f.name)) for f in dataclasses.fields(value))]
    if isinstance(value, Enum):
        return ["e", _name(kind), to_plain(value.value)]
    if isinstance(value, datetime):  # before date: a datetime is one
        return ["dt", value.replace(tzinfo=None, fold=0).isoformat(), value.fold, _zone(value.tzinfo)]
    if isinstance(value, date):
        return ["da", value.isoformat()]
    if isinstance(value, timedelta):
        return ["td", value.days, value.seconds, value.microseconds]
    for tag, container in _MAPS:
        if kind is container:
            return [tag, *(to_plain(x) for pair in value.items() for x in pair)]
    for tag, container in _SETS:
        if kind is container:
            return [tag, *sorted(map(to_plain, value), key=repr)]
    if kind is bytes:
        return ["b", base64.b64encode(value).decode("ascii")]
    raise PlainError(f"no plain form for a {kind.__module__}.{kind.__qualname__}")


def from_plain(data: Any) -> Any:
    """The value `to_plain` made `data` from; PlainError if `data` is not one."""
    if type(data) is not list:
        if type(data) in _SCALARS:
            return data
        raise PlainError(f"not plain data: {type(data).__name__}")
    if not data or type(data[0]) is not str:
        raise PlainError("an untagged list")
    build = _BUILDERS.get(data[0])
    if build is None:
        raise PlainError(f"an unknown tag {data[0]!r}")
    try:
        return build(data)
    except PlainError:
        raise
    except (TypeError, ValueError, KeyError, IndexError) as e:
        raise PlainError(f"a malformed {data[0]!r}: {e}") from e


def _name(cls: type) -> str:
    name = f"{cls.__module__}.{cls.__qualname__}"
    if _known(name) is not cls:
        raise PlainError(f"no plain form for a {name}: not a value of the fold's own modules")
    return name


_CLASS_TABLE: dict[str, type] = {}


def _known(name: str) -> type | None:
    """The dataclass or enum called `name` in one of VALUE_MODULES already imported, else None."""
    if name in _CLASS_TABLE:
        return _CLASS_TABLE[name]
    module_name, _, qualname = name.rpartition(".")
    module = sys.modules.get(module_name)
    if module is None or not (module_name in VALUE_MODULES or module_name.startswith(VALUE_MODULES)):
        return None
    cls = getattr(module, qualname, None)
    if not isinstance(cls, type) or cls.__module__ != module_name or not (
            dataclasses.is_dataclass(cls) or issubclass(cls, Enum)):
        return None
    _CLASS_TABLE[name] = cls
    return cls


def _class(name: Any) -> type:
    cls = _known(name) if type(name) is str else None
    if cls is None:
        raise PlainError(f"a stored value may not name {name!r}")
    return cls


def _zone(tz: tzinfo | None) -> Any:
    if tz is None:
        return None
    if type(tz) is ZoneInfo:
        return ["z", tz.key]
    if type(tz) is timezone:
        offset = tz.utcoffset(None)
        name = tz.tzname(None)
        return ["o", offset.days * 86400 + offset.seconds, offset.microseconds,
                None if tz == timezone(offset) and name == timezone(offset).tzname(None) else name]
    raise PlainError(f"no plain form for the time zone {type(tz).__qualname__}")


def _unzone(data: Any) -> tzinfo | None:
    if data is None:
        return None
    if data[0] == "z":
        return ZoneInfo(data[1])
    if data[0] == "o":
        offset = timedelta(seconds=data[1], microseconds=data[2])
        return timezone.utc if not offset and data[3] is None else (
            timezone(offset) if data[3] is None else timezone(offset, data[3]))
    raise PlainError(f"an unknown time zone {data!r}")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _object(data: list[Any]) -> Any:
    cls = _class(data[1])
    names = _FIELD_NAMES.get(cls)
    if names is None:
        # slots of its own (`dataclass(slots=True)`): no __dict__ to set; a Generic base's empty __slots__ is none
        if not dataclasses.is_dataclass(cls) or "__slots__" in vars(cls):
            raise PlainError(f"{data[1]} is not a dataclass of the fold's values")
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    if len(names) != len(data) - 2:
        raise PlainError(f"{data[1]} has {len(names)} fields, the stored one {len(data) - 2}")
    value: Any = object.__new__(cls)  # its fields set as a frozen dataclass's __init__ sets them, without running it
    value.__dict__.update(zip(names, map(from_plain, data[2:])))
    return value


def _enum(data: list[Any]) -> Any:
    cls = _class(data[1])
    if not issubclass(cls, Enum):
        raise PlainError(f"{data[1]} is not an enum")
    return cls(from_plain(data[2]))


def _pairs(data: list[Any]) -> dict[Any, Any]:
    items = [from_plain(x) for x in data[1:]]
    if len(items) % 2:
        raise PlainError("a map with an odd number of items")
    return dict(zip(items[::2], items[1::2]))


def _datetime(data: list[Any]) -> datetime:
    return datetime.fromisoformat(data[1]).replace(fold=data[2], tzinfo=_unzone(data[3]))


_MAPS: tuple[tuple[str, type], ...] = (("d", dict), ("m", MappingProxyType), ("c", Counter))
_SETS: tuple[tuple[str, type], ...] = (("s", set), ("f", frozenset))

_BUILDERS: dict[str, Callable[[list[Any]], Any]] = {
    "t": lambda d: tuple(map(from_plain, d[1:])),
    "l": lambda d: list(map(from_plain, d[1:])),
    "o": _object,
    "e": _enum,
    "dt": _datetime,
    "da": lambda d: date.fromisoformat(d[1]),
    "td": lambda d: timedelta(days=d[1], seconds=d[2], microseconds=d[3]),
    "d": _pairs,
    "m": lambda d: MappingProxyType(_pairs(d)),
    "c": lambda d: Counter(_pairs(d)),
    "s": lambda d: set(map(from_plain, d[1:])),
    "f": lambda d: frozenset(map(from_plain, d[1:])),
    "b": lambda d: base64.b64decode(d[1], validate=True),
}
