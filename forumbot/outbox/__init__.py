"""The outbox: what the bot owes the forum, stored once under a stable key (store), delivered exactly once
across crashes and concurrent ticks (deliver), and what the GMs are told about it (notices).

May import: the pure core, forum (the adapter interface), store.
"""
