"""The poll cycle: one tick over every running game (tick) and its parts (context, inbox, reread,
bookkeeping, held_posts, summary), and the daemon that opens the database and the forums and runs it (daemon).

May import: everything below it (the pure core, forum, config, store, outbox, games, pages); nothing imports the
cycle but the CLI (and bench, tests).
"""
