"""How likely a rule is to include a request: the one place a rule's sampling probability is decided.

A request is in a rule's sample when ``SampleKey % SAMPLE_BUCKETS`` is below this probability times
``SAMPLE_BUCKETS``, so the decision is deterministic per trace and a higher probability keeps a superset.
"""

from __future__ import annotations

from ragpulse_scorers.pipeline.candidates import Candidate
from ragpulse_scorers.rules.model import Rule


def inclusion_probability(candidate: Candidate, rule: Rule) -> float:
    """The probability (0..1) that ``rule`` includes ``candidate``, given that it matches it."""
    return rule.sample_rate


def may_exceed_sample_rate(rule: Rule) -> bool:
    """Whether :func:`inclusion_probability` can be above the rule's sample rate for some request (the
    candidate query then reads every request the rule could include, not only those under its rate)."""
    return False
