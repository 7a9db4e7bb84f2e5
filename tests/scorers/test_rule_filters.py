"""Rule filters: what the config says parses to the filter a person means, and the matcher holds to it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.rules.matching import matches
from ragpulse_scorers.rules.model import RuleFilter

text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
keys = st.text(st.sampled_from("abcxyz._-"), min_size=1, max_size=8)
attributes = st.dictionaries(keys, text, max_size=4)
# A condition in any of its written forms, with what it stands for.
written = st.one_of(
    text.map(lambda v: (v, ("equals", v))),
    st.lists(text, max_size=4).map(lambda vs: (vs, ("in", vs))),
    text.map(lambda v: ({"equals": v}, ("equals", v))),
    st.lists(text, max_size=4).map(lambda vs: ({"in": vs}, ("in", vs))),
    text.map(lambda v: ({"regex": re.escape(v)}, ("regex", re.escape(v)))),
)


@dataclass(frozen=True)
class Subject:
    service_name: str = ""
    variant: str = ""
    pipeline: str = ""
    span_attributes: dict[str, str] = field(default_factory=dict)
    resource_attributes: dict[str, str] = field(default_factory=dict)


subjects = st.builds(Subject, text, text, text, attributes, attributes)


def holds(meaning: tuple[str, object], value: str | None) -> bool:
    """What a condition means, said independently of the model."""
    kind, operand = meaning
    if value is None:
        return False
    if kind == "equals":
        return value == operand
    if kind == "in":
        return value in operand  # type: ignore[operator]
    return re.search(str(operand), value) is not None


@given(
    st.dictionaries(st.sampled_from(["service", "variant", "pipeline"]), written, max_size=3),
    st.dictionaries(keys, written, max_size=3),
    st.dictionaries(keys, written, max_size=3),
    subjects,
)
def test_a_filter_matches_when_every_condition_written_holds(
    columns: dict[str, tuple[object, tuple[str, object]]],
    span: dict[str, tuple[object, tuple[str, object]]],
    resource: dict[str, tuple[object, tuple[str, object]]],
    subject: Subject,
) -> None:
    config = {name: form for name, (form, _) in columns.items()}
    config["span"] = {key: form for key, (form, _) in span.items()}
    config["resource"] = {key: form for key, (form, _) in resource.items()}
    rule_filter = RuleFilter.model_validate(config)
    values = {"service": subject.service_name, "variant": subject.variant, "pipeline": subject.pipeline}

    expected = (
        all(holds(meaning, values[name]) for name, (_, meaning) in columns.items())
        and all(holds(meaning, subject.span_attributes.get(k)) for k, (_, meaning) in span.items())
        and all(holds(meaning, subject.resource_attributes.get(k)) for k, (_, meaning) in resource.items())
    )
    assert matches(rule_filter, subject) is expected
    # The settings loader dumps and validates again: the filter survives it unchanged.
    again = RuleFilter.model_validate(rule_filter.model_dump())
    assert again == rule_filter
    assert matches(again, subject) is expected


@given(subjects)
def test_a_filter_of_a_requests_own_values_matches_it_and_no_other_value(subject: Subject) -> None:
    own = RuleFilter.model_validate(
        {
            "service": subject.service_name,
            "variant": [subject.variant],
            "pipeline": {"regex": f"^{re.escape(subject.pipeline)}$"},
            "span": dict(subject.span_attributes),
            "resource": {k: {"in": [v]} for k, v in subject.resource_attributes.items()},
        }
    )
    assert matches(RuleFilter(), subject)
    assert matches(own, subject)
    assert not matches(own, Subject(subject.service_name + "x", subject.variant, subject.pipeline,
                                    subject.span_attributes, subject.resource_attributes))  # fmt: skip
    for key in subject.span_attributes:
        lacking = {k: v for k, v in subject.span_attributes.items() if k != key}
        assert not matches(own, Subject(subject.service_name, subject.variant, subject.pipeline, lacking,
                                        subject.resource_attributes))  # fmt: skip


def test_a_pattern_prone_to_backtracking_answers_at_once_on_a_name_any_sender_chose() -> None:
    """Python's engine takes about 2**40 steps on this pair and holds the GIL throughout; the rule's engine
    is linear in the value, so the collector and the live page keep answering."""
    prod_only = RuleFilter.model_validate({"service": {"regex": r"^(\w+-?)+-prod$"}})

    assert not matches(prod_only, Subject(service_name="a" * 40 + "!"))
    assert matches(prod_only, Subject(service_name="search-api-prod"))
