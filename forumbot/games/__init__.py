"""What a GM does to one game by name: start (the draw and its commitment), status and list, stop, export,
the outbox by hand, when its waiting PMs go out (pm_pace); lookup finds a game in the config and the store.

May import: the pure core, forum, config, store, outbox, pages.publish (a started game's pages).
"""
