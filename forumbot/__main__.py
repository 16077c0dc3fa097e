"""`python -m forumbot`: the same as the `forumbot` command."""

from forumbot.cli.main import command

command()
