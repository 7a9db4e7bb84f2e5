"""Scores out: every score written is also sent as an OTel ``gen_ai.evaluation.result`` event over OTLP."""
