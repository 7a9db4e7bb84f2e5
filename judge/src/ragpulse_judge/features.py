"""What the learnt judge sees of each claim: numbers computed from the lexical evidence, nothing else.

Every feature describes how a claim relates to its context and to the answer it sits in: how much of it the
best context sentence and the whole context cover, which of its numbers, units and names the context never
states, whether the context restates it negated, how its words pair up as in the context, how long it is and
where it stands, whether its sentence hedges; and two of the answer it belongs to: the share of the answer's
content words the context never uses, and the answer's length against the context's. None names a model, a
data set or a source, so what was learnt on one team's answers carries to another's.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, replace

from ragpulse_judge.claims import Claim, split_claims
from ragpulse_judge.limits import NO_DEADLINE, Deadline
from ragpulse_judge.rules import ClaimEvidence, ContextIndex, LexicalParams, gather_evidence, is_hedged
from ragpulse_judge.text import Segment, text_segments
from ragpulse_judge.tokens import SentenceFeatures, is_framing_word, normalise_number, sentence_features, stem

FEATURE_NAMES: tuple[str, ...] = (
    "local_coverage",
    "overall_coverage",
    "rule_score",
    "missing_numbers",
    "missing_names",
    "unit_mismatches",
    "negation_mismatch",
    "content_words",
    "missing_words",
    "pair_coverage",
    "question_share",
    "sentence_local_coverage",
    "sentence_overall_coverage",
    "clauses",
    "is_clause",
    "position",
    "sentences",
    "hedged",
    # A claim otherwise covered that states one detail the context does not: a changed fact, not an added one.
    "covered_new_number",
    "covered_new_name",
    "covered_negation",
    # The answer as a whole, the same for each of its claims: one that strays from its context in many small
    # words is less likely to hold each claim; and a claim's coverage means less where a long context, beside
    # a short answer, holds many words by chance.
    "answer_missing_share",
    "answer_context_ratio",
)
_RULES = LexicalParams()
# A number and the word after it ("40 beats", "5 km", "20%"): the unit the number is stated in. Matched only
# where a run of digits and commas begins (see _quantity_matches).
_QUANTITY = re.compile(r"(\$?\d[\d,]*(?:\.\d+)?)\s*(%|[^\W\d_]{1,15})")
_DIGITS_AND_COMMAS = re.compile(r"[\d,]+")


@dataclass(frozen=True)
class ClaimReading:
    """One claim with its evidence and features; ``features`` is None for a clause that makes no claim."""

    sentence_index: int
    sentence: str
    claim: Claim
    evidence: ClaimEvidence | None
    features: list[float] | None
    reason: str
    content: frozenset[str] = frozenset()
    """The claim's content stems (the answer's own features are gathered from them)."""


@dataclass(frozen=True)
class AnswerReading:
    """An answer read against its context: every sentence's claims, in order."""

    index: ContextIndex
    sentences: list[str]
    claims: list[ClaimReading]


@dataclass(frozen=True)
class _ContextPairs:
    """Word pairs and quantities the context states, built once per request from the indexed sentences."""

    pairs: frozenset[tuple[str, str]]
    quantities: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, index: ContextIndex, question: str) -> _ContextPairs:
        pairs: set[tuple[str, str]] = set()
        for sentence in index.sentences:
            sequence = sentence.features.sequence
            pairs.update(itertools.pairwise(sequence))
        texts = [question, *(sentence.text for sentence in index.sentences)]
        quantities = {quantity for text in texts for quantity in _quantities(text)}
        return cls(frozenset(pairs), frozenset(quantities))


def read_answer(
    question: str, context: list[str], answer: str, deadline: Deadline = NO_DEADLINE
) -> AnswerReading:
    """Index the context once and compute the features of every claim of ``answer``."""
    index = ContextIndex.build(question, context, deadline)
    stated = _ContextPairs.of(index, question)
    question_features = sentence_features(question)
    segments = text_segments(answer)
    readings: list[ClaimReading] = []
    for position, _segment in enumerate(segments):
        deadline.check(f"sentence {position + 1} of {len(segments)}")
        readings.extend(_read_sentence(position, segments, index, stated, question_features, deadline))
    return AnswerReading(
        index, [segment.text for segment in segments], _with_answer_features(readings, index)
    )


def _with_answer_features(readings: list[ClaimReading], index: ContextIndex) -> list[ClaimReading]:
    """Every scored claim's features followed by its answer's: the share of the answer's distinct content
    stems that neither the context nor the question holds, and the log-ratio of their number to the
    context's content words."""
    content: set[str] = set()
    for reading in readings:
        if reading.features is not None:
            content.update(reading.content)
    missing_share = len(content - index.vocabulary) / max(len(content), 1)
    context_words = sum(len(sentence.features.content) for sentence in index.sentences) or 1
    ratio = math.log1p(len(content)) - math.log1p(context_words)
    return [
        reading
        if reading.features is None
        else replace(reading, features=[*reading.features, missing_share, ratio])
        for reading in readings
    ]


def _read_sentence(
    position: int,
    segments: list[Segment],
    index: ContextIndex,
    stated: _ContextPairs,
    question: SentenceFeatures,
    deadline: Deadline,
) -> list[ClaimReading]:
    segment = segments[position]
    whole = gather_evidence(segment, index, question, deadline)
    if isinstance(whole, str):
        return [
            ClaimReading(position, segment.text, Claim(segment.text, 0, len(segment.text)), None, None, whole)
        ]
    claims = split_claims(segment.text)
    hedged = is_hedged(segment.text)
    readings: list[ClaimReading] = []
    for number, claim in enumerate(claims, start=1):
        deadline.check(f"claim {number} of {len(claims)} in sentence {position + 1} of {len(segments)}")
        evidence = whole if len(claims) == 1 else gather_evidence(claim.text, index, question, deadline)
        if isinstance(evidence, str):
            readings.append(ClaimReading(position, segment.text, claim, None, None, evidence))
            continue
        sentence_context = _SentenceContext(position, len(segments), len(claims), hedged, whole)
        claimed = sentence_features(claim.text)
        features = _claim_features(claim.text, claimed, evidence, sentence_context, stated, question)
        readings.append(
            ClaimReading(
                position, segment.text, claim, evidence, features, evidence.describe(), claimed.content
            )
        )
    return readings


@dataclass(frozen=True)
class _SentenceContext:
    position: int
    sentences: int
    clauses: int
    hedged: bool
    evidence: ClaimEvidence


def _claim_features(
    claim: str,
    features: SentenceFeatures,
    evidence: ClaimEvidence,
    sentence: _SentenceContext,
    stated: _ContextPairs,
    question: SentenceFeatures,
) -> list[float]:
    content = features.content
    sequence = features.sequence
    pairs = list(itertools.pairwise(sequence))
    pair_coverage = sum(pair in stated.pairs for pair in pairs) / len(pairs) if pairs else 1.0
    quantities = _quantities(claim)
    # A number the context states, but in another unit ("5 km" where it says "5 miles").
    unit_mismatches = sum(
        1
        for quantity in quantities
        if quantity[0] not in evidence.missing_numbers and quantity not in stated.quantities
    )
    missing_words = len(content) * (1.0 - evidence.overall)
    return [
        evidence.local,
        evidence.overall,
        _RULES.score(evidence),
        float(min(len(evidence.missing_numbers), 3)),
        float(min(len(evidence.missing_names), 3)),
        float(min(unit_mismatches, 3)),
        1.0 if evidence.negation_mismatch else 0.0,
        math.log1p(len(content)),
        math.log1p(missing_words),
        pair_coverage,
        len(content & question.content) / len(content) if content else 0.0,
        sentence.evidence.local,
        sentence.evidence.overall,
        math.log(sentence.clauses),
        1.0 if sentence.clauses > 1 else 0.0,
        sentence.position / max(sentence.sentences - 1, 1),
        math.log1p(sentence.sentences),
        1.0 if sentence.hedged else 0.0,
        evidence.local if evidence.missing_numbers or unit_mismatches else 0.0,
        evidence.local if evidence.missing_names else 0.0,
        evidence.local if evidence.negation_mismatch else 0.0,
    ]


def _quantities(text: str) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for number, unit in _quantity_matches(text):
        word = unit.lower()
        if word != "%" and is_framing_word(word):
            continue
        found.add((normalise_number(number), word if word == "%" else stem(word)))
    return found


def _quantity_matches(text: str) -> list[tuple[str, str]]:
    """What ``_QUANTITY.findall(text)`` finds, in linear time.

    ``findall`` tries the pattern at every digit, and from each the number runs to the end of its run of
    digits and commas: a run of n ("1,1,1,...") cost n²/2 steps, minutes for a long context. A match starting
    inside a run ends where one starting at the run's first digit would, with the same text after it, so only
    that first digit (or a ``$`` just before it) can begin a match.
    """
    matches: list[tuple[str, str]] = []
    searched_to = 0
    for run in _DIGITS_AND_COMMAS.finditer(text):
        first_digit = run.start() + len(run.group()) - len(run.group().lstrip(","))
        if first_digit == run.end() or first_digit < searched_to:
            continue
        start = first_digit - 1 if first_digit > 0 and text[first_digit - 1] == "$" else first_digit
        found = _QUANTITY.match(text, max(start, searched_to))
        if found is not None:
            matches.append((found.group(1), found.group(2)))
            searched_to = found.end()
    return matches
