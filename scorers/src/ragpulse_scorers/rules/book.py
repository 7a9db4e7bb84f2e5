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
    probability: float = 0.0
    """The probability that some rule includes the request for the scorer: the largest inclusion
    probability of the matching rules, since every rule samples the same buckets. Its inverse weighs a
    judged request in a rate over mixed rules."""
    directed: bool = False
    """A directed rule matched: the score rows carry ``probability`` and rates weigh them by its inverse
    (uniform samples stay unweighted there, as before rules; the scoring log has the probability always)."""


class RuleBook:
    def __init__(self, rules: Sequence[Rule], default_judges: Iterable[str], default_rate: float) -> None:
        self._named = sorted(rules, key=lambda rule: -rule.priority)  # stable: config order within a priority
        named_judges = {judge for rule in rules for judge in rule.judges}
        self._default_judges = list(dict.fromkeys(default_judges))
        self._default_rate = default_rate
        self._named_judges = named_judges
        self._by_scorer: dict[str, list[Rule]] = {}

    @property
    def judges(self) -> list[str]:
        """Every scorer some rule runs, the default rule's first."""
        named = [judge for rule in self._named for judge in rule.judges]
        return list(dict.fromkeys([*self._default_judges, *named]))

    def rules_for(self, scorer: str) -> list[Rule]:
        """The rules that run ``scorer``, in paying order (the default rule last)."""
        if scorer not in self._by_scorer:
            chosen = [rule for rule in self._named if scorer in rule.judges]
            if scorer in self._default_judges or scorer not in self._named_judges:
                chosen.append(Rule(name=DEFAULT_RULE, judges=[scorer], sample_rate=self._default_rate))
            self._by_scorer[scorer] = chosen
        return list(self._by_scorer[scorer])

    def renamed(self, names: Mapping[str, str]) -> RuleBook:
        """The same rules with judges called by the names their scorers carry (``package.module:callable``
        in the config builds a scorer with a ``name`` of its own)."""
        rules = [
            rule.model_copy(update={"judges": [names.get(j, j) for j in rule.judges]}) for rule in self._named
        ]
        return RuleBook(rules, [names.get(j, j) for j in self._default_judges], self._default_rate)

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
        """The rules that include ``candidate`` for ``scorer``, or why none does; ``plans``: the directed
        rules' plans for the batch (:func:`~ragpulse_scorers.rules.inclusion.directed_plans`)."""
        rules = self._by_scorer.get(scorer) or self.rules_for(scorer)
        matching = [rule for rule in rules if matches(rule.match, candidate)]
        if not matching:
            return Wanted((), f"no rule running {scorer} matches the request")
        probabilities = [inclusion_probability(candidate, rule, plans) for rule in matching]
        including = tuple(
            rule
            for rule, probability in zip(matching, probabilities, strict=True)
            if candidate.sample_bucket < round(probability * SAMPLE_BUCKETS)
        )
        if including:
            directed = any(rule.directed_share > 0.0 for rule in matching)
            return Wanted(including, probability=max(probabilities), directed=directed)
        if [rule.name for rule in rules] == [DEFAULT_RULE]:
            return Wanted((), f"SampleKey outside sample rate {rules[0].sample_rate}")
        rates = ", ".join(f"{rule.name} ({rule.sample_rate})" for rule in matching)
        return Wanted((), f"SampleKey outside the sample rate of rule {rates}")


def rule_book(settings: ScorersSettings) -> RuleBook:
    """The rules of ``settings``: ``[[rules]]`` and the default rule of ``[scorer]``."""
    return RuleBook(settings.rules, settings.scorer.scorers, settings.scorer.sample_rate)


def single_rule(rule: Rule) -> RuleBook:
    """A book of ``rule`` alone, without the default rule: what a backfill of that rule applies."""
    return RuleBook([rule], (), 0.0)
