"""The review queue: which judged requests are most worth a person's label next, and why each was offered."""

from ragpulse_scorers.review.queue import (
    DISAGREEMENT,
    FREE_JUDGE,
    REASONS,
    TURNS,
    UNCERTAIN,
    UNIFORM,
    UNIFORM_SHARE,
    Offer,
    in_uniform_share_sql,
    review_queue,
)

__all__ = [
    "DISAGREEMENT",
    "FREE_JUDGE",
    "REASONS",
    "TURNS",
    "UNCERTAIN",
    "UNIFORM",
    "UNIFORM_SHARE",
    "Offer",
    "in_uniform_share_sql",
    "review_queue",
]
