"""The scorers' subcommands of ``ragpulse`` (registered through ``ragpulse_scorers.cli_commands``)."""
