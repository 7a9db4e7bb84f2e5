"""A heuristic evaluator's rule tree: small tests on request fields, combined with ``all``, ``any``, ``not``.

In TOML each node is a table with one key::

    rule = { all = [
        { not_empty = "answer" },
        { min_length = { field = "answer", chars = 40 } },
        { not = { contains = { field = "answer", text = "as an AI language model" } } },
    ] }

Leaves: ``not_empty = FIELD``, ``contains`` / ``contains_any`` (``text`` / ``texts``, case-insensitive unless
``case_sensitive``), ``min_length`` / ``max_length`` (``chars``), ``min_words`` / ``max_words`` (``words``),
``matches`` (``pattern``, RE2). A tree is at most :data:`MAX_DEPTH` deep and :data:`MAX_NODES` nodes, so a
config cannot make one request's check slow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ragpulse_core.patterns import PatternError, config_pattern

from ragpulse_scorers.evaluators.fields import check_field, field_text
from ragpulse_scorers.models import RagRequest

MAX_DEPTH = 12
MAX_NODES = 200
MAX_SHOWN = 60


@dataclass(frozen=True)
class Outcome:
    passed: bool
    reason: str


class RuleNode:
    def check(self, request: RagRequest) -> Outcome:
        raise NotImplementedError

    def fields(self) -> tuple[str, ...]:
        raise NotImplementedError


@dataclass(frozen=True)
class Leaf(RuleNode):
    test: str
    field: str
    holds: Callable[[str], bool]
    said: str
    """What the test asks, for the reason: ``answer contains 'refund'``."""

    def check(self, request: RagRequest) -> Outcome:
        value = field_text(request, self.field) or ""
        passed = self.holds(value)
        return Outcome(passed, self.said if passed else f"false: {self.said}")

    def fields(self) -> tuple[str, ...]:
        return (self.field,)


@dataclass(frozen=True)
class Combined(RuleNode):
    operator: str
    children: tuple[RuleNode, ...]

    def check(self, request: RagRequest) -> Outcome:
        if self.operator == "not":
            inner = self.children[0].check(request)
            return Outcome(
                not inner.passed, inner.reason if not inner.passed else f"{inner.reason} (wanted false)"
            )
        outcomes = []
        for child in self.children:
            outcome = child.check(request)
            outcomes.append(outcome)
            # Short-circuit: the reason names the test that decided.
            if self.operator == "all" and not outcome.passed:
                return outcome
            if self.operator == "any" and outcome.passed:
                return outcome
        if self.operator == "all":
            return Outcome(True, "; ".join(outcome.reason for outcome in outcomes))
        return Outcome(False, "none held: " + "; ".join(outcome.reason for outcome in outcomes))

    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for child in self.children for name in child.fields()))


def parse_rule(node: Any) -> RuleNode:
    """The tree of ``node`` (a TOML table); ValueError saying where it is wrong."""
    counter = [0]
    return _parse(node, 1, counter, "rule")


def _parse(node: Any, depth: int, counter: list[int], where: str) -> RuleNode:
    counter[0] += 1
    if depth > MAX_DEPTH or counter[0] > MAX_NODES:
        raise ValueError(f"{where}: a rule tree is at most {MAX_DEPTH} deep and {MAX_NODES} nodes")
    if not isinstance(node, Mapping) or len(node) != 1:
        raise ValueError(f'{where}: each node is a table with one key, e.g. {{ not_empty = "answer" }}')
    ((test, argument),) = node.items()
    here = f"{where}.{test}"
    if test in ("all", "any"):
        if not isinstance(argument, list) or not argument:
            raise ValueError(f"{here}: a list of rules")
        children = [_parse(child, depth + 1, counter, f"{here}[{i}]") for i, child in enumerate(argument)]
        return Combined(test, tuple(children))
    if test == "not":
        return Combined("not", (_parse(argument, depth + 1, counter, here),))
    build = _LEAVES.get(test)
    if build is None:
        known = ", ".join(sorted([*_LEAVES, "all", "any", "not"]))
        raise ValueError(f"{where}: unknown test {test!r}; known: {known}")
    return build(argument, here)


def _options(
    argument: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    if not isinstance(argument, Mapping):
        raise ValueError(f"{where}: a table with {', '.join(required)}")
    missing = [key for key in required if key not in argument]
    unknown = [key for key in argument if key not in (*required, *optional, "field")]
    if missing or unknown:
        raise ValueError(
            f"{where}: needs {', '.join(required)}" + (f"; unknown {unknown}" if unknown else "")
        )
    options = dict(argument)
    options["field"] = check_field(str(options.get("field", "answer")))
    return options


def _not_empty(argument: Any, where: str) -> Leaf:
    field = check_field(argument if isinstance(argument, str) else "")
    return Leaf("not_empty", field, lambda value: bool(value.strip()), f"{field} is not empty")


def _contains(argument: Any, where: str, many: bool) -> Leaf:
    key = "texts" if many else "text"
    options = _options(argument, where, (key,), ("case_sensitive",))
    texts = options[key] if many else [options[key]]
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t for t in texts):
        raise ValueError(f"{where}: {key} must be {'a list of ' if many else ''}non-empty text")
    sensitive = bool(options.get("case_sensitive", False))
    wanted = texts if sensitive else [text.casefold() for text in texts]

    def holds(value: str) -> bool:
        seen = value if sensitive else value.casefold()
        return any(text in seen for text in wanted)

    shown = ", ".join(repr(text[:MAX_SHOWN]) for text in texts)
    return Leaf(
        "contains", options["field"], holds, f"{options['field']} contains {'one of ' if many else ''}{shown}"
    )


def _bound(test: str, unit: str, measure: Callable[[str], int], at_least: bool) -> Callable[[Any, str], Leaf]:
    def build(argument: Any, where: str) -> Leaf:
        options = _options(argument, where, (unit,))
        limit = options[unit]
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise ValueError(f"{where}: {unit} must be a whole number, 0 or more")
        field = options["field"]
        word = "at least" if at_least else "at most"

        def holds(value: str) -> bool:
            size = measure(value)
            return size >= limit if at_least else size <= limit

        return Leaf(test, field, holds, f"{field} has {word} {limit} {unit}")

    return build


def _matches(argument: Any, where: str) -> Leaf:
    options = _options(argument, where, ("pattern",))
    try:
        pattern = config_pattern(str(options["pattern"]))
    except PatternError as exc:
        raise ValueError(f"{where}: {exc}") from None
    field = options["field"]
    return Leaf(
        "matches",
        field,
        lambda value: pattern.search(value) is not None,
        f"{field} matches {pattern.pattern!r}",
    )


_LEAVES: dict[str, Callable[[Any, str], Leaf]] = {
    "not_empty": _not_empty,
    "contains": lambda argument, where: _contains(argument, where, many=False),
    "contains_any": lambda argument, where: _contains(argument, where, many=True),
    "min_length": _bound("min_length", "chars", len, at_least=True),
    "max_length": _bound("max_length", "chars", len, at_least=False),
    "min_words": _bound("min_words", "words", lambda text: len(text.split()), at_least=True),
    "max_words": _bound("max_words", "words", lambda text: len(text.split()), at_least=False),
    "matches": _matches,
}
