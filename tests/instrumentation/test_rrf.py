"""Reciprocal rank fusion: hand-computed values and the properties Cormack et al. define."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse import ChunkError, rrf


def ids(count: int) -> list[dict[str, str]]:
    return [{"id": f"d{i}", "text": f"text {i}"} for i in range(count)]


def test_hand_computed_scores_with_k_1() -> None:
    a, b, c = ({"id": name, "text": name.upper()} for name in "abc")
    fused = rrf([[a, b, c], [c, a]], k=1)
    # a: 1/(1+1) + 1/(1+2); c: 1/(1+3) + 1/(1+1); b: 1/(1+2)
    assert [(chunk.id, chunk.rank) for chunk in fused] == [("a", 1), ("c", 2), ("b", 3)]
    assert [chunk.score for chunk in fused] == pytest.approx([1 / 2 + 1 / 3, 1 / 4 + 1 / 2, 1 / 3])
    assert fused[0].chunk is a
    assert fused[1].text == "C"


def test_default_k_is_60() -> None:
    fused = rrf([["x", "y"], ["y"]])
    assert fused[0].text == "y"
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[1].score == pytest.approx(1 / 61)


def test_chunks_without_id_are_the_same_when_their_text_is() -> None:
    fused = rrf([["same text", "other"], [("same text", 0.4)]], k=0)
    assert [chunk.text for chunk in fused] == ["same text", "other"]
    assert fused[0].score == pytest.approx(2.0)


def test_only_the_first_occurrence_in_a_ranking_counts() -> None:
    fused = rrf([[{"id": "a", "text": ""}, {"id": "b", "text": ""}, {"id": "a", "text": ""}]], k=0)
    assert [(chunk.id, chunk.score) for chunk in fused] == [("a", 1.0), ("b", 0.5)]


def test_top_n_keeps_the_best() -> None:
    assert [chunk.id for chunk in rrf([ids(5)], top_n=2)] == ["d0", "d1"]
    assert rrf([ids(5)], top_n=0) == []


def test_ties_break_by_best_rank_then_id() -> None:
    # b and a both score 1/61 + 1/62, c and d both 1/63: ids decide.
    b, a, c, d = ({"id": name, "text": ""} for name in "bacd")
    assert [chunk.id for chunk in rrf([[b, a, c], [a, b, d]])] == ["a", "b", "c", "d"]


def test_empty_rankings_fuse_to_nothing() -> None:
    assert rrf([]) == []
    assert rrf([[], []]) == []


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="k must be"):
        rrf([ids(2)], k=-1)
    with pytest.raises(ValueError, match="top_n must be"):
        rrf([ids(2)], top_n=-1)
    with pytest.raises(ChunkError, match="chunk 1"):
        rrf([["fine", 3.5]])


rankings_strategy = st.lists(
    st.lists(st.sampled_from([f"doc{i}" for i in range(12)]), max_size=8, unique=True), max_size=6
)


def as_chunks(rankings: list[list[str]]) -> list[list[dict[str, str]]]:
    return [[{"id": name, "text": name} for name in ranking] for ranking in rankings]


@given(rankings_strategy, st.randoms(use_true_random=False), st.integers(min_value=0, max_value=100))
def test_the_order_of_the_rankings_does_not_matter(rankings: list[list[str]], random, k: int) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(rankings)
    random.shuffle(shuffled)
    original = [(chunk.id, chunk.score, chunk.rank) for chunk in rrf(as_chunks(rankings), k=k)]
    assert [(chunk.id, chunk.score, chunk.rank) for chunk in rrf(as_chunks(shuffled), k=k)] == original


@given(
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=100),
    st.lists(st.sampled_from([f"doc{i}" for i in range(12)]), max_size=8, unique=True),
)
def test_an_item_first_in_every_ranking_scores_n_over_k_plus_1(lists: int, k: int, tail: list[str]) -> None:
    rankings = [["winner", *tail[index:]] for index in range(lists)]
    fused = rrf(as_chunks(rankings), k=k)
    assert fused[0].id == "winner"
    assert fused[0].score == pytest.approx(lists / (k + 1))


@given(rankings_strategy, st.integers(min_value=0, max_value=100))
def test_output_is_sorted_by_score_with_ranks_1_to_n(rankings: list[list[str]], k: int) -> None:
    fused = rrf(as_chunks(rankings), k=k)
    assert [chunk.score for chunk in fused] == sorted((chunk.score for chunk in fused), reverse=True)
    assert [chunk.rank for chunk in fused] == list(range(1, len(fused) + 1))
    assert {chunk.id for chunk in fused} == {name for ranking in rankings for name in ranking}


def test_fused_chunks_are_their_text_so_they_go_straight_into_a_prompt() -> None:
    fused = rrf([[{"id": "a", "text": "Alpha."}, ("Beta.", 0.2)]], k=0)
    assert " ".join(fused) == "Alpha. Beta."
    assert f"{fused[0]}" == fused[0].text == "Alpha."
    assert (fused[0].id, fused[0].rank) == ("a", 1)
    with pytest.raises(AttributeError, match="read-only"):
        fused[0].score = 2.0  # type: ignore[misc]
