"""The daemon's configuration: forumbot.toml read into dataclasses (load), its schema (types), one table at
a time (reader, forums, games, pages), and `init`/`check-config`'s offline checks (checks, cast_summary).

May import: the pure core (model, errors, options, texts, rules).
"""
