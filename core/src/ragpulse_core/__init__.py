"""ragpulse core: the Store, settings, schema migrations and the ``ragpulse`` command front.

The collector and the scorers both build on this package and never on each other. Nothing is imported here,
so the command front loads no database client until a command needs one.
"""
