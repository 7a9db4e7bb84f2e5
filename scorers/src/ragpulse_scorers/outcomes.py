"""What became of a candidate, as written to ``ragpulse_scoring_log.Outcome``: spelled once."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    SCORED = "scored"
    SAMPLED_OUT = "sampled_out"
    THROTTLED = "throttled"
    OVER_BUDGET = "over_budget"
    DEFERRED = "deferred"
    """The judge was unavailable (its circuit open); the request comes back in a later tick."""
    SKIPPED = "skipped"
    FAILED = "failed"


# A scorer version is done with a request after these.
FINAL_OUTCOMES = frozenset({Outcome.SCORED, Outcome.SKIPPED})
# These postpone a request; each is logged once per request, not once per tick.
DEFERRAL_OUTCOMES = frozenset({Outcome.SAMPLED_OUT, Outcome.THROTTLED, Outcome.OVER_BUDGET, Outcome.DEFERRED})
