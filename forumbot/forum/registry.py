"""The one door from `forumbot` to the adapters (DESIGN.md, "imports one way").

Engines are found by name in the "forumbot.adapters" entry-point group only (or a "module:attr" engine name, for an
adapter not installed as a package). What an engine declares (its settings, markup, profile, thread check, config
warnings) is read off its class, built on `forumbot.forum.adapter.AdapterBase`, here: no other module of forumbot
probes an adapter for a name (tests/adapters/test_capabilities.py). The few adapter-side helpers the shell needs (engine detection and page
reading for `probe`, the profiles `check-config` checks, the memory forum `replay` plays into) are named here, in
HELPERS, and imported on first use: no other module of `forumbot` imports the `adapters` package, and the layering
test (tests/test_layering.py) keeps it so.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any, Callable

from forumbot.forum.adapter import AdapterBase, ForumAdapter
from forumbot.errors import ConfigError

GROUP = "forumbot.adapters"

# name -> the bundled adapters' module that defines it
HELPERS = {
    "MemoryForum": "adapters.memory.forum",
    "detect_engine": "adapters.detect",
    "rough_times_warning": "adapters.dates",
    "override_problems": "adapters.html.overrides",
    "extract_posts": "adapters.html.extract",
    "page_info": "adapters.html.extract",
    "post_id": "adapters.html.extract",
    "query_params": "adapters.html.extract",
    "select": "adapters.html.dom",
    "select_one": "adapters.html.dom",
    "text": "adapters.html.dom",
    "inbox_problems": "adapters.html.pagechecks",
    "topic_problems": "adapters.html.pagechecks",
}


def adapter_factory(engine: str) -> Callable[..., ForumAdapter]:
    """The adapter class (or factory) of a forum engine, by its entry-point name or as "module:attr"."""
    if ":" in engine:
        module, _, attr = engine.partition(":")
        try:
            return getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ConfigError(f"forum engine {engine!r} cannot be loaded: {e}") from None
    factory = _installed(engine)
    if factory is None:
        known = ", ".join(sorted(ep.name for ep in entry_points(group=GROUP))) or "none"
        raise ConfigError(f"unknown forum engine {engine!r} (installed: {known})")
    return factory


_found: dict[str, Any] = {}


def _installed(engine: str) -> Any:
    """The installed engine's entry point, loaded; kept once found: listing the entry points reads every installed
    distribution's metadata (the tick checks each game's forum, and 20 games took 80 ms a tick), and an engine
    installed stays so while the process runs. A name not found is looked up again (it may be installed since)."""
    if engine not in _found:
        found = entry_points(group=GROUP, name=engine)
        if not found:
            return None
        _found[engine] = next(iter(found)).load()
    return _found[engine]


def engine_class(engine: str) -> type[AdapterBase] | None:
    """The adapter class of an engine, for what it declares: an installed engine's (None for a name not
    installed), or a "module:attr" one's; None too for a factory that is not a class built on AdapterBase (an
    adapter of one's own may be a function: it declares nothing)."""
    if ":" in engine:
        factory: Any = adapter_factory(engine)
    else:
        factory = _installed(engine)
        if factory is None:
            return None
    return factory if isinstance(factory, type) and issubclass(factory, AdapterBase) else None


def profile_for(engine: str) -> Any:
    """The page profile of HTML engine `engine`, what a forum table's `profile` overrides are checked against;
    None for an engine without one (or not installed)."""
    cls = engine_class(engine)
    return cls.profile if cls is not None else None


def constructor_from_config(factory: Callable[..., ForumAdapter]) -> Callable[..., ForumAdapter] | None:
    """An adapter class's own `from_config(forum, password)`, where it builds itself from its forum table; None:
    the daemon passes it the keys its signature names."""
    return getattr(factory, "from_config", None)


def __getattr__(name: str) -> Any:
    module = HELPERS.get(name)
    if module is None:
        raise AttributeError(f"module 'forumbot.forum.registry' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
