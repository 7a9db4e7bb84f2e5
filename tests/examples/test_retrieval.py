"""The example's corpus, BM25 index and stand-ins: offline, deterministic, grounded by construction."""

from __future__ import annotations

import random
import re
from pydoc_data.topics import topics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_example.bm25 import BM25Index, default_index, tokenize
from ragpulse_example.corpus import PASSAGE_CHARS, Passage, chunk_topic, load_passages
from ragpulse_example.injection import fabricated_sentence, inject
from ragpulse_example.questions import load_questions
from ragpulse_example.standins import extractive_answer, rewrite_variations, split_passage


def test_every_topic_is_chunked_into_passages_with_stable_unique_ids() -> None:
    passages = load_passages()
    ids = [passage.id for passage in passages]
    assert len(ids) == len(set(ids))
    texts = {passage.text for passage in passages}
    assert len(texts) == len(passages)
    # A topic whose text another one repeats keeps its passages under one of them only.
    assert all(
        topic in {passage.topic for passage in passages}
        or {p.text for p in chunk_topic(topic, topics[topic])} <= texts
        for topic in topics
    )
    assert all(re.fullmatch(r"pydoc:[\w-]+#\d+", passage.id) for passage in passages)
    assert [p.id for p in chunk_topic("for", topics["for"])] == [p.id for p in passages if p.topic == "for"]


def test_passages_stay_near_the_size_cap_and_drop_underlines() -> None:
    text = "Title\n*****\n\n" + "\n\n".join(
        f"Sentence number {i} says something. It ends here." for i in range(60)
    )
    passages = chunk_topic("t", text, max_chars=200)
    assert all(len(p.text) <= 200 for p in passages)
    assert "*****" not in " ".join(p.text for p in passages)
    assert passages[0].text.startswith("Title")


def test_a_huge_paragraph_is_cut_at_sentence_ends() -> None:
    paragraph = " ".join(f"Claim {i} holds." for i in range(200))
    passages = chunk_topic("big", paragraph, max_chars=PASSAGE_CHARS)
    assert len(passages) > 1
    assert all(p.text.endswith(".") and len(p.text) <= PASSAGE_CHARS for p in passages)


def test_bm25_finds_the_topic_a_question_is_about() -> None:
    hits = default_index().search("What does the else clause of a for loop do?", 5)
    assert "for" in {hit.passage.topic for hit in hits}
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_most_questions_retrieve_their_topic_in_the_top_five() -> None:
    index = default_index()
    questions = load_questions()
    found = sum(q.topic in {hit.passage.topic for hit in index.search(q.text, 5)} for q in questions)
    assert 40 <= len(questions) <= 60
    assert found / len(questions) >= 0.8


def test_a_query_of_only_stopwords_or_unknown_words_finds_nothing() -> None:
    assert default_index().search("what are the", 5) == []
    assert default_index().search("zzqxv", 5) == []
    assert BM25Index([]).search("for", 5) == []


@settings(max_examples=60)
@given(st.text(max_size=300), st.integers(min_value=0, max_value=20))
def test_bm25_search_takes_any_text(query: str, top_k: int) -> None:
    hits = default_index().search(query, top_k)
    assert len(hits) <= top_k
    assert all(set(tokenize(query)) & set(tokenize(hit.passage.text)) for hit in hits)


def test_python_keywords_count_as_content_words() -> None:
    assert tokenize("How does the with statement work in a for loop?") == [
        "with",
        "statement",
        "work",
        "in",
        "for",
        "loop",
    ]


def test_extractive_answers_only_contain_sentences_from_the_passages() -> None:
    index = default_index()
    for question in load_questions():
        passages = [hit.passage.text for hit in index.search(question.text, 5)]
        answer = extractive_answer(question.text, passages)
        sentences = {sentence for passage in passages for sentence in split_passage(passage)}
        assert answer
        assert all(piece in sentences for piece in _pieces(answer, sentences)), question.text


def _pieces(answer: str, sentences: set[str]) -> list[str]:
    """The answer re-cut into the passage sentences it was built from (greedy, longest first)."""
    pieces, rest = [], answer
    while rest:
        match = max((s for s in sentences if rest.startswith(s)), key=len, default=None)
        assert match is not None, f"not from the passages: {rest[:80]!r}"
        pieces.append(match)
        rest = rest[len(match) :].lstrip()
    return pieces


def test_extractive_answer_without_passages_says_so() -> None:
    assert "does not answer" in extractive_answer("anything?", [])


def test_rewrites_are_distinct_and_as_many_as_asked() -> None:
    variations = rewrite_variations("How does the with statement use __enter__ and __exit__?", 3)
    assert len(variations) == len(set(variations)) == 3
    assert all("with statement" in variation or "with" in variation.split() for variation in variations)
    assert rewrite_variations("?", 3)


def test_injection_is_deterministic_and_plants_an_unsupported_claim() -> None:
    answer = "The for statement iterates over a sequence. The else clause runs when the loop ends."
    injected = inject(answer, "What does the for statement do?", seed=42)
    assert injected == inject(answer, "What does the for statement do?", seed=42)
    assert injected != inject(answer, "What does the for statement do?", seed=43)
    planted = [s for s in split_passage(injected) if s not in answer]
    assert len(planted) == 1
    assert re.search(r"\d", planted[0])
    assert all(sentence in injected for sentence in split_passage(answer))


@pytest.mark.parametrize("seed", range(20))
def test_fabricated_sentences_appear_nowhere_in_the_corpus(seed: int) -> None:
    sentence = fabricated_sentence("What does the global statement do?", random.Random(seed))
    assert all(sentence not in passage.text for passage in load_passages())


def test_passage_is_hashable_value() -> None:
    assert Passage("a", "t", "x") == Passage("a", "t", "x")
