"""The rules that apply to each scorer, and which of them want a request.

The default rule (``scorer.scorers`` at ``scorer.sample_rate``) matches every request and ranks last; a
scorer that the job runs and no rule names runs under it too. A request's judge runs once whatever rules ask
for it: the wanting rules are ranked by priority (highest first, then config order), and the first with
budget left pays.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragpulse_core.directed_sampling import DirectedPlan
from ragpulse_core.sampling import SAMPLE_BUCKETS, sample_threshold

from ragpulse_scorers.pipeline.candidates import Candidate
from ragpulse_scorers.rules.inclusion import inclusion_probability, may_exceed_sample_rate
from ragpulse_scorers.rules.matching import matches
from ragpulse_scorers.rules.model import DEFAULT_RULE, Rule

if TYPE_CHECKING:
    from ragpulse_scorers.settings import ScorersSettings


@dataclass(frozen=True)
class Wanted:
    """The rules that include a request for one scorer, in the order they pay; empty with the reason."""

    rules: tuple[Rule, ...]
    reason: str = ""
    probability: float = 1.0
    """Where a directed rule matched: the chance the request had of being included by any matching rule
    (they share one draw, ``SampleKey``, so the largest of their inclusion probabilities); rates weigh the
    judgment by 1 / this. 1 where only uniform rules matched: their samples are read unweighted."""


class RuleBook:
    def __init__(self, rules: Sequence[Rule], default_judges: Iterable[str], default_rate: float) -> None:
        self._named = sorted(rules, key=lambda rule: -rule.priority)  # stable: config order within a priority
        named_judges = {judge for rule in rules for judge in rule.judges}
        self._default_judges = list(dict.fromkeys(default_judges))
        self._default_rate = default_rate
        self._named_judges = named_judges

    @property
    def judges(self) -> list[str]:
        """Every scorer some rule runs, the default rule's first."""
        named = [judge for rule in self._named for judge in rule.judges]
        return list(dict.fromkeys([*self._default_judges, *named]))

    def rules_for(self, scorer: str) -> list[Rule]:
        """The rules that run ``scorer``, in paying order (the default rule last)."""
        chosen = [rule for rule in self._named if scorer in rule.judges]
        if scorer in self._default_judges or scorer not in self._named_judges:
            chosen.append(Rule(name=DEFAULT_RULE, judges=[scorer], sample_rate=self._default_rate))
        return chosen

    def only_default(self, scorer: str) -> bool:
        return [rule.name for rule in self.rules_for(scorer)] == [DEFAULT_RULE]

    def bound(self, scorer: str) -> int:
        """The sample threshold no rule of ``scorer`` can include a request beyond."""
        rules = self.rules_for(scorer)
        if any(may_exceed_sample_rate(rule) for rule in rules):
            return SAMPLE_BUCKETS
        return max((sample_threshold(rule.sample_rate) for rule in rules), default=0)

    def digest(self, scorer: str) -> str:
        """Names what decides ``scorer``'s samples: it changes when any of its rules does."""
        described = [rule.model_dump(mode="json", by_alias=True) for rule in self.rules_for(scorer)]
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:16]

    def attribute_keys(self, scorer: str) -> tuple[list[str], list[str]]:
        """The span and resource attributes that ``scorer``'s rules read."""
        span: set[str] = set()
        resource: set[str] = set()
        for rule in self.rules_for(scorer):
            span.update(rule.match.span)
            resource.update(rule.match.resource)
        return sorted(span), sorted(resource)

    def directed(self, scorer: str) -> list[Rule]:
        """The rules of ``scorer`` that direct part of their samples to uncertain requests."""
        return [rule for rule in self.rules_for(scorer) if rule.directed_share > 0.0]

    def wanted(
        self, scorer: str, candidate: Candidate, plans: Mapping[str, DirectedPlan] | None = None
    ) -> Wanted:
        """``plans``: the directed rules' plans for the batch (:func:`directed_plans`)."""
        rules = self.rules_for(scorer)
        matching = [rule for rule in rules if matches(rule.match, candidate)]
        if not matching:
            return Wanted((), f"no rule running {scorer} matches the request")
        probabilities = {rule.name: inclusion_probability(candidate, rule, plans) for rule in matching}
        including = tuple(
            rule
            for rule in matching
            if candidate.sample_bucket < round(probabilities[rule.name] * SAMPLE_BUCKETS)
        )
        if including:
            # Recorded only where a directed rule matched: uniform samples stay unweighted, as before rules.
            directed = any(rule.directed_share > 0.0 for rule in matching)
            return Wanted(including, probability=max(probabilities.values()) if directed else 1.0)
        if [rule.name for rule in rules] == [DEFAULT_RULE]:
            return Wanted((), f"SampleKey outside sample rate {rules[0].sample_rate}")
        rates = ", ".join(f"{rule.name} ({rule.sample_rate})" for rule in matching)
        return Wanted((), f"SampleKey outside the sample rate of rule {rates}")


def rule_book(settings: ScorersSettings) -> RuleBook:
    """The rules of ``settings``: ``[[rules]]`` and the default rule of ``[scorer]``."""
    return RuleBook(settings.rules, settings.scorer.scorers, settings.scorer.sample_rate)
