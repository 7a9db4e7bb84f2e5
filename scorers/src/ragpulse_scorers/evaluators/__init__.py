"""Evaluators of a team's own (``[evaluators.<kind>.<name>]``): scorers like the built-in judges, made from
the config. Nothing is imported here: the isolated worker process starts from this package."""
