"""Whether a request matches a rule's filter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ragpulse_scorers.rules.model import RuleFilter


class RuleSubject(Protocol):
    """What a filter reads of a request."""

    @property
    def service_name(self) -> str: ...

    @property
    def variant(self) -> str: ...

    @property
    def pipeline(self) -> str: ...

    @property
    def span_attributes(self) -> Mapping[str, str]: ...

    @property
    def resource_attributes(self) -> Mapping[str, str]: ...


def matches(rule_filter: RuleFilter, subject: RuleSubject) -> bool:
    """Every condition of the filter holds for the subject; an attribute it lacks fails its condition."""
    for condition, value in (
        (rule_filter.service, subject.service_name),
        (rule_filter.variant, subject.variant),
        (rule_filter.pipeline, subject.pipeline),
    ):
        if condition is not None and not condition.accepts(value):
            return False
    for conditions, attributes in (
        (rule_filter.span, subject.span_attributes),
        (rule_filter.resource, subject.resource_attributes),
    ):
        for key, condition in conditions.items():
            if not condition.accepts(attributes.get(key)):
                return False
    return True
