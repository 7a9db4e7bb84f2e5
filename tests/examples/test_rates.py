"""``--inject`` and ``--drift`` values: one rate for every variant, or one per variant."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_example.rates import parse_rates

VARIANTS = ["A", "B", "C"]
rates = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_one_number_means_every_variant() -> None:
    assert parse_rates("0.2", VARIANTS) == {"A": 0.2, "B": 0.2, "C": 0.2}


def test_per_variant_rates_leave_unnamed_variants_at_zero() -> None:
    assert parse_rates(" A=0.05, B = 0.25 ", VARIANTS) == {"A": 0.05, "B": 0.25, "C": 0.0}


def test_none_means_zero_everywhere() -> None:
    assert parse_rates("none", VARIANTS) == {"A": 0.0, "B": 0.0, "C": 0.0}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lots", "--drift: 'lots' is not a rate"),
        ("", "--drift: '' is not a rate"),
        ("1.5", "must lie in [0, 1]"),
        ("nan", "must lie in [0, 1]"),
        ("A=0.1,Z=0.2", "unknown variant 'Z'"),
        ("A=0.1,A=0.2", "variant 'A' is given twice"),
        ("A=0.1,0.2", "expected VARIANT=RATE, got '0.2'"),
        ("=0.3", "expected VARIANT=RATE"),
        ("B=-0.1", "rate '-0.1' in 'B=-0.1' must lie in [0, 1]"),
    ],
)
def test_bad_input_is_refused_naming_the_option_and_the_piece(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=r"^--drift: ") as error:
        parse_rates(text, VARIANTS, "--drift")
    assert message in str(error.value)


@given(rates)
def test_any_rate_alone_applies_to_every_variant(rate: float) -> None:
    assert parse_rates(repr(rate), VARIANTS) == dict.fromkeys(VARIANTS, rate)


@given(st.dictionaries(st.sampled_from(VARIANTS), rates, min_size=1))
def test_per_variant_rates_read_back_what_was_written(given_rates: dict[str, float]) -> None:
    written = ",".join(f"{name}={rate!r}" for name, rate in given_rates.items())
    assert parse_rates(written, VARIANTS) == {**dict.fromkeys(VARIANTS, 0.0), **given_rates}


@given(st.text(max_size=40))
def test_any_text_parses_to_valid_rates_or_is_refused_with_a_value_error(text: str) -> None:
    try:
        parsed = parse_rates(text, VARIANTS)
    except ValueError as error:
        assert str(error).startswith("--inject: ")
    else:
        assert set(parsed) == set(VARIANTS) and all(0.0 <= rate <= 1.0 for rate in parsed.values())
