"""The rewriter behind bench_formatted_answers: formatting only, so a labelled answer keeps its label."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ragpulse_judge.text import split_sentences
from ragpulse_scorers.evaluation.datasets import SupportExample
from ragpulse_scorers.evaluation.formatted_answers import STYLES, formatted, source_of

_WORDS = re.compile(r"[^\W_]+")
CONTEXT = ["Technicians in Alaska earn $23.70 per hour.", "Dealerships add commission on parts sold."]


def read_words(text: str) -> str:
    return " ".join(_WORDS.findall(" ".join(split_sentences(text))))


_WORD = st.sampled_from(
    ["technicians", "Alaska", "earn", "$23.70", "per", "hour", "commission", "parts", "2019"]
)
_SENTENCE = st.lists(_WORD, min_size=2, max_size=8).map(lambda words: " ".join(words).capitalize() + ".")
_LINE = st.one_of(
    st.lists(_SENTENCE, min_size=1, max_size=3).map(" ".join),
    _SENTENCE.map(lambda s: f"1. {s}"),
    st.lists(_WORD, min_size=2, max_size=5).map(lambda words: "- " + " ".join(words)),
)
_RESPONSE = st.lists(_LINE, min_size=1, max_size=5).map("\n".join)


@pytest.mark.parametrize("style", list(STYLES))
@settings(max_examples=60, deadline=None)
@given(response=_RESPONSE)
# A superscript note after a number would read as a power: "technicians 2019¹" (found by this test in CI).
@example(response="Technicians technicians. Technicians technicians. Technicians technicians.\n"
         "- technicians 2019\nTechnicians technicians.")
def test_every_sentence_reads_word_for_word_after_rewriting(style: str, response: str) -> None:
    example = SupportExample("1", "g", "How are technicians paid?", CONTEXT, response, False)
    (rewritten,) = formatted([example], style)
    assert rewritten.response != response
    assert rewritten.hallucinated == example.hallucinated
    read = read_words(rewritten.response)
    for sentence in split_sentences(response):
        assert read_words(sentence) in read, (sentence, rewritten.response)
    assert formatted([example], style) == [rewritten]


def test_a_marker_points_at_the_passage_sharing_most_words() -> None:
    assert source_of("Dealerships add commission.", CONTEXT) == 2
    assert source_of("Nothing shared here.", CONTEXT) == 1
