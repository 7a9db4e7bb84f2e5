"""Evaluators as scorers: each kind's ``trial`` judges one request and says what it did; ``score`` keeps the
scores. The scheduler runs them like the built-in judges (same sampling, limits, log, writer, export).

Every evaluator that gives a verdict writes ``pass`` (1 or 0, labelled pass or fail); one that ``measures``
hallucination also writes ``hallucination`` (1 on a fail), so it counts wherever the built-in judges'
verdicts do. A request the evaluator cannot judge (its field absent) is skipped with the reason; a check
that breaks (a python function that raises or hangs, a judge reply that stays unusable) fails that request
with the reason, in the scoring log and on an error row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ragpulse_core.patterns import linear_pattern

from ragpulse_scorers.evaluators.config import (
    METRIC_NAME,
    RESERVED_METRICS,
    EvaluatorBase,
    EvaluatorDefinition,
    HeuristicEvaluator,
    JsonSchemaEvaluator,
    LlmEvaluator,
    PythonEvaluator,
    RegexEvaluator,
)
from ragpulse_scorers.evaluators.fields import attributes_read, field_text, required_request_fields
from ragpulse_scorers.evaluators.isolation import IsolatedCallFailed, IsolatedFunction
from ragpulse_scorers.evaluators.llm_output import llm_scores, output_model
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.prompting import DATA_RULE
from ragpulse_scorers.metric_names import HALLUCINATION, PASS
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.llm.client import JudgeClient
    from ragpulse_scorers.settings import ScorersSettings

MAX_METRICS = 50
MAX_EXCERPT = 80
MAX_MATCHED_CHARS = 1 << 20
"""The most text a regex or heuristic evaluator reads. RE2 is linear, but a pattern of classes under a
repetition can cost a few microseconds a character; a rule tree of 150 ``contains`` tests read a 50 MB answer
in 81 s. Either would be minutes on the tick's thread."""


class EvaluatorFailed(Exception):
    """The evaluator could not judge this request; the message is the scoring log's reason."""


@dataclass(frozen=True)
class Trial:
    """One judgment and what `ragpulse evaluators test` shows of it."""

    scores: list[Score]
    prompt: str = ""
    reply: str = ""
    printed: str = ""
    notes: list[str] = field(default_factory=list)


class Evaluator:
    """What every kind shares: name, version, the fields it needs and reads, and its verdict rows."""

    free = True

    def __init__(self, name: str, definition: EvaluatorBase) -> None:
        self.name = name
        self.version = definition.version()
        self.kind = definition.kind
        self.definition = definition
        self.requires: tuple[str, ...] = required_request_fields(definition.fields_read)
        self.attributes = attributes_read(definition.fields_read)

    def score(self, request: RagRequest) -> list[Score]:
        return self.trial(request).scores

    def trial(self, request: RagRequest) -> Trial:
        raise NotImplementedError

    def verdict(self, passed: bool, explanation: str) -> list[Score]:
        scores = [
            Score(metric=PASS, value=1.0 if passed else 0.0, label="pass" if passed else "fail",
                  explanation=explanation)
        ]  # fmt: skip
        if self.definition.measures == HALLUCINATION:
            scores.append(
                Score(metric=HALLUCINATION, value=0.0 if passed else 1.0,
                      label="grounded" if passed else "hallucinated", explanation=explanation)
            )  # fmt: skip
        return scores

    def close(self) -> None:
        """Stop what the evaluator runs beside the scheduler (its worker process); nothing by default."""


class RegexScorer(Evaluator):
    def __init__(self, name: str, definition: RegexEvaluator) -> None:
        super().__init__(name, definition)
        self._field = definition.field
        self._reject = definition.reject
        self._pattern = linear_pattern(definition.pattern)

    def trial(self, request: RagRequest) -> Trial:
        text = _field_or_skip(request, self._field)
        _check_size(self._field, text, "regex")
        found = self._pattern.search(text)
        shown = f"/{self._pattern.pattern}/"
        if found is None:
            said = f"no match of {shown} in the {self._field}"
        else:
            start, end = found.span()
            said = f"the {self._field} matches {shown} at {start}: {_excerpt(text[start:end])!r}"
        return Trial(self.verdict((found is None) == self._reject, said))


class HeuristicScorer(Evaluator):
    def __init__(self, name: str, definition: HeuristicEvaluator) -> None:
        super().__init__(name, definition)
        # A rule may test that a field is empty: a request without it is judged, not skipped.
        self.requires = ()
        self._tree = definition.tree

    def trial(self, request: RagRequest) -> Trial:
        for name in self._tree.fields():
            _check_size(name, field_text(request, name) or "", "heuristic")
        outcome = self._tree.check(request)
        return Trial(self.verdict(outcome.passed, outcome.reason))


class JsonSchemaScorer(Evaluator):
    def __init__(self, name: str, definition: JsonSchemaEvaluator) -> None:
        super().__init__(name, definition)
        self._field = definition.field
        self._check = IsolatedFunction(
            "ragpulse_scorers.evaluators.schema_check:validator",
            setup=definition.json_schema,
            timeout_s=definition.timeout_s,
            memory_mb=definition.max_memory_mb,
        )

    def trial(self, request: RagRequest) -> Trial:
        text = _field_or_skip(request, self._field)
        try:
            result, _ = self._check.call(text)
        except IsolatedCallFailed as exc:
            raise EvaluatorFailed(f"schema check: {exc}") from None
        if not isinstance(result, dict) or not isinstance(result.get("pass"), bool):
            raise EvaluatorFailed("schema check gave no verdict")
        return Trial(self.verdict(result["pass"], f"the {self._field}: {result.get('reason', '')}"))

    def close(self) -> None:
        self._check.close()


class PythonScorer(Evaluator):
    def __init__(self, name: str, definition: PythonEvaluator) -> None:
        super().__init__(name, definition)
        self._pass_at = definition.pass_at
        self._function = IsolatedFunction(
            definition.entry_point,
            path=definition.path,
            timeout_s=definition.timeout_s,
            memory_mb=definition.max_memory_mb,
            request=True,
        )
        self._entry = definition.entry_point

    def trial(self, request: RagRequest) -> Trial:
        try:
            result, printed = self._function.call(request.model_dump(mode="json"))
        except IsolatedCallFailed as exc:
            raise EvaluatorFailed(str(exc)) from None
        return Trial(self._scores(result), printed=printed)

    def _scores(self, result: Any) -> list[Score]:
        said = f"{self._entry} returned"
        if result is None:
            raise NotApplicable(f"{said} None (nothing to judge)")
        if isinstance(result, bool):
            return self.verdict(result, f"{said} {result}")
        if _is_number(result):
            value = float(result)
            scores = [Score(metric="score", value=value, explanation=f"{said} {value:g}")]
            if self._pass_at is not None:
                scores += self.verdict(
                    value >= self._pass_at, f"{said} {value:g}; passes at {self._pass_at:g}"
                )
            return scores
        if isinstance(result, dict):
            return self._metrics(result)
        raise EvaluatorFailed(
            f"{said} {_excerpt(repr(result))}: return a bool, a number, or a dict of metric name to number"
        )

    def _metrics(self, result: dict[str, Any]) -> list[Score]:
        explanation = result.pop("explanation", "")
        if not isinstance(explanation, str):
            raise EvaluatorFailed(f"{self._entry}: 'explanation' must be text")
        if len(result) > MAX_METRICS:
            raise EvaluatorFailed(f"{self._entry} returned {len(result)} metrics; at most {MAX_METRICS}")
        scores: list[Score] = []
        for metric, value in result.items():
            if metric == PASS:
                if not isinstance(value, bool):
                    raise EvaluatorFailed(
                        f"{self._entry}: 'pass' must be true or false, not {_excerpt(repr(value))}"
                    )
                scores += self.verdict(value, explanation or f"{self._entry} returned pass = {value}")
                continue
            if not METRIC_NAME.match(metric) or metric in RESERVED_METRICS:
                raise EvaluatorFailed(
                    f"{self._entry}: {_excerpt(metric)!r} is no metric name (letters, digits, _)"
                )
            if not _is_number(value) and not isinstance(value, bool):
                raise EvaluatorFailed(
                    f"{self._entry}: {metric} = {_excerpt(repr(value))} is not a finite number"
                )
            scores.append(Score(metric=metric, value=float(value), explanation=explanation))
        if not scores:
            raise NotApplicable(f"{self._entry} returned no metric")
        return scores

    def close(self) -> None:
        self._function.close()


class LlmScorer(Evaluator):
    free = False

    def __init__(self, name: str, definition: LlmEvaluator, client: JudgeClient) -> None:
        super().__init__(name, definition)
        self._definition = definition
        self._client = client
        self._system = f"{definition.system.strip()}\n\n{DATA_RULE}"
        self._output = output_model(name, definition)

    def render(self, request: RagRequest) -> tuple[str, str]:
        """The system and user prompts for ``request`` (NotApplicable when it lacks a variable's field)."""
        return self._system, self._definition.template.render(request)

    def trial(self, request: RagRequest) -> Trial:
        system, user = self.render(request)
        call = self._client.judge(system, user, self._output, f"{self.name}@{self.version}")
        scores, passed = llm_scores(self._definition, call.output)
        if passed is not None:
            scores += self.verdict(passed, scores[0].explanation)
        usage = Usage()
        usage.add(call)
        notes = ["cached: this exact prompt was judged before, nothing was paid now"] if call.cached else []
        return Trial(usage.stamp(scores), prompt=f"{system}\n\n{user}", reply=call.reply, notes=notes)


def _field_or_skip(request: RagRequest, name: str) -> str:
    text = field_text(request, name)
    if text is None:
        raise NotApplicable(f"the request has no {name}")
    return text


def _check_size(name: str, text: str, kind: str) -> None:
    if len(text) > MAX_MATCHED_CHARS:
        raise EvaluatorFailed(
            f"the {name} is {len(text):,} characters; a {kind} evaluator reads at most {MAX_MATCHED_CHARS:,}"
        )


def _is_number(value: Any) -> bool:
    """A finite int or float a float can hold (``10**400`` is an int no float holds)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _excerpt(text: str) -> str:
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"


def build_evaluator(
    name: str, definition: EvaluatorDefinition, settings: ScorersSettings, store: Store | None
) -> Evaluator:
    """The scorer of one ``[evaluators.<kind>.<name>]`` table."""
    if isinstance(definition, RegexEvaluator):
        return RegexScorer(name, definition)
    if isinstance(definition, HeuristicEvaluator):
        return HeuristicScorer(name, definition)
    if isinstance(definition, JsonSchemaEvaluator):
        return JsonSchemaScorer(name, definition)
    if isinstance(definition, PythonEvaluator):
        return PythonScorer(name, definition)
    from ragpulse_scorers.llm.client import shared_client

    return LlmScorer(name, definition, shared_client(settings.judge, store))
