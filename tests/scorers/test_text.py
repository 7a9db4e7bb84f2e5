"""The shared sentence splitter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.text import split_sentences


def test_prose_splits_at_sentence_ends_but_not_at_abbreviations_or_decimals() -> None:
    text = "Techs earn $23.70 per hour. Dr. Smith agrees, e.g. in Alaska. The U.S. Army pays more!"
    assert split_sentences(text) == [
        "Techs earn $23.70 per hour.",
        "Dr. Smith agrees, e.g. in Alaska.",
        "The U.S. Army pays more!",
    ]


def test_list_markers_stay_with_their_item() -> None:
    text = "Follow these steps:\n\n1. Lay the quilt flat. Smooth it.\n2. Fold it in thirds.\n- Store it."
    assert split_sentences(text) == [
        "Follow these steps:",
        "1. Lay the quilt flat.",
        "Smooth it.",
        "2. Fold it in thirds.",
        "- Store it.",
    ]


def test_empty_and_blank_text_have_no_sentences() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\n ") == []


@given(st.text())
def test_splitting_never_loses_or_invents_text(text: str) -> None:
    assert "".join("".join(split_sentences(text)).split()) == "".join(text.split())
