"""The lexical support judge: no model, no network, fast enough to run on every request.

Each answer sentence is a claim. Claims that assert nothing (questions, hedges such as "I don't know" or
"the passages do not say", pointers such as "See the handbook for details.", sentences with fewer than two
content words) are supported by definition. A hedge excuses only its own clause: "Sorry, X" claims X. For a
real claim the judge finds the context sentence that covers most of its content stems (words also in the
question count as covered: restating the question is not a hallucination) and scores the claim:

    score = local_weight * coverage by the best sentence + (1 - local_weight) * coverage by the whole context
    score *= number_penalty  if the claim states a number the context and question never state
    score *= name_penalty    if it names a capitalised entity they never mention
    score = 0                if every context sentence restating it flips the negation of one of its clauses

A claim is unsupported when its score is below ``threshold``; a response is hallucinated when any claim is.
The response's support score is the lowest claim score (the weakest claim decides, like the label).

How the defaults were chosen (reproduce with ``python -m ragpulse_scorers.evaluation.lexical_tuning --data
ragtruth_qa_dev.jsonl --split tune``): on the *tune* half of ``ragtruth_qa_dev.jsonl`` only (questions whose
``source_id`` has an even first byte of SHA-256, see :func:`ragpulse_scorers.evaluation.datasets.in_split`:
152 responses, 26 questions), a grid search over ``local_weight`` 0..1 by 0.1, both penalties 0.3..1 by 0.1
and ``threshold`` 0.30..0.90 by 0.01 maximised balanced accuracy, ties going to the larger AUROC. The
negation rule and the structural constants (``MIN_CLAIM_WORDS``, ``NEGATION_MIN_OVERLAP``, the hedge patterns)
were fixed by reading tune-half errors, not searched. The negation rule first compared a claim with its
single best-covering sentence and any clause of it, which flagged verbatim copies (a longer sentence sharing
the words, or another clause of the same sentence, without the "not"); it now flips a claim only where no
restating sentence or clause agrees with it. That fix was made from demo traffic, not from this data; the
grid still picks the same parameters, and the rule now neither costs nor gains a tune response (it cost one
before: 0.827 -> 0.822). It is kept because a flipped negation is a contradiction whatever this data set says.
Result: tune half 0.827 balanced accuracy (AUROC 0.836); held-out half (204 responses, 35 questions): 0.792
(AUROC 0.840), first scored once at 0.789 (AUROC 0.834) before the negation fix and rescored after it with
nothing tuned on it; whole file 0.806 (AUROC 0.841). Answers are then read as prose (citation markers,
markdown and quotation marks taken off, headings and preambles not claims, see :mod:`ragpulse_judge.text`
and :mod:`ragpulse_judge.preamble`), with nothing retuned: tune 0.837, held-out 0.796 (AUROC 0.856),
whole file 0.812; the three responses it changes are courtesy and preamble sentences no longer taken for
claims ("Let me know if you have any further questions."). Then, from a blind trial of formatted answers and
of text written to game the judge (nothing retuned): a hedge excuses only its own clause, a sentence only
pointing to a source claims nothing, "cover"/"covered" share a stem and a clause opening with its verb is
also read with the subject before it: held-out 0.804 (AUROC 0.864), tune 0.837 (0.857), whole file 0.817
(0.862); one response changed verdict (held out, hallucinated, caught by the hedge rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ragpulse_judge.deadline import check_deadline
from ragpulse_judge.limits import DEFAULT_TIME_LIMIT_S, NO_DEADLINE, Deadline
from ragpulse_judge.preamble import without_preamble
from ragpulse_judge.text import Segment, split_sentences, text_segments
from ragpulse_judge.tokens import SentenceFeatures, number_vocabulary, sentence_features
from ragpulse_judge.verdicts import SentenceVerdict, SupportVerdict

_HEDGE = re.compile(
    r"\b(?:i\s+(?:do\s+not|don'?t|cannot|can'?t|am\s+(?:unable|not\s+able|not\s+sure)|'m\s+(?:unable|not\s+sure))"
    r"|unable\s+to\s+(?:answer|determine|find|provide|say)"
    r"|(?:does|do|did)\s+not\s+(?:provide|mention|contain|say|specify|include|state|give|offer|address|discuss"
    r"|explicitly|directly|specifically)"
    r"|(?:doesn'?t|don'?t)\s+(?:provide|mention|contain|say|specify|include|state|give)"
    r"|(?:is|are|was|were)\s+not\s+(?:explicitly\s+|directly\s+|specifically\s+)?"
    r"(?:mentioned|provided|specified|stated|given|available|included|discussed|addressed)"
    r"|no\s+(?:specific\s+)?(?:information|mention|details?)"
    r"|not\s+enough\s+information|insufficient\s+information|cannot\s+be\s+determined|sorry)\b",
    re.IGNORECASE,
)
# A sentence that only sends the reader to a source ("See the refund page for details.", "For more
# information, visit https://...") claims nothing about the world.
_FOR_MORE = re.compile(
    r"\bfor\s+(?:more|further|full|additional|complete)?\s*(?:details|information|info|specifics)\b",
    re.IGNORECASE,
)
_POINTER = re.compile(
    rf"^\s*(?P<lead>{_FOR_MORE.pattern}[^,:]{{0,60}}[,:]\s*)?(?:please\s+|you\s+(?:can|may|should)\s+)?"
    r"(?:see|visit|check(?:\s+out)?|refer\s+to|consult|go\s+to|look\s+at)\b",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# A question that presents its content as known ("Did you know that X?", "Isn't it true that X?") claims X.
_ASSERTING_QUESTION = re.compile(
    r"^\W*(?:did\s+you\s+know|do\s+you\s+know(?=\s+that\b)|(?:isn'?t|is)\s+it\s+(?:not\s+)?(?:true|the\s+case|a\s+fact)"
    r"|(?:wouldn'?t|won'?t)\s+you\s+agree|(?:don'?t|do)\s+you\s+(?:not\s+)?(?:think|realise|realize))"
    r"(?:\s+that)?[\s,:]*(?P<claim>.+?)[\s?]*$",
    re.IGNORECASE | re.DOTALL,
)
MIN_CLAIM_WORDS = 2
NEGATION_MIN_OVERLAP = 0.85
# Where a hedge's scope ends: a contrast or a semicolon starts a new statement, a comma does not
# ("the passages do not give the dose, the timing, or the side effects" lists what is missing), except
# before the speaker's own aside (", I don't think..."). A leading "Sorry," or "Unfortunately," is a clause
# of its own, and so is a leading "Although ...," (kept by the group: it may be the claim).
_HEDGE_CLAUSE_BREAK = re.compile(
    r"^\s*((?:although|though|while|whereas|even\s+(?:though|if))\b[^,;]*),"
    r"|;|\s[-–—]\s|,?\s*\b(?:but|however|although|though|whereas|yet)\b|,\s*(?=i\b|i'm\b)"
    r"|^\s*(?:i'?m\s+|i\s+am\s+)?(?:sorry|unfortunately|apologies|regrettably)\s*[,:!.]",
    re.IGNORECASE,
)
# A clause about the sources ("the first passage covers baking") remarks on the context, it claims nothing.
_ABOUT_THE_SOURCES = re.compile(
    r"\b(?:passages?|documents?|context|sources?|texts?|articles?|excerpts?|snippets?|information|provided"
    r"|given)\b",
    re.IGNORECASE,
)
# A clause opening with an auxiliary or a negation continues the subject of the clause before it.
_PREDICATE_START = re.compile(
    r"\s*(?:does|do|did|is|are|was|were|has|have|had|can|cannot|could|will|would|may|might|must|should|not|never"
    r"|doesn'?t|don'?t|isn'?t|aren'?t|won'?t|can'?t)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:while|whereas|but|although|though|rather than|because|and)\b")


@dataclass(frozen=True)
class ClaimEvidence:
    """What the context says about one claim before any weighting: the input of ``LexicalParams.score``."""

    local: float
    overall: float
    missing_numbers: frozenset[str]
    missing_names: frozenset[str]
    negation_mismatch: bool
    evidence_index: int | None

    def describe(self) -> str:
        reasons = [
            f"{self.local:.0%} of its content words in the best context sentence, {self.overall:.0%} in all"
        ]
        if self.missing_numbers:
            reasons.append("numbers not in the context: " + ", ".join(sorted(self.missing_numbers)))
        if self.missing_names:
            reasons.append("names not in the context: " + ", ".join(sorted(self.missing_names)))
        if self.negation_mismatch:
            reasons.append("contradicts its evidence: the same statement with the negation flipped")
        return "; ".join(reasons)


@dataclass(frozen=True)
class LexicalParams:
    """Weights and threshold of the claim score (see the module docstring for how they were chosen)."""

    local_weight: float = 0.1
    number_penalty: float = 0.3
    name_penalty: float = 0.5
    threshold: float = 0.41

    def score(self, evidence: ClaimEvidence) -> float:
        score = self.local_weight * evidence.local + (1 - self.local_weight) * evidence.overall
        if evidence.missing_numbers:
            score *= self.number_penalty
        if evidence.missing_names:
            score *= self.name_penalty
        if evidence.negation_mismatch:
            return 0.0
        return score


@dataclass(frozen=True)
class ContextSentence:
    chunk_index: int
    text: str
    features: SentenceFeatures


@dataclass
class ContextIndex:
    """The context, tokenised once per request, with a posting list from stem to context sentence."""

    chunks: list[str]
    sentences: list[ContextSentence]
    postings: dict[str, list[int]]
    vocabulary: frozenset[str]
    numbers: frozenset[str]

    @classmethod
    def build(cls, question: str, chunks: list[str], deadline: Deadline = NO_DEADLINE) -> ContextIndex:
        sentences: list[ContextSentence] = []
        postings: dict[str, list[int]] = {}
        vocabulary: set[str] = set(sentence_features(question).content)
        for chunk_index, chunk in enumerate(chunks):
            deadline.check(f"reading context chunk {chunk_index + 1} of {len(chunks)}")
            for text in split_sentences(chunk):
                check_deadline()
                features = sentence_features(text, claim=False)
                for stem in features.content:
                    postings.setdefault(stem, []).append(len(sentences))
                vocabulary.update(features.content)
                sentences.append(ContextSentence(chunk_index, text, features))
        # From the sentences as read, not the raw chunks: a number in a marker or list marker states nothing.
        numbers = number_vocabulary("\n".join([question, *(sentence.text for sentence in sentences)]))
        return cls(chunks, sentences, postings, frozenset(vocabulary), numbers)


@dataclass(frozen=True)
class ClaimVerdict:
    """The judgement of one answer sentence, with the evidence a person needs to check it."""

    sentence: str
    is_claim: bool
    supported: bool
    score: float
    evidence_index: int | None
    reason: str
    probability: float | None = None
    """The learnt judge's calibrated chance that the claim is unsupported; None from the rules."""
    sentence_of: str = ""
    """The whole sentence, when ``sentence`` is one clause of it."""


@dataclass(frozen=True)
class LexicalAnalysis:
    claims: list[ClaimVerdict]
    index: ContextIndex
    used_sentences: frozenset[int] = field(default_factory=frozenset)

    @property
    def hallucinated(self) -> bool:
        return any(not claim.supported for claim in self.claims)

    @property
    def support_score(self) -> float:
        return min((claim.score for claim in self.claims if claim.is_claim), default=1.0)

    @property
    def chunk_utilization(self) -> float:
        """Share of chunks holding at least one sentence the answer drew on."""
        if not self.index.chunks:
            return 0.0
        used = {self.index.sentences[i].chunk_index for i in self.used_sentences}
        return len(used) / len(self.index.chunks)

    @property
    def character_utilization(self) -> float:
        """Share of context characters in the sentences the answer drew on."""
        total = sum(len(s.text) for s in self.index.sentences)
        used = sum(len(self.index.sentences[i].text) for i in self.used_sentences)
        return used / total if total else 0.0


class LexicalJudge:
    """Implements :class:`~ragpulse_judge.verdicts.SupportJudge` without a model."""

    name = "lexical"

    def __init__(
        self, params: LexicalParams | None = None, time_limit_s: float | None = DEFAULT_TIME_LIMIT_S
    ) -> None:
        """``time_limit_s``: one answer's judging past it raises :class:`TooLongToJudge` (None: no limit)."""
        self.params = params or LexicalParams()
        self.time_limit_s = time_limit_s

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        return support_verdict(self.analyse(question, context, response), "sentences")

    def analyse(self, question: str, context: list[str], response: str) -> LexicalAnalysis:
        deadline = Deadline(self.time_limit_s)
        index = ContextIndex.build(question, context, deadline)
        question_features = sentence_features(question)
        segments = text_segments(response)
        claims = []
        for number, segment in enumerate(segments, start=1):
            deadline.check(f"sentence {number} of {len(segments)}")
            claims.append(self.judge_claim(segment, index, question_features, deadline))
        used = frozenset(
            claim.evidence_index for claim in claims if claim.evidence_index is not None and claim.supported
        )
        return LexicalAnalysis(claims, index, used)

    def judge_claim(
        self,
        segment: Segment | str,
        index: ContextIndex,
        question: SentenceFeatures,
        deadline: Deadline = NO_DEADLINE,
    ) -> ClaimVerdict:
        """Score one answer sentence against the indexed context."""
        evidence = gather_evidence(segment, index, question, deadline)
        sentence = segment if isinstance(segment, str) else segment.text
        if isinstance(evidence, str):
            return ClaimVerdict(sentence, False, True, 1.0, None, evidence)
        score = self.params.score(evidence)
        supported = score >= self.params.threshold
        return ClaimVerdict(
            sentence, True, supported, round(score, 4), evidence.evidence_index, evidence.describe()
        )


def support_verdict(analysis: LexicalAnalysis, unit: str) -> SupportVerdict:
    """An analysis as the verdict ``ragpulse eval`` measures; ``unit`` names what was judged ("sentences")."""
    evidence = analysis.index.sentences
    unsupported = [claim.sentence for claim in analysis.claims if not claim.supported]
    found = len(analysis.claims) - len(unsupported)
    explanation = f"{found} of {len(analysis.claims)} {unit} found in the context"
    if unsupported:
        more = f" and {len(unsupported) - 1} more" if len(unsupported) > 1 else ""
        explanation += f"; not found: {unsupported[0]!r}{more}"
    return SupportVerdict(
        hallucinated=analysis.hallucinated,
        support_score=analysis.support_score,
        explanation=explanation,
        sentences=[
            SentenceVerdict(
                sentence=claim.sentence,
                supported=claim.supported,
                score=claim.score,
                evidence="" if claim.evidence_index is None else evidence[claim.evidence_index].text,
            )
            for claim in analysis.claims
        ],
    )


def gather_evidence(
    segment: Segment | str,
    index: ContextIndex,
    question: SentenceFeatures,
    deadline: Deadline = NO_DEADLINE,
) -> ClaimEvidence | str:
    """The evidence about one answer sentence, or the reason it makes no claim to check."""
    if isinstance(segment, Segment) and segment.label:
        return "a heading, not a claim"
    sentence = segment if isinstance(segment, str) else segment.text
    if sentence.rstrip().endswith("?"):
        asserted = _ASSERTING_QUESTION.match(sentence)
        if asserted is None:
            return "a question, not a claim"
        sentence = asserted.group("claim")
    if _points_to_a_source(sentence):
        return "points to a source, claims nothing"
    claim = without_preamble(_without_hedges(sentence))
    if not claim:
        return "a hedge or remark about the context" if _HEDGE.search(sentence) else "a preamble, not a claim"
    # Names come from the whole sentence: a name that opens the claim after a preamble is still a name.
    features = replace(sentence_features(claim), names=sentence_features(sentence).names)
    if len(features.content) < MIN_CLAIM_WORDS and not features.numbers:
        return "too short to make a claim"
    to_cover = features.content - question.content
    covered = len(features.content) - len(to_cover)
    total = len(features.content) or 1
    evidence_index, hits, negation_mismatch = _consistent_evidence(
        sentence, features, _ranked_sentences(to_cover, index), index, covered, total, deadline
    )
    return ClaimEvidence(
        local=(covered + hits) / total,
        overall=len(features.content & index.vocabulary) / total,
        missing_numbers=features.numbers - index.numbers,
        missing_names=features.names - index.vocabulary,
        negation_mismatch=negation_mismatch,
        evidence_index=evidence_index,
    )


def is_hedged(sentence: str) -> bool:
    """The sentence holds a hedge: "I don't know", "the passages do not say", "sorry"."""
    return _HEDGE.search(sentence) is not None


def _points_to_a_source(sentence: str) -> bool:
    """The sentence only sends the reader to a source: a "see/visit/refer to" with "for more details" or an
    address, and no second clause that could state something ("..., which says refunds take 90 days")."""
    pointer = _POINTER.match(sentence)
    if pointer is None:
        return False
    rest = sentence[pointer.end() :]
    if re.search(r"[,;:]", _ADDRESS.sub(" ", rest)):
        return False
    return bool(pointer.group("lead") or _FOR_MORE.search(rest) or _ADDRESS.search(rest))


def _without_hedges(sentence: str) -> str:
    """``sentence`` without its hedge clauses; empty when every clause hedges or states nothing.

    A hedge exempts its own clause, not the sentence: "Sorry, the X200 is waterproof" and "The passages do not
    say when, but it opened in 1990" still claim what their other clause says. A clause only remarking on the
    sources is exempt as well.
    """
    if not _HEDGE.search(sentence):
        return sentence
    kept = [
        clause
        for clause in _HEDGE_CLAUSE_BREAK.split(sentence)
        if clause and not _HEDGE.search(clause) and not _ABOUT_THE_SOURCES.search(clause)
    ]
    rest = " ".join(clause.strip() for clause in kept if clause.strip())
    features = sentence_features(without_preamble(rest)) if rest else None
    if features is None or (len(features.content) < MIN_CLAIM_WORDS and not features.numbers):
        return ""
    return rest


def _consistent_evidence(
    claim: str,
    features: SentenceFeatures,
    ranked: list[tuple[int, int]],
    index: ContextIndex,
    covered: int,
    total: int,
    deadline: Deadline,
) -> tuple[int | None, int, bool]:
    """The evidence sentence, its hits, and whether the context only ever restates the claim negated.

    The best-covering sentence is the evidence unless it flips the claim's negation; then the next sentence
    that restates the claim (covers ``NEGATION_MIN_OVERLAP`` of it) with the claim's polarity is. Only when
    every restating sentence flips it is the claim a contradiction: the best sentence is often a longer one
    that shares the claim's words but says something else ("Return the index where sub is found" beside
    "Return -1 if sub is not found"), and a claim the context states as it is cannot contradict it.
    Polarity only matters where the evidence restates the claim; otherwise "not" is about another point.
    """
    if not ranked:
        return None, 0, False
    for tried, (position, hits) in enumerate(ranked):
        if (covered + hits) / total < NEGATION_MIN_OVERLAP:
            break
        if tried % 64 == 63:
            deadline.check(f"context sentence {tried + 1} of {len(ranked)} sharing words with one claim")
        evidence = index.sentences[position]
        negated = features.has_negation or evidence.features.has_negation
        if not negated or not _polarity_differs(claim, evidence.text):
            return position, hits, False
    best, best_hits = ranked[0]
    return best, best_hits, (covered + best_hits) / total >= NEGATION_MIN_OVERLAP


def _polarity_differs(claim: str, evidence: str) -> bool:
    """Some clause of the claim is restated by clauses of the evidence only with the negation flipped.

    Compared clause by clause because a long sentence often holds a negation about something else
    ("X forks as it grows, whereas Y's is not"). A clause the evidence also restates with the claim's
    polarity is not flipped, whatever other clauses sharing its words say ("replace a key, or insert one
    if no key exists"): a verbatim copy always finds itself. A clause that opens with its verb ("and does
    not cover X") counts joined to the one before it too, whose subject it shares.
    """
    texts = _CLAUSE_BREAK.split(evidence)
    clauses = [sentence_features(clause, claim=False) for clause in texts]
    # A clause without a subject of its own, with its predecessor and in its own polarity: "The warranty
    # lasts 2 years and does not cover water damage" says of the warranty that it does not cover water damage.
    joined = [
        SentenceFeatures(
            clauses[i - 1].content | clauses[i].content, frozenset(), frozenset(), clauses[i].has_negation
        )
        for i in range(1, len(clauses))
        if _PREDICATE_START.match(texts[i])
    ]
    evidence_clauses = clauses + joined
    for clause in _CLAUSE_BREAK.split(claim):
        stated = sentence_features(clause, claim=False)
        if len(stated.content) < MIN_CLAIM_WORDS:
            continue
        restating = {
            other.has_negation
            for other in evidence_clauses
            if len(stated.content & other.content) / len(stated.content) >= NEGATION_MIN_OVERLAP
        }
        if restating and stated.has_negation not in restating:
            return True
    return False


def _ranked_sentences(stems: frozenset[str], index: ContextIndex) -> list[tuple[int, int]]:
    """Context sentences sharing any of ``stems`` with how many they share, most first (earliest on ties)."""
    hits: dict[int, int] = {}
    for stem in stems:
        for position in index.postings.get(stem, ()):
            hits[position] = hits.get(position, 0) + 1
    return sorted(hits.items(), key=lambda item: (-item[1], item[0]))
