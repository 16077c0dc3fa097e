"""The process exit codes every `forumbot` command returns (cli, cli_daemon, daemon share them, none imports
another for them)."""

EXIT_OK, EXIT_CONFIG, EXIT_UNREACHABLE = 0, 2, 3
EXIT_INTERNAL = 1  # a bug, not the user's input
EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a process ended by SIGPIPE
