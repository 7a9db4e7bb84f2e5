"""Reading a one-word answer's probabilities from the first token's alternatives (any tokens, any numbers)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.llm.words import word_of, word_probabilities

WORDS = ("yes", "no", "unsure")
tokens = st.one_of(
    st.sampled_from(["yes", " Yes", "YES.", "no", " No", '"no"', "uns", " unsure", "un", "n", "not", "The"]),
    st.text(max_size=12),
)
logprobs = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-30.0, 0.0))


@given(st.text(max_size=40), st.lists(st.tuples(tokens, logprobs), max_size=30))
def test_probabilities_cover_the_words_and_sum_to_one_or_the_answer_is_refused(
    answer: str, alternatives: list[tuple[str, float]]
) -> None:
    found = word_probabilities(answer, alternatives, WORDS)
    first = answer.split()[0] if answer.split() else ""
    if word_of(first, WORDS) is None:
        assert found is None
        return
    assert found is not None and set(found) == set(WORDS)
    assert all(0.0 <= share <= 1.0 for share in found.values())
    assert math.isclose(sum(found.values()), 1.0)


@given(st.floats(0.01, 0.98), st.floats(0.01, 0.98))
def test_a_words_share_is_its_probability_among_the_three(no: float, yes_share: float) -> None:
    yes = (1 - no) * yes_share
    unsure = 1 - no - yes
    # Each a third of the probability the tokens had: the words' shares of what they had between them.
    alternatives = [(" No", math.log(no / 3)), ("Yes", math.log(yes / 3)), ("uns", math.log(unsure / 3))]
    alternatives.append(("The", -0.5))  # not a word: left out, the rest renormalised
    found = word_probabilities("no", alternatives, WORDS)
    assert found is not None
    assert math.isclose(found["no"], no, rel_tol=1e-9)
    assert math.isclose(found["yes"], yes, rel_tol=1e-9)


def test_a_token_counts_for_the_one_word_it_begins() -> None:
    assert [word_of(token, WORDS) for token in ("Yes", " no", "uns", "u", "**No**", "n", "not", "", " ")] == [
        "yes", "no", "unsure", "unsure", "no", "no", None, None, None,
    ]  # fmt: skip
    assert word_of("a", ("apple", "avocado")) is None  # begins two words: neither
