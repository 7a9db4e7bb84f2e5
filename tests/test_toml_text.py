"""Traced text written into a TOML snippet reads back as exactly that text, and nothing a terminal obeys is
printed raw."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ragpulse_core.printable import needs_escape
from ragpulse_core.toml_text import toml_string

NO_SURROGATES = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=400, deadline=None)
@given(NO_SURROGATES)
@example('a"\n[judge]\nbase_url = "http://x')
@example("\\u0041\x1b]8;;http://x\x07\u202e\U000e0041\x7f\x85")
def test_a_toml_string_reads_back_as_its_text_and_shows_no_control(text: str) -> None:
    written = toml_string(text)

    assert tomllib.loads(f"value = {written}\n") == {"value": text}
    assert not any(needs_escape(character) for character in written)


def test_a_lone_surrogate_is_refused_not_written() -> None:
    with pytest.raises(ValueError, match="surrogate"):
        toml_string("bot\ud800")
