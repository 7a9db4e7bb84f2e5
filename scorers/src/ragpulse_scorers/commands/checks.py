"""What ``score`` and ``serve`` check before opening the store, so a mistake leaves no database behind."""

from __future__ import annotations

from ragpulse_core.sampling import Shard

from ragpulse_scorers.registry import check_scorers
from ragpulse_scorers.rules.book import rule_book
from ragpulse_scorers.settings import ScorersSettings


def check_scoring(settings: ScorersSettings) -> None:
    """Every rule's scorers load, the LLM-judged ones have an endpoint, and the shard is one of its N."""
    check_scorers(rule_book(settings).judges, settings)
    Shard.parse(settings.scorer.shard)
