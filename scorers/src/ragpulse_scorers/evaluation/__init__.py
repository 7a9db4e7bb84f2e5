"""Measuring the judges against human-labelled data (``ragpulse eval``)."""
