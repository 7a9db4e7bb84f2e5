"""The ``coverage`` scorer: how well the answer and the retrieved chunks cover the question's sub-questions.

The method of Xie et al. 2024 (seed 002), in the project's own prompts. Judge calls per request:

1. Decompose the question into about 20 sub-questions.
2. Type them core / background / follow-up, all in ONE call for the whole list (the paper makes one call per
   sub-question; one call is ~20x cheaper and lets the judge weigh the sub-questions against each other).
3. Judge which sub-questions the answer covers, with the first answer sentence addressing each (one call).
4. Judge which sub-questions each retrieved chunk covers (one call per chunk, all sub-questions at once).

Steps 1-2 depend on the question only: they are cached per question text in this process and, through the
client's cache, across processes. Steps 2-4 answer per sub-question id: a verdict naming an id that was not
in the prompt, or an answered verdict without a sentence number of the answer, is dropped on its own, and
the sub-questions left without a verdict are asked about again. One the judge never gives a verdict for
counts in no metric (it is listed as unjudged in the details). The metrics are
:mod:`ragpulse_scorers.metrics.coverage_metrics`, over this request's sub-questions.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, Field
from ragpulse_judge.text import split_sentences

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient, shared_client
from ragpulse_scorers.llm.errors import JudgeOutputInvalid, JudgeRejected
from ragpulse_scorers.llm.items import collect_by_id, valid_items_only
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metrics.coverage_metrics import (
    SUB_QUESTION_TYPES,
    CoverageMetrics,
    SubQuestionOutcome,
    SubQuestionType,
    coverage_metrics,
)
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

DECOMPOSE_PROMPT = "coverage-decompose-v2"
TYPES_PROMPT = "coverage-types-v2"
ANSWER_PROMPT = "coverage-answer-v2"
PASSAGE_PROMPT = "coverage-passage-v2"
MAX_SUB_QUESTIONS = 30
PLAN_CACHE_SIZE = 512

_SYSTEM = (
    "You are a careful analyst who evaluates how completely texts answer complex questions. "
    "Follow the instructions exactly.\n" + DATA_RULE
)

_DECOMPOSE = """Break the complex question below into about 20 sub-questions. Together they should cover
everything a complete, well-rounded answer would need to address: the central issues, helpful context, and
natural follow-up questions. Each sub-question must stand on its own and be distinct from the others.

{question}"""

_TYPES = """Classify each sub-question by the role it plays in answering the complex question:

- "core": central to the question; it addresses the question directly or in part and gives insight an answer
  cannot do without (often one step or one perspective of the reasoning the question requires).
- "background": optional; it supplies context or supporting information that helps understand the topic, but
  the question can be answered well without it.
- "follow-up": not needed to answer the question; it is what a reader might ask after reading an answer, going
  deeper into a detail or beyond the question's scope.

{question}

{sub_questions}

Give {count} entries, one for each sub-question above ({ids}): its id, a short reason, then its type."""

_ANSWER = """For each sub-question, decide whether any part of the answer below answers it. The answer is
given sentence by sentence with sentence numbers. For an answered sub-question, quote the shortest span of
the answer that answers it and give the number of the FIRST sentence that addresses it; for an unanswered one,
give "" as text_span and null as first_sentence.

{sub_questions}

{passage}

Give {count} entries, one for each sub-question above ({ids}): its id, a short reason, the span, whether
it is answered, and the first sentence."""

_PASSAGE = """For each sub-question, decide whether any part of the document below answers it. For an
answered sub-question, quote the shortest span that answers it; otherwise give "" as text_span.

{sub_questions}

{passage}

Give {count} entries, one for each sub-question above ({ids})."""


def _first_sub_questions(value: Any) -> Any:
    return value[:MAX_SUB_QUESTIONS] if isinstance(value, list) else value


class Decomposition(JudgeOutput):
    # maxItems bounds a grammar-constrained (llama.cpp) model that would go on listing; longer lists from
    # other servers are cut, not refused.
    sub_questions: Annotated[
        list[str], BeforeValidator(_first_sub_questions), Field(min_length=1, max_length=MAX_SUB_QUESTIONS)
    ]

    example: ClassVar[dict[str, Any]] = {
        "sub_questions": [
            "What does a heat pump do?",
            "How much electricity does a heat pump use in winter?",
            "How does its running cost compare with a gas boiler's?",
            "Which government grants cover installing one?",
        ]
    }


class TypedSubQuestion(BaseModel):
    id: int
    reasoning: str
    type: SubQuestionType


class TypeVerdicts(JudgeOutput):
    types: Annotated[list[TypedSubQuestion], valid_items_only(TypedSubQuestion)]

    example: ClassVar[dict[str, Any]] = {
        "types": [{"id": 1, "reasoning": "Asks for the comparison the question turns on.", "type": "core"}]
    }


class SubQuestionCoverage(BaseModel):
    id: int
    reasoning: str
    text_span: str
    answered: bool
    first_sentence: int | None


class CoverageVerdicts(JudgeOutput):
    verdicts: Annotated[list[SubQuestionCoverage], valid_items_only(SubQuestionCoverage)]

    example: ClassVar[dict[str, Any]] = {
        "verdicts": [
            {"id": 1, "reasoning": "Sentence 2 gives the yearly running cost.",
             "text_span": "costs about 900 euros a year to run", "answered": True, "first_sentence": 2}
        ]
    }  # fmt: skip


class PassageCoverage(BaseModel):
    id: int
    text_span: str
    answered: bool


class PassageVerdicts(JudgeOutput):
    verdicts: Annotated[list[PassageCoverage], valid_items_only(PassageCoverage)]

    example: ClassVar[dict[str, Any]] = {
        "verdicts": [{"id": 1, "text_span": "uses 3 kWh of electricity per hour", "answered": True}]
    }


@dataclass(frozen=True)
class SubQuestion:
    text: str
    type: SubQuestionType


@dataclass(frozen=True)
class AnswerCoverage:
    """Whether the answer covers one sub-question and where it starts to (0 = first word, 1 = the end)."""

    answered: bool
    position: float | None
    text_span: str
    reasoning: str


class CoverageJudge:
    """The four judgments, usable on their own (``ragpulse eval subq-types`` / ``subq-coverage`` do).

    The three list judgments answer per sub-question id and return ``None`` for a sub-question the judge
    gave no valid verdict for, after asking about the missing ones again (:func:`collect_by_id`).
    """

    def __init__(self, client: JudgeClient) -> None:
        self.client = client
        self._plans: OrderedDict[str, list[SubQuestion]] = OrderedDict()
        self._plans_lock = threading.Lock()

    @property
    def asks(self) -> int:
        """How often a list judgment asks about the sub-questions still missing, the first time included."""
        return 1 + self.client.settings.repairs

    def plan(self, question: str, usage: Usage) -> list[SubQuestion]:
        """The question's typed sub-questions (decomposition then typing), cached per question text; a
        sub-question the judge could not type is left out."""
        with self._plans_lock:
            cached = self._plans.get(question)
            if cached is not None:
                self._plans.move_to_end(question)
                return cached
        sub_questions = self.decompose(question, usage)
        types = self.classify(question, sub_questions, usage)
        plan = [
            SubQuestion(text, typed.type) for text, typed in zip(sub_questions, types, strict=True) if typed
        ]
        if len(plan) < len(sub_questions):
            logger.info("judge typed %d of %d sub-questions; the rest are left out", len(plan), len(types))
        if not plan:
            raise JudgeOutputInvalid("the judge typed none of the sub-questions")
        with self._plans_lock:
            self._plans[question] = plan
            while len(self._plans) > PLAN_CACHE_SIZE:
                self._plans.popitem(last=False)
        return plan

    def decompose(self, question: str, usage: Usage) -> list[str]:
        call = self.client.judge(
            _SYSTEM,
            _DECOMPOSE.format(question=fence("question", question)),
            Decomposition,
            DECOMPOSE_PROMPT,
            _no_blank_sub_questions,
        )
        usage.add(call)
        unique = list(dict.fromkeys(" ".join(text.split()) for text in call.output.sub_questions))
        unique = [text for text in unique if text]
        if len(unique) > MAX_SUB_QUESTIONS:
            logger.info("judge gave %d sub-questions; keeping the first %d", len(unique), MAX_SUB_QUESTIONS)
        return unique[:MAX_SUB_QUESTIONS]

    def classify(
        self, question: str, sub_questions: Sequence[str], usage: Usage
    ) -> list[TypedSubQuestion | None]:
        """One typed verdict (or None) per sub-question, in order; one call for the whole list, then one for
        the ids still missing."""

        def ask(ids: list[int]) -> list[tuple[int, TypedSubQuestion]]:
            call = self.client.judge(
                _SYSTEM,
                _TYPES.format(
                    question=fence("question", question),
                    sub_questions=_fence_sub_questions(sub_questions, ids),
                    **_counted(ids),
                ),
                TypeVerdicts,
                TYPES_PROMPT,
            )
            usage.add(call)
            return [(typed.id, typed) for typed in call.output.types]

        found = collect_by_id(_ids(sub_questions), ask, self.asks)
        return [found.get(i) for i in _ids(sub_questions)]

    def judge_answer(
        self, answer: str, sub_questions: Sequence[str], usage: Usage
    ) -> list[AnswerCoverage | None]:
        """Which sub-questions the answer covers, and the addressing position of each covered one."""
        sentences = split_sentences(answer) or [answer]
        # Each sentence is fenced on its own (fencing the whole would neutralise the sentence tags).
        numbered = "\n".join(fence("sentence", sentence, number=i) for i, sentence in enumerate(sentences, 1))

        def ask(ids: list[int]) -> list[tuple[int, SubQuestionCoverage]]:
            call = self.client.judge(
                _SYSTEM,
                _ANSWER.format(
                    sub_questions=_fence_sub_questions(sub_questions, ids),
                    passage=f"<answer>\n{numbered}\n</answer>",
                    **_counted(ids),
                ),
                CoverageVerdicts,
                ANSWER_PROMPT,
            )
            usage.add(call)
            return [(v.id, v) for v in call.output.verdicts if _locates(v, len(sentences))]

        found = collect_by_id(_ids(sub_questions), ask, self.asks)
        return [_answer_coverage(found[i], sentences) if i in found else None for i in _ids(sub_questions)]

    def judge_passage(self, passage: str, sub_questions: Sequence[str], usage: Usage) -> list[bool | None]:
        """Which sub-questions one retrieved chunk covers, in order (None: no verdict)."""

        def ask(ids: list[int]) -> list[tuple[int, bool]]:
            call = self.client.judge(
                _SYSTEM,
                _PASSAGE.format(
                    sub_questions=_fence_sub_questions(sub_questions, ids),
                    passage=fence("document", passage),
                    **_counted(ids),
                ),
                PassageVerdicts,
                PASSAGE_PROMPT,
            )
            usage.add(call)
            return [(v.id, v.answered) for v in call.output.verdicts]

        found = collect_by_id(_ids(sub_questions), ask, self.asks)
        return [found.get(i) for i in _ids(sub_questions)]


class CoverageScorer:
    name = "coverage"
    version = f"1/{DECOMPOSE_PROMPT}/{TYPES_PROMPT}/{ANSWER_PROMPT}/{PASSAGE_PROMPT}"
    requires: tuple[str, ...] = ("question", "answer")

    def __init__(self, judge: CoverageJudge) -> None:
        self.judge = judge

    def score(self, request: RagRequest) -> list[Score]:
        if not request.question.strip():
            raise NotApplicable("the request has no question")
        if not request.answer.strip():
            raise NotApplicable("the request has no answer")
        usage = Usage()
        plan = self.judge.plan(request.question, usage)
        texts = [sub_question.text for sub_question in plan]
        answer = self.judge.judge_answer(request.answer, texts, usage)
        chunks = [chunk for chunk in request.context if chunk.text.strip()]
        covering: list[list[str]] = [[] for _ in plan]
        judged_by: list[int] = [0 for _ in plan]
        for chunk in chunks:
            for index, covered in enumerate(self.judge.judge_passage(chunk.text, texts, usage)):
                if covered is not None:
                    judged_by[index] += 1
                if covered:
                    covering[index].append(chunk.id)
        outcomes = [
            SubQuestionOutcome(
                sub_question.type,
                coverage.answered,
                covering_chunks=len(covering[index]),
                total_chunks=judged_by[index],
                position=coverage.position,
            )
            for index, (sub_question, coverage) in enumerate(zip(plan, answer, strict=True))
            if coverage is not None
        ]
        if not outcomes:
            raise JudgeOutputInvalid("the judge gave no coverage verdict for any sub-question of the answer")
        sub_question_details = [
            {
                "id": index + 1,
                "text": sub_question.text,
                "type": sub_question.type,
                "judged": coverage is not None,
                "answered": coverage.answered if coverage else None,
                "position": coverage.position if coverage else None,
                "text_span": coverage.text_span if coverage else "",
                "reasoning": coverage.reasoning if coverage else "no verdict from the judge",
                "covering_chunks": covering[index],
                "chunks_judged": judged_by[index],
            }
            for index, (sub_question, coverage) in enumerate(zip(plan, answer, strict=True))
        ]
        skipped = len(request.context) - len(chunks)
        scores = _scores(coverage_metrics(outcomes), judged_chunks=len(chunks), chunks_without_text=skipped)
        unjudged = len(plan) - len(outcomes)
        scores[-1] = scores[-1].model_copy(
            update={
                "details": {
                    **scores[-1].details,
                    "sub_questions": sub_question_details,
                    "unjudged_sub_questions": unjudged,
                }
            }
        )
        return usage.stamp(scores)


def build(settings: ScorersSettings, store: Store) -> CoverageScorer:
    if not settings.judge.configured:
        raise ValueError(
            "the coverage scorer needs an LLM endpoint: set OPENAI_BASE_URL and/or OPENAI_API_KEY"
        )
    return CoverageScorer(CoverageJudge(shared_client(settings.judge, store)))


def _scores(metrics: CoverageMetrics, judged_chunks: int, chunks_without_text: int) -> list[Score]:
    """One score per metric; the last one (the hybrid rating) carries the per-sub-question details."""
    counts = dict(metrics.counts)
    scores: list[Score] = []
    for type_ in SUB_QUESTION_TYPES:
        suffix = type_.replace("-", "_")
        scores.append(
            _rate(
                f"coverage_{suffix}",
                metrics.answer_coverage[type_],
                f"of the {counts[type_]} {type_} sub-questions covered by the answer (Metric #1)",
            )
        )
    for type_ in SUB_QUESTION_TYPES:
        suffix = type_.replace("-", "_")
        if judged_chunks:
            explanation = (
                f"of the {counts[type_]} {type_} sub-questions covered by a retrieved chunk (Metric #2)"
            )
        else:
            explanation = "no retrieved chunk with text to judge"
        scores.append(
            _rate(
                f"retrieval_coverage_{suffix}",
                metrics.retrieval_coverage[type_] if judged_chunks else None,
                explanation,
            )
        )
    scores += [
        _rate(
            "core_identification",
            metrics.core_identification,
            "of the retrieved core sub-questions that reached the answer (Metric #3)",
        ),
        _rate(
            "core_retrieval_headroom",
            metrics.core_retrieval_headroom,
            "of the core sub-questions missing from the answer that no chunk covered either (Metric #4)",
        ),
        _difference(
            "core_chunk_frequency_gap",
            metrics.core_chunk_frequency_gap,
            "share of chunks covering a core sub-question when the answer covers it minus when it does "
            "not (Metric #5)",
        ),
        _difference(
            "position_alignment",
            metrics.position_alignment,
            "follow-up addressing position minus the mean of core and background positions; positive "
            "means follow-ups come later (Metric #6)",
        ),
        _difference(
            "hybrid_rating",
            metrics.hybrid_rating,
            "1·core + 0.5·background − 1·follow-up coverage of the answer",
        ),
    ]
    shared = {"counts": counts, "judged_chunks": judged_chunks, "chunks_without_text": chunks_without_text}
    return [score.model_copy(update={"details": {**shared, **score.details}}) for score in scores]


def _rate(metric: str, value: float | None, what: str) -> Score:
    if value is None:
        return Score(
            metric=metric, value=None, label="undefined", explanation=f"undefined: nothing to count ({what})"
        )
    return Score(metric=metric, value=value, explanation=f"{value:.0%} {what}")


def _difference(metric: str, value: float | None, what: str) -> Score:
    if value is None:
        return Score(
            metric=metric,
            value=None,
            label="undefined",
            explanation=f"undefined: nothing to compare ({what})",
        )
    return Score(metric=metric, value=value, explanation=f"{value:+.2f}: {what}")


def _ids(sub_questions: Sequence[str]) -> list[int]:
    return list(range(1, len(sub_questions) + 1))


def _fence_sub_questions(sub_questions: Sequence[str], ids: Sequence[int]) -> str:
    """The sub-questions with these ids (1-based), each fenced with its id."""
    return "\n".join(fence("sub_question", sub_questions[i - 1], id=i) for i in ids)


def _counted(ids: Sequence[int]) -> dict[str, str]:
    """How many entries the judge owes and for which ids: a small model otherwise stops after as many
    entries as the example shows."""
    consecutive = list(ids) == list(range(ids[0], ids[-1] + 1))
    shown = f"ids {ids[0]} to {ids[-1]}" if consecutive else "ids " + ", ".join(map(str, ids))
    return {"count": str(len(ids)), "ids": shown}


def _no_blank_sub_questions(decomposition: Decomposition) -> None:
    if not any(text.strip() for text in decomposition.sub_questions):
        raise JudgeRejected("every sub-question was blank")


def _locates(verdict: SubQuestionCoverage, sentence_count: int) -> bool:
    """An answered verdict must name a sentence of the answer; one that does not is no verdict."""
    return not verdict.answered or (
        verdict.first_sentence is not None and 1 <= verdict.first_sentence <= sentence_count
    )


def _answer_coverage(verdict: SubQuestionCoverage, sentences: Sequence[str]) -> AnswerCoverage:
    if not verdict.answered or verdict.first_sentence is None:
        return AnswerCoverage(False, None, "", verdict.reasoning)
    position = _addressing_position(sentences, verdict.first_sentence, verdict.text_span)
    return AnswerCoverage(True, position, verdict.text_span, verdict.reasoning)


def _addressing_position(sentences: Sequence[str], first_sentence: int, text_span: str) -> float:
    """Words before the place the answer starts to address a sub-question, over the answer's words.

    The place is where the quoted span starts when it occurs in the named sentence, else the sentence's start.
    """
    word_counts = [len(sentence.split()) for sentence in sentences]
    total = sum(word_counts)
    if total == 0:
        return 0.0
    before = sum(word_counts[: first_sentence - 1])
    sentence = sentences[first_sentence - 1]
    span = " ".join(text_span.split())
    offset = " ".join(sentence.split()).lower().find(span.lower()) if span else -1
    if offset > 0:
        before += len(" ".join(sentence.split())[:offset].split())
    return min(before / total, 1.0)
