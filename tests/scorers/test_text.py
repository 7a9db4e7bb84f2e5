"""The shared sentence splitter."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_judge.text import split_sentences


def test_prose_splits_at_sentence_ends_but_not_at_abbreviations_or_decimals() -> None:
    text = "Techs earn $23.70 per hour. Dr. Smith agrees, e.g. in Alaska. The U.S. Army pays more!"
    assert split_sentences(text) == [
        "Techs earn $23.70 per hour.",
        "Dr. Smith agrees, e.g. in Alaska.",
        "The U.S. Army pays more!",
    ]


def test_list_items_are_sentences_without_their_markers() -> None:
    text = "Follow these steps:\n\n1. Lay the quilt flat. Smooth it.\n2. Fold it in thirds.\n- Store it."
    assert split_sentences(text) == [
        "Follow these steps:",
        "Lay the quilt flat.",
        "Smooth it.",
        "Fold it in thirds.",
        "Store it.",
    ]


def test_empty_and_blank_text_have_no_sentences() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\n ") == []


INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
PROSE = st.text(alphabet=st.characters(categories=["L", "Nd", "Zs"], include_characters=".,;!?\n"))


# Alone on a line these words label a list of sources, which is dropped when nothing follows it.
SOURCES_LABELS = re.compile(
    r"\s*(?:sources?|references?|citations?|bibliography|links?|footnotes?|(?:works|documents?)\s+cited"
    r"|further\s+reading|(?:learn|read)\s+more|documents?\s+(?:used|referenced))\s*",
    re.IGNORECASE,
)


@given(PROSE.filter(lambda text: not SOURCES_LABELS.fullmatch(text)))
def test_splitting_prose_never_loses_or_invents_text(text: str) -> None:
    assert "".join("".join(split_sentences(text)).split()) == "".join(text.split())


@given(st.text())
def test_splitting_never_invents_a_word(text: str) -> None:
    # Characters that render as nothing are read as nothing: "can\u200bnot" is the word a reader sees.
    text = INVISIBLE.sub("", text)
    words = set(re.findall(r"[^\W_]+", text))
    assert all(
        word in words or word in text for s in split_sentences(text) for word in re.findall(r"[^\W_]+", s)
    )
