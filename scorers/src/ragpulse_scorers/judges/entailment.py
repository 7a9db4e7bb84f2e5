"""Support judged by short entailment questions: the small-model mode of the ``support`` scorer.

A 1.5B model asked to fill RAGBench's long TRACe form judges at chance; asked "do these documents state this
sentence? yes / no / unsure" about a few sentences at a time, it does much better. Each claim sentence of the
answer (questions, hedges and preambles claim nothing: :mod:`ragpulse_judge.rules` decides which) is asked
about after the documents and the question, all fenced as data like every judge input. The calls about one
answer begin with the same bytes, so a server that keeps its prompt cache reads the documents once.
An answer is hallucinated when some sentence gets "no"; "unsure" flags nothing but lowers the support score.
Chosen with ``[judge] support_mode = "entailment"``; it measures adherence and hallucination, not TRACe's
relevance, utilization and completeness.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ragpulse_judge.rules import ContextIndex, gather_evidence
from ragpulse_judge.text import text_segments
from ragpulse_judge.tokens import sentence_features
from ragpulse_judge.verdicts import SentenceVerdict, SupportVerdict

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeOutputInvalid, JudgeRejected
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import ADHERENCE, HALLUCINATION
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

logger = logging.getLogger(__name__)

PROMPT_VERSION = "entail-p2"
SENTENCES_PER_CALL = 5
EVIDENCE_PER_SENTENCE = 3
WHOLE_CONTEXT_CHARS = 12_000
"""A longer context is shown as the sentences sharing most words with some claim (``EVIDENCE_PER_SENTENCE``
each), so that a retrieval of many long chunks still fits a small model's window."""
TOKENS_PER_VERDICT = 8
"""An answer ``{"verdicts": ["yes", "unsure", "no"]}`` takes about 3 tokens a verdict; the cap stops a model
padding it (a grammar still allows endless whitespace) without cutting a complete one."""
VERDICT_SCORE = {"yes": 1.0, "unsure": 0.5, "no": 0.0}

SYSTEM_PROMPT = f"""You check whether statements are backed by documents.
{DATA_RULE}

For each numbered statement, answer:
- yes: the documents say it, or it follows directly from what they say;
- no: the documents do not say it, or they say something different;
- unsure: you cannot tell."""

# The documents and question come first and are the same bytes in every call about one answer, the statements
# last: a server that keeps the longest common prefix of consecutive prompts (llama.cpp, vLLM, OpenAI's prompt
# caching) then reads the documents once per answer, not once per call.
_DOCUMENTS = """{documents}

{question}

Statements from an answer to this question follow. Say for each whether the documents above back it."""

_STATEMENTS = """{statements}

Give {count}, in the order of the statements ({ids})."""

Verdict = Literal["yes", "no", "unsure"]


class EntailmentVerdicts(JudgeOutput):
    """One word a statement, in their order: a 1.5B model on a loaded CPU writes about one token a second,
    and an entry ``{"id": 3, "verdict": "no"}`` takes about 12 tokens where the bare word takes 3."""

    verdicts: list[Verdict]

    example: ClassVar[dict[str, Any]] = {"verdicts": ["no", "yes"]}


@dataclass(frozen=True)
class EntailmentAssessment:
    """The claim sentences of an answer and the judge's verdict on each."""

    sentences: list[str]
    verdicts: list[Verdict]
    usage: Usage

    @property
    def hallucinated(self) -> bool:
        return "no" in self.verdicts

    @property
    def support_score(self) -> float:
        scored = [VERDICT_SCORE[v] for v in self.verdicts]
        return sum(scored) / len(scored) if scored else 1.0


def assess_entailment(
    client: JudgeClient, question: str, documents: Sequence[str], answer: str
) -> EntailmentAssessment:
    """Ask about every claim sentence of ``answer``, a few per call; raises ``NotApplicable`` when there is
    no answer or no document text."""
    if not answer.strip():
        raise NotApplicable("the request has no answer")
    index = ContextIndex.build(question, list(documents))
    if not index.sentences:
        raise NotApplicable("the request has no context text to judge support against")
    question_features = sentence_features(question)
    claims = [
        segment.text
        for segment in text_segments(answer)
        if not isinstance(gather_evidence(segment, index, question_features), str)
    ]
    shared = _DOCUMENTS.format(
        documents=_fenced_documents(index, claims), question=fence("question", question)
    )
    usage = Usage()
    verdicts: list[Verdict] = []
    for start in range(0, len(claims), SENTENCES_PER_CALL):
        batch = claims[start : start + SENTENCES_PER_CALL]
        try:
            verdicts.extend(_ask(client, shared, batch, usage))
        except JudgeOutputInvalid as exc:
            if len(batch) == 1:
                raise
            # A list of the wrong length cannot say which statement it skipped: ask one at a time.
            logger.info(
                "no usable verdicts for %d statements at once (%s); asking one by one", len(batch), exc
            )
            for claim in batch:
                verdicts.extend(_ask(client, shared, [claim], usage))
    return EntailmentAssessment(claims, verdicts, usage)


def _ask(client: JudgeClient, shared: str, batch: list[str], usage: Usage) -> list[Verdict]:
    statements = "\n".join(fence("statement", claim, id=number) for number, claim in enumerate(batch, 1))
    count = "1 verdict" if len(batch) == 1 else f"{len(batch)} verdicts"
    ids = ", ".join(map(str, range(1, len(batch) + 1)))
    prompt = f"{shared}\n\n" + _STATEMENTS.format(statements=statements, count=count, ids=f"ids {ids}")

    def one_per_statement(output: EntailmentVerdicts) -> None:
        if len(output.verdicts) != len(batch):
            raise JudgeRejected(f"{len(output.verdicts)} verdicts for {len(batch)} statements; give {count}")

    call = client.judge(
        SYSTEM_PROMPT,
        prompt,
        EntailmentVerdicts,
        PROMPT_VERSION,
        validate=one_per_statement,
        max_output_tokens=TOKENS_PER_VERDICT * (len(batch) + 2),
        schema=_of_length(len(batch)),
    )
    usage.add(call)
    return list(call.output.verdicts)


def _of_length(count: int) -> dict[str, Any]:
    """The answer's schema with exactly ``count`` verdicts: the prompt's example shows two, and a 1.5B model
    asked about one statement copied its length; a server that decodes by the schema cannot."""
    schema = EntailmentVerdicts.model_json_schema()
    schema["properties"]["verdicts"] |= {"minItems": count, "maxItems": count}
    return schema


def _fenced_documents(index: ContextIndex, claims: list[str]) -> str:
    """Every chunk, fenced; or, for a context over ``WHOLE_CONTEXT_CHARS``, the sentences sharing most words
    with some claim, in document order, grouped by chunk."""
    if sum(len(chunk) for chunk in index.chunks) <= WHOLE_CONTEXT_CHARS:
        shown = {number: chunk for number, chunk in enumerate(index.chunks) if chunk.strip()}
    else:
        positions = sorted({position for claim in claims for position in _evidence(index, claim)})
        grouped: dict[int, list[str]] = {}
        for position in positions:
            sentence = index.sentences[position]
            grouped.setdefault(sentence.chunk_index, []).append(sentence.text)
        shown = {number: " ... ".join(texts) for number, texts in grouped.items()}
    return "\n".join(fence("document", text, chunk=number + 1) for number, text in shown.items())


def _evidence(index: ContextIndex, sentence: str) -> list[int]:
    """The context sentences sharing most content words with ``sentence`` (document order on ties)."""
    stems = sentence_features(sentence).content
    hits: dict[int, int] = {}
    for stem in stems:
        for position in index.postings.get(stem, ()):
            hits[position] = hits.get(position, 0) + 1
    ranked = sorted(hits.items(), key=lambda item: (-item[1], item[0]))
    return [position for position, _ in ranked[:EVIDENCE_PER_SENTENCE]]


def entailment_scores(found: EntailmentAssessment) -> list[Score]:
    asked = [
        {"sentence": sentence, "verdict": verdict}
        for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
    ]
    unsupported = [sentence for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
                   if verdict == "no"]  # fmt: skip
    explanation = (
        f"{len(unsupported)} of {len(found.sentences)} claim sentences not stated by the documents"
        if unsupported
        else f"the documents state all {len(found.sentences)} claim sentences"
    )
    return found.usage.stamp(
        [
            Score(
                metric=ADHERENCE,
                value=0.0 if found.hallucinated else 1.0,
                label="unsupported" if found.hallucinated else "supported",
                explanation=explanation,
                details={"sentences": asked},
            ),
            Score(
                metric=HALLUCINATION,
                value=1.0 if found.hallucinated else 0.0,
                label="hallucinated" if found.hallucinated else "grounded",
                explanation=explanation,
                details={"unsupported_sentences": unsupported},
            ),
        ]
    )


class EntailmentSupportJudge:
    """The small-model mode in the shape ``ragpulse eval support`` measures."""

    def __init__(self, client: JudgeClient) -> None:
        self._client = client
        self.name = f"openai-entailment:{client.model}"

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        try:
            found = assess_entailment(self._client, question, context, response)
        except NotApplicable:
            claims_nothing = not response.strip()
            return SupportVerdict(hallucinated=not claims_nothing, support_score=float(claims_nothing))
        return SupportVerdict(
            hallucinated=found.hallucinated,
            support_score=found.support_score,
            sentences=[
                SentenceVerdict(sentence, verdict != "no", VERDICT_SCORE[verdict])
                for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
            ],
            explanation=entailment_scores(found)[1].explanation,
        )


class EntailmentScorer:
    """The ``support`` scorer in small-model mode: adherence and hallucination from entailment questions."""

    name = "support"
    version = f"1+{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("answer", "context")

    def __init__(self, client: JudgeClient) -> None:
        self._client = client

    def score(self, request: RagRequest) -> list[Score]:
        documents = [chunk.text for chunk in request.context]
        return entailment_scores(assess_entailment(self._client, request.question, documents, request.answer))
