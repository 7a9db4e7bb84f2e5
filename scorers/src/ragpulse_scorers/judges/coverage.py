"""The ``coverage`` scorer: how well the answer and the retrieved chunks cover the question's sub-questions.

The method of Xie et al. 2024 (seed 002), in the project's own prompts. Judge calls per request:

1. Decompose the question into about 20 sub-questions.
2. Type them core / background / follow-up, all in ONE call for the whole list (the paper makes one call per
   sub-question; one call is ~20x cheaper and lets the judge weigh the sub-questions against each other).
3. Judge which sub-questions the answer covers, with the first answer sentence addressing each (one call).
4. Judge which sub-questions each retrieved chunk covers (one call per chunk, all sub-questions at once).

Steps 1-2 depend on the question only: they are cached per question text in this process and, through the
client's cache, across processes. A verdict naming a sub-question id or sentence number that was not in the
prompt is rejected (the client then asks once for a repair). The metrics are
:mod:`ragpulse_scorers.metrics.coverage_metrics`, over this request's sub-questions.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient, shared_client
from ragpulse_scorers.llm.errors import JudgeRejected
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
from ragpulse_scorers.text import split_sentences

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

DECOMPOSE_PROMPT = "coverage-decompose-v1"
TYPES_PROMPT = "coverage-types-v1"
ANSWER_PROMPT = "coverage-answer-v1"
PASSAGE_PROMPT = "coverage-passage-v1"
MAX_SUB_QUESTIONS = 30
PLAN_CACHE_SIZE = 512

_SYSTEM = (
    "You are a careful analyst who evaluates how completely texts answer complex questions. "
    "Follow the instructions exactly and reply with JSON only.\n" + DATA_RULE
)

_DECOMPOSE = """Break the complex question below into about 20 sub-questions. Together they should cover
everything a complete, well-rounded answer would need to address: the central issues, helpful context, and
natural follow-up questions. Each sub-question must stand on its own and be distinct from the others.

{question}

Reply with a JSON object {{"sub_questions": ["...", "..."]}}."""

_TYPES = """Classify each sub-question by the role it plays in answering the complex question:

- "core": central to the question; it addresses the question directly or in part and gives insight an answer
  cannot do without (often one step or one perspective of the reasoning the question requires).
- "background": optional; it supplies context or supporting information that helps understand the topic, but
  the question can be answered well without it.
- "follow-up": not needed to answer the question; it is what a reader might ask after reading an answer, going
  deeper into a detail or beyond the question's scope.

{question}

{sub_questions}

Reply with a JSON object {{"types": [{{"id": 1, "type": "core"}}, ...]}} giving exactly one type for every
sub-question id above."""

_ANSWER = """For each sub-question, decide whether any part of the answer below answers it. The answer is
given sentence by sentence with sentence numbers. When a sub-question is answered, give the number of the
FIRST sentence that addresses it and quote the shortest span of the answer that answers it; otherwise set
"answered" to false, "first_sentence" to null and "text_span" to "".

{sub_questions}

{passage}

Reply with a JSON object
{{"verdicts": [{{"id": 1, "answered": true, "first_sentence": 2, "text_span": "..."}}, ...]}}
with exactly one verdict for every sub-question id above."""

_PASSAGE = """For each sub-question, decide whether any part of the document below answers it. When it does,
quote the shortest span that answers it; otherwise set "answered" to false and "text_span" to "".

{sub_questions}

{passage}

Reply with a JSON object {{"verdicts": [{{"id": 1, "answered": true, "text_span": "..."}}, ...]}} with exactly
one verdict for every sub-question id above."""


class Decomposition(BaseModel):
    sub_questions: list[str] = Field(min_length=1)


class TypedSubQuestion(BaseModel):
    id: int
    type: SubQuestionType


class TypeVerdicts(BaseModel):
    types: list[TypedSubQuestion]


class SubQuestionCoverage(BaseModel):
    id: int
    answered: bool
    first_sentence: int | None = None
    text_span: str = ""


class CoverageVerdicts(BaseModel):
    verdicts: list[SubQuestionCoverage]


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


class CoverageJudge:
    """The four judgments, usable on their own (``ragpulse eval subq-types`` / ``subq-coverage`` do)."""

    def __init__(self, client: JudgeClient) -> None:
        self.client = client
        self._plans: OrderedDict[str, list[SubQuestion]] = OrderedDict()
        self._plans_lock = threading.Lock()

    def plan(self, question: str, usage: Usage) -> list[SubQuestion]:
        """The question's typed sub-questions (decomposition then typing), cached per question text."""
        with self._plans_lock:
            cached = self._plans.get(question)
            if cached is not None:
                self._plans.move_to_end(question)
                return cached
        sub_questions = self.decompose(question, usage)
        types = self.classify(question, sub_questions, usage)
        plan = [SubQuestion(text, type_) for text, type_ in zip(sub_questions, types, strict=True)]
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
        if len(unique) > MAX_SUB_QUESTIONS:
            logger.info("judge gave %d sub-questions; keeping the first %d", len(unique), MAX_SUB_QUESTIONS)
        return unique[:MAX_SUB_QUESTIONS]

    def classify(self, question: str, sub_questions: Sequence[str], usage: Usage) -> list[SubQuestionType]:
        """One type per sub-question, in order, from one call for the whole list."""
        call = self.client.judge(
            _SYSTEM,
            _TYPES.format(
                question=fence("question", question), sub_questions=_fence_sub_questions(sub_questions)
            ),
            TypeVerdicts,
            TYPES_PROMPT,
            lambda verdict: _require_ids([t.id for t in verdict.types], len(sub_questions)),
        )
        usage.add(call)
        by_id = {typed.id: typed.type for typed in call.output.types}
        return [by_id[i] for i in range(1, len(sub_questions) + 1)]

    def judge_answer(self, answer: str, sub_questions: Sequence[str], usage: Usage) -> list[AnswerCoverage]:
        """Which sub-questions the answer covers, and the addressing position of each covered one."""
        sentences = split_sentences(answer) or [answer]
        # Each sentence is fenced on its own (fencing the whole would neutralise the sentence tags).
        numbered = "\n".join(fence("sentence", sentence, number=i) for i, sentence in enumerate(sentences, 1))
        call = self.client.judge(
            _SYSTEM,
            _ANSWER.format(
                sub_questions=_fence_sub_questions(sub_questions), passage=f"<answer>\n{numbered}\n</answer>"
            ),
            CoverageVerdicts,
            ANSWER_PROMPT,
            _answer_validator(len(sub_questions), len(sentences)),
        )
        usage.add(call)
        by_id = {verdict.id: verdict for verdict in call.output.verdicts}
        results = []
        for i in range(1, len(sub_questions) + 1):
            verdict = by_id[i]
            position = (
                _addressing_position(sentences, verdict.first_sentence, verdict.text_span)
                if verdict.answered and verdict.first_sentence is not None
                else None
            )
            results.append(
                AnswerCoverage(verdict.answered, position, verdict.text_span if verdict.answered else "")
            )
        return results

    def judge_passage(self, passage: str, sub_questions: Sequence[str], usage: Usage) -> list[bool]:
        """Which sub-questions one retrieved chunk covers, in order."""
        call = self.client.judge(
            _SYSTEM,
            _PASSAGE.format(
                sub_questions=_fence_sub_questions(sub_questions), passage=fence("document", passage)
            ),
            CoverageVerdicts,
            PASSAGE_PROMPT,
            lambda verdict: _require_ids([v.id for v in verdict.verdicts], len(sub_questions)),
        )
        usage.add(call)
        by_id = {verdict.id: verdict.answered for verdict in call.output.verdicts}
        return [by_id[i] for i in range(1, len(sub_questions) + 1)]


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
        for chunk in chunks:
            for index, covered in enumerate(self.judge.judge_passage(chunk.text, texts, usage)):
                if covered:
                    covering[index].append(chunk.id)
        outcomes = [
            SubQuestionOutcome(
                sub_question.type,
                coverage.answered,
                covering_chunks=len(covering[index]),
                total_chunks=len(chunks),
                position=coverage.position,
            )
            for index, (sub_question, coverage) in enumerate(zip(plan, answer, strict=True))
        ]
        sub_question_details = [
            {
                "id": index + 1,
                "text": sub_question.text,
                "type": sub_question.type,
                "answered": coverage.answered,
                "position": coverage.position,
                "text_span": coverage.text_span,
                "covering_chunks": covering[index],
            }
            for index, (sub_question, coverage) in enumerate(zip(plan, answer, strict=True))
        ]
        skipped = len(request.context) - len(chunks)
        scores = _scores(coverage_metrics(outcomes), judged_chunks=len(chunks), chunks_without_text=skipped)
        scores[-1] = scores[-1].model_copy(
            update={"details": {**scores[-1].details, "sub_questions": sub_question_details}}
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


def _fence_sub_questions(sub_questions: Sequence[str]) -> str:
    return "\n".join(fence("sub_question", text, id=i) for i, text in enumerate(sub_questions, 1))


def _no_blank_sub_questions(decomposition: Decomposition) -> None:
    if not any(text.strip() for text in decomposition.sub_questions):
        raise JudgeRejected("every sub-question was blank")


def _require_ids(ids: Sequence[int], expected: int) -> None:
    """Exactly one verdict for each id 1..expected: no unknown id, no repeat, none missing."""
    unknown = sorted({i for i in ids if not 1 <= i <= expected})
    if unknown:
        raise JudgeRejected(
            f"verdict names sub-question ids {unknown} that were not in the input (1-{expected})"
        )
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise JudgeRejected(f"verdict repeats sub-question ids {repeated}")
    missing = sorted(set(range(1, expected + 1)) - set(ids))
    if missing:
        raise JudgeRejected(f"verdict misses sub-question ids {missing}")


def _answer_validator(expected: int, sentence_count: int) -> Callable[[CoverageVerdicts], None]:
    def validate(verdict: CoverageVerdicts) -> None:
        _require_ids([v.id for v in verdict.verdicts], expected)
        for v in verdict.verdicts:
            if v.answered and not (v.first_sentence is not None and 1 <= v.first_sentence <= sentence_count):
                raise JudgeRejected(
                    f"sub-question {v.id} is answered but first_sentence {v.first_sentence} is not a "
                    f"sentence number of the answer (1-{sentence_count})"
                )

    return validate


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
