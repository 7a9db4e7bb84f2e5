"""Compound sentences become claims: clauses to check one by one, each with where it lies in the sentence."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_judge.claims import split_claims


def texts(sentence: str) -> list[str]:
    return [claim.text for claim in split_claims(sentence)]


def test_coordinated_clauses_are_claims_of_their_own() -> None:
    assert texts("The museum opened in 1990, and it admits 2 million visitors a year.") == [
        "The museum opened in 1990",
        "and it admits 2 million visitors a year.",
    ]
    assert texts("The bridge is 2 km long; it carries 40,000 cars every day.") == [
        "The bridge is 2 km long",
        "it carries 40,000 cars every day.",
    ]


def test_a_parenthesis_is_a_claim_and_the_sentence_reads_without_it() -> None:
    claims = split_claims("The tower (built in 1889 for the World Fair) is 330 metres tall.")
    assert [(claim.text, claim.aside) for claim in claims] == [
        ("The tower is 330 metres tall.", False),
        ("built in 1889 for the World Fair", True),
    ]


def test_a_relative_clause_set_off_by_commas_is_an_aside() -> None:
    claims = split_claims("Beets, which grow best in cool weather and loose soil, can be roasted whole.")
    assert [claim.text for claim in claims] == [
        "Beets can be roasted whole.",
        "which grow best in cool weather and loose soil",
    ]


def test_lists_and_short_pieces_stay_with_their_sentence() -> None:
    assert texts("He bought apples, pears, and oranges at the market.") == [
        "He bought apples, pears, and oranges at the market."
    ]
    assert (
        texts("The tower (1889) is tall; it is made of iron and steel beams.")[0]
        == "The tower (1889) is tall"
    )


@given(st.text(max_size=300))
def test_claims_always_lie_inside_the_sentence_in_order(sentence: str) -> None:
    claims = split_claims(sentence)
    assert claims
    for claim in claims:
        assert 0 <= claim.start <= claim.end <= len(sentence)
    starts = [claim.start for claim in claims]
    assert starts == sorted(starts)


PIECES = ["the river", ", and", ", which", " (", ")", ";", " - ", "flows 12 km", "north"]


@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_punctuation_soup_never_breaks_the_splitter(pieces: list[str]) -> None:
    sentence = "".join(pieces)
    for claim in split_claims(sentence):
        assert claim.text == claim.text.strip(" ,;")
