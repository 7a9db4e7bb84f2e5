"""What an LLM evaluator's judge answers, as a pydantic model made from the definition, and its scores.

The model is a :class:`~ragpulse_scorers.llm.output.JudgeOutput` like every built-in judge's, reasoning first,
so the judge client validates it, repairs it and caches it the same way: a score outside its range, a label
not in the set or a field missing is an unusable answer, asked again and, failing that, an error.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from ragpulse_scorers.evaluators.config import LlmEvaluator
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.models import Score

REASONING = "reasoning"
SCORE = "score"
LABEL = "label"
_EXAMPLE_REASON = "One or two sentences on what in the request decides the verdict."


def output_model(name: str, definition: LlmEvaluator) -> type[JudgeOutput]:
    """The answer's model for ``definition``, named after the evaluator (the name the judge is shown)."""
    annotations: dict[str, Any] = {REASONING: str}
    example: dict[str, Any] = {REASONING: _EXAMPLE_REASON}
    if definition.output == "score":
        assert definition.range is not None
        low, high = definition.range
        number: Any = int if definition.integer else float
        annotations[SCORE] = Annotated[number, Field(ge=low, le=high)]
        middle = (low + high) / 2
        example[SCORE] = math.ceil(middle) if definition.integer else round(middle, 2)
    elif definition.output == "label":
        assert definition.labels is not None
        labels = tuple(definition.labels)
        annotations[LABEL] = Annotated[Literal[labels], BeforeValidator(_label_reader(labels))]
        example[LABEL] = labels[0]
    else:
        assert definition.fields is not None
        for field, (low, high) in definition.fields.items():
            annotations[field] = Annotated[float, Field(ge=low, le=high)]
            example[field] = round((low + high) / 2, 2)
    namespace = {"__annotations__": annotations, "example": example, "__module__": __name__}
    title = "".join(part.capitalize() for part in name.replace("-", "_").replace(".", "_").split("_"))
    return type(f"{title or 'Evaluator'}Verdict", (JudgeOutput,), namespace)


def _label_reader(labels: tuple[str, ...]) -> Any:
    """Reads ``"Relevant."`` or ``' RELEVANT'`` as the label ``relevant``; anything else stays as it was."""
    by_folded = {label.casefold(): label for label in labels}

    def read(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        return by_folded.get(value.strip().strip(".\"'`").casefold(), value)

    return read


def llm_scores(definition: LlmEvaluator, answer: JudgeOutput) -> tuple[list[Score], bool | None]:
    """The metrics of a valid answer, and its verdict (None when the definition asks for none)."""
    values = answer.model_dump()
    explanation = str(values[REASONING])
    passed: bool | None = None
    if definition.output == "score":
        score = float(values[SCORE])
        scores = [Score(metric=SCORE, value=score, explanation=explanation)]
        if definition.pass_at is not None:
            passed = score >= definition.pass_at
    elif definition.output == "label":
        chosen = str(values[LABEL])
        scores = [
            Score(metric=label, value=1.0 if label == chosen else 0.0, label=chosen, explanation=explanation)
            for label in definition.labels or []
        ]
        if definition.pass_labels is not None:
            passed = chosen in definition.pass_labels
    else:
        scores = [
            Score(metric=field, value=float(values[field]), explanation=explanation)
            for field in definition.fields or {}
        ]
        if definition.pass_field is not None and definition.pass_at is not None:
            passed = float(values[definition.pass_field]) >= definition.pass_at
    return scores, passed
