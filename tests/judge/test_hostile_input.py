"""The free judge on input chosen to be slow: every step stays linear in the answer and the context, and what
is a product of the two (each claim against each context sentence sharing its words) stops at a time limit
with the reason instead of stalling the tick or the service that runs it."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from ragpulse_judge import text
from ragpulse_judge.features import _QUANTITY, _quantity_matches
from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.limits import TooLongToJudge
from ragpulse_judge.rules import LexicalJudge
from ragpulse_scorers.lexical.scorer import build
from ragpulse_scorers.models import ContextChunk, RagRequest
from ragpulse_scorers.settings import ScorersSettings

# The answers before the fixes took: 20,000 characters of ". " 10 s to split into sentences; a context of
# 100,000 characters of "1," about 12 minutes to read its quantities; a 20,000-character sentence of clauses
# 3 s (its hedges read once per clause). Each ends in well under a second now; the bound only says it ended.
ENDED_WITHIN_S = 60.0
_HOSTILE = textwrap.dedent("""
    from ragpulse_judge.learnt import LearntJudge
    from ragpulse_judge.rules import LexicalJudge
    context = ["The museum opened in 1990. " + "1," * 50_000]
    for answer in (". " * 10_000, "alpha beta gamma, and " * 900, "A " + "1," * 9_000 + " km."):
        for judge in (LearntJudge(time_limit_s=None), LexicalJudge(time_limit_s=None)):
            judge.analyse("When did it open?", context, answer)
""")


def test_answers_and_contexts_built_to_be_slow_are_read_in_linear_time() -> None:
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", _HOSTILE], check=True, timeout=ENDED_WITHIN_S)
    assert time.monotonic() - started < ENDED_WITHIN_S


_NUMBERY = st.text(alphabet="12,.$ %kmé\n", max_size=40)


@given(_NUMBERY)
@example("1,1,1,5 km 2.5.5 mi $3,$4 %")
@example("$$5 km, ,7 m")
def test_quantities_are_those_the_pattern_finds(sample: str) -> None:
    assert _quantity_matches(sample) == _QUANTITY.findall(sample)


_OLD_LEAD = re.compile(r"[\"'(\[“‘«¿¡\W_]*?(?=\w)")


def _old_sentences(block: str) -> list[str]:
    """The sentence splitter as it was (a lookahead scanned from every full stop to the next word)."""
    sentences, start = [], 0
    for match in text._BOUNDARY.finditer(block):
        lead = _OLD_LEAD.match(block, match.end())
        if not text._starts_sentence(block, lead.end() if lead else match.end()):
            continue
        candidate = block[start : match.start()].strip()
        last_word = candidate.rsplit(None, 1)[-1].rstrip(".").lower() if candidate else ""
        if (
            last_word in text._ABBREVIATIONS
            or (len(last_word) == 1 and last_word.isalpha())
            or text._LIST_MARKER.fullmatch(candidate)
        ):
            continue
        if candidate:
            sentences.append(candidate)
        start = match.end()
    tail = block[start:].strip()
    return [*sentences, tail] if tail else sentences


@given(st.text(alphabet="Ab1.!? \"'(Ⓐ_中。é", max_size=40))
@example('It is. "(Ⓐ')
@example("e.g. This. _a. 3 ok。中")
def test_sentences_end_where_they_did(sample: str) -> None:
    assert text._prose_sentences(sample) == _old_sentences(sample)


# Every claim restates the context negated, so each is compared with every context sentence: a product.
_CONTEXT = ["The alpha beta gamma is not delta. " * 1_500]
_ANSWER = "The alpha beta gamma is delta. " * 160


@pytest.mark.parametrize("judge", [LexicalJudge(time_limit_s=0.3), LearntJudge(time_limit_s=0.3)])
def test_a_judgment_past_its_time_limit_stops_with_the_reason(judge: LexicalJudge | LearntJudge) -> None:
    started = time.monotonic()
    with pytest.raises(TooLongToJudge, match=r"judging took over 0\.3 s and stopped at .* of"):
        judge.analyse("What is it?", _CONTEXT, _ANSWER)
    assert time.monotonic() - started < ENDED_WITHIN_S


def test_the_scorer_fails_such_a_request_with_the_reason_at_its_configured_limit() -> None:
    settings = ScorersSettings.model_validate({"scorer": {"free": {"judge": "learnt", "time_limit_s": 0.3}}})
    scorer = build(settings, None)  # type: ignore[arg-type]  # the lexical scorer reads no store
    request = RagRequest(
        trace_id="a" * 32,
        timestamp=datetime.now(UTC),
        question="What is it?",
        answer=_ANSWER,
        context=[ContextChunk(id="1", text=_CONTEXT[0], rank=1)],
    )
    with pytest.raises(TooLongToJudge, match=r"judging took over 0\.3 s"):
        scorer.score(request)
