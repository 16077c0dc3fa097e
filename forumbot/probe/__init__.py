"""Before any game: what the bot understands of a board (board: `forumbot probe`) and the write path on the
GM's own board (handshake: `forumbot probe --handshake`).

May import: the pure core, forum (through the registry), config.
"""
