"""The ``[[rules]]`` config: a rule's filter, judges, sample rate, budgets and priority.

A condition is a string (equals), a list of strings (in), or a table with one of ``equals``, ``in``,
``regex`` (RE2 syntax, searched anywhere in the value; anchor it with ``^...$``). Attributes are those of
the request's root span (``span``) and of the resource that sent it (``resource``); a request without the
attribute does not match its condition.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cached_property
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field, model_validator
from ragpulse_core.patterns import LinearPattern, config_pattern, linear_pattern
from ragpulse_core.settings import SettingsSection

DEFAULT_RULE = "default"
"""The rule that ``scorer.scorers`` and ``scorer.sample_rate`` make: every request, lowest priority."""


class Condition(SettingsSection):
    """One value test: exactly one of ``equals``, ``in``, ``regex``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    equals: str | None = None
    in_: list[str] | None = Field(None, alias="in")
    regex: str | None = None

    @model_validator(mode="after")
    def _one_test(self) -> Condition:
        given = [name for name in ("equals", "in_", "regex") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("a condition is a string, a list, or a table with one of equals, in, regex")
        if self.regex is not None:
            config_pattern(self.regex)
        return self

    @cached_property
    def _pattern(self) -> LinearPattern | None:
        """Compiled once; matched in time linear in the value, since the value is the sender's choice."""
        return None if self.regex is None else linear_pattern(self.regex)

    def accepts(self, value: str | None) -> bool:
        if value is None:
            return False
        if self.equals is not None:
            return value == self.equals
        if self.in_ is not None:
            return value in self.in_
        return self._pattern is not None and self._pattern.search(value) is not None


def _condition(value: Any) -> Any:
    """The short forms: a string means equals, a list means in."""
    if isinstance(value, str):
        return {"equals": value}
    if isinstance(value, list):
        return {"in": value}
    return value


ConditionField = Annotated[Condition, BeforeValidator(_condition)]


class RuleFilter(SettingsSection):
    """Which requests a rule matches: every condition given must hold (no condition: every request)."""

    service: ConditionField | None = Field(None, description="The request's service name")
    variant: ConditionField | None = Field(None, description="Its variant (ragpulse.variant)")
    pipeline: ConditionField | None = Field(None, description="Its pipeline (ragpulse.pipeline)")
    span: dict[str, ConditionField] = Field(default_factory=dict, description="Root span attributes")
    resource: dict[str, ConditionField] = Field(default_factory=dict, description="Resource attributes")

    @property
    def attribute_keys(self) -> tuple[frozenset[str], frozenset[str]]:
        """The span and resource attribute names the filter reads."""
        return frozenset(self.span), frozenset(self.resource)


class Rule(SettingsSection):
    name: str = Field(
        min_length=1, pattern=r"^[A-Za-z0-9_.:-]+$", description="The rule's name in logs, preview, backfill"
    )
    match: RuleFilter = Field(default_factory=RuleFilter)
    judges: list[str] = Field(min_length=1, description="Scorer names this rule runs")
    sample_rate: float = Field(1.0, ge=0, le=1, description="Share of matching requests judged (SampleKey)")
    daily_budget_usd: float | None = Field(None, ge=0, description="USD this rule's judgments may cost a day")
    daily_budget_calls: int | None = Field(None, ge=0, description="Judgments this rule pays for a day")
    priority: int = Field(0, description="Higher goes first and pays first where rules overlap")
    directed_share: float = Field(
        0.0, ge=0, le=1, description="Share of the judge budget directed to uncertain requests"
    )

    @property
    def budgeted(self) -> bool:
        return self.daily_budget_usd is not None or self.daily_budget_calls is not None


def check_rules(rules: list[Rule], evaluators: Collection[str] = ()) -> None:
    """Names unique and not the default rule's; every judge a known scorer, one of ``evaluators`` (the
    config's own) or ``package.module:callable``."""
    from ragpulse_scorers.registry import BUILTIN_SCORERS, known_scorers

    seen: set[str] = set()
    for rule in rules:
        if rule.name == DEFAULT_RULE:
            raise ValueError(
                f"rules: the name {DEFAULT_RULE!r} is the rule of scorer.scorers and scorer.sample_rate"
            )
        if rule.name in seen:
            raise ValueError(f"rules: two rules are named {rule.name!r}")
        seen.add(rule.name)
        for judge in rule.judges:
            module, _, attribute = judge.partition(":")
            if judge not in BUILTIN_SCORERS and judge not in evaluators and not (module and attribute):
                raise ValueError(
                    f"rules: rule {rule.name!r} names unknown judge {judge!r};"
                    f" known: {', '.join([*known_scorers(), *sorted(evaluators)])},"
                    " or package.module:callable"
                )
