"""Code spans in an answer open and close at whole runs of backticks, as CommonMark reads them: their content
is kept verbatim, a run with no closing run of the same length is text, and a run thousands of backticks
long is read in one pass."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_judge.prose.markdown import plain_inline


def test_a_span_closes_only_at_a_run_of_its_own_length() -> None:
    assert plain_inline("Run ``a ` b`` now") == "Run a ` b now"
    assert plain_inline("It has `a``b` here") == "It has a``b here"
    assert plain_inline("a ``` b") == "a ``` b"


@given(st.integers(1, 20_000))
def test_a_run_of_backticks_alone_is_text(length: int) -> None:
    assert plain_inline(f"It has {'`' * length} here") == f"It has {'`' * length} here"
