"""`python -m forumbot`: the same as the `forumbot` command."""

from forumbot.cli import main

raise SystemExit(main())
