"""How likely a rule is to include a request: the one place a rule's sampling probability is decided.

A request is in a rule's sample when ``SampleKey % SAMPLE_BUCKETS`` is below this probability times
``SAMPLE_BUCKETS``, so the decision is deterministic per trace and a higher probability keeps a superset.

A rule with ``directed_share`` spends that share of its expected judgments on requests the free (lexical)
judge is unsure of (:mod:`ragpulse_core.directed_sampling`, uncertainty from
:mod:`ragpulse_scorers.lexical.uncertainty`). Its plan is set on the batch of candidates being decided, so
the batch's expected judgments are the rule's sample rate times its matching requests. A request the free
judge has not scored keeps the uniform rate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ragpulse_core.directed_sampling import DirectedPlan, plan_directed
from ragpulse_core.directed_sampling import inclusion_probability as directed_probability

from ragpulse_scorers.pipeline.candidates import Candidate
from ragpulse_scorers.rules.matching import matches
from ragpulse_scorers.rules.model import Rule

FREE_JUDGE = "lexical"
"""The judge whose uncertainty directs the samples: the one that scores all traffic."""


def uncertainty(candidate: Candidate) -> float | None:
    """The chance that the free judge's verdict on ``candidate`` is wrong; None before it judged."""
    if candidate.free_support is None:
        return None
    # Imported here: a builtin judge's code loads only once something names it (tests/scorers/test_registry).
    from ragpulse_scorers.lexical.uncertainty import free_verdict_uncertainty

    return free_verdict_uncertainty(candidate.free_support, candidate.free_version)


def directed_plans(rules: Sequence[Rule], candidates: Sequence[Candidate]) -> dict[str, DirectedPlan]:
    """Each directed rule's plan, set on the ``candidates`` it matches that the free judge has scored."""
    plans = {}
    for rule in rules:
        if rule.directed_share <= 0.0:
            continue
        known = [
            u
            for candidate in candidates
            if matches(rule.match, candidate) and (u := uncertainty(candidate)) is not None
        ]
        plans[rule.name] = plan_directed(rule.sample_rate, rule.directed_share, known)
    return plans


def inclusion_probability(
    candidate: Candidate, rule: Rule, plans: Mapping[str, DirectedPlan] | None = None
) -> float:
    """The probability (0..1) that ``rule`` includes ``candidate``, given that it matches it."""
    plan = (plans or {}).get(rule.name)
    u = uncertainty(candidate)
    if plan is None or u is None:
        return rule.sample_rate
    return directed_probability(u, plan)


def may_exceed_sample_rate(rule: Rule) -> bool:
    """Whether :func:`inclusion_probability` can be above the rule's sample rate for some request (the
    candidate query then reads every request the rule could include, not only those under its rate)."""
    return rule.directed_share > 0.0
