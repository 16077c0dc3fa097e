"""The `forumbot` command: main (the parser and the exit codes), the daemon's commands (commands, and by what
they do: check, games, probe, pages) and what they share (common).

May import: anything; nothing imports the CLI.
"""
