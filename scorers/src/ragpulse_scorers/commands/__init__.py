"""What the scorers' subcommands do, a ``run(args)`` each; their flags are in ``ragpulse_scorers.cli``."""
