"""Attribute values stringified exactly as the Go collector's ``pcommon.Value.AsString()`` does."""

from __future__ import annotations

import base64
import json
import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue, KeyValueList
from otlp_testing import any_value
from ragpulse_collector.values import as_string, format_double

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
FINITE = st.floats(allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize(
    ("value", "go"),
    [
        (1.0, "1"),
        (0.5, "0.5"),
        (-0.0, "-0"),
        (0.0, "0"),
        (123456789.125, "123456789.125"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.5e-7, "1.5e-7"),
        (1e-6, "0.000001"),
        (9.99e-7, "9.99e-7"),
        (0.00012, "0.00012"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-2.5e22, "-2.5e+22"),
        (1e16, "10000000000000000"),
        (float("nan"), "json: unsupported value: NaN"),
        (float("inf"), "json: unsupported value: +Inf"),
        (float("-inf"), "json: unsupported value: -Inf"),
    ],
)
def test_double_formats_like_go(value: float, go: str) -> None:
    assert format_double(value) == go


@given(FINITE)
def test_double_is_shortest_round_trip_in_go_notation(value: float) -> None:
    text = format_double(value)
    assert float(text) == value
    magnitude = abs(value)
    scientific = magnitude != 0 and (magnitude < 1e-6 or magnitude >= 1e21)
    assert ("e" in text) == scientific
    if not scientific:
        expected = format(Decimal(repr(value)).normalize(), "f")
        if math.copysign(1.0, value) < 0 and not expected.startswith("-"):
            expected = "-" + expected
        assert text == expected
    else:
        mantissa, exponent = text.split("e")
        assert exponent[0] in "+-" and not exponent[1:].startswith("0")
        assert not mantissa.endswith("0") or "." not in mantissa


@given(st.text())
def test_strings_pass_through_unchanged(text: str) -> None:
    assert as_string(AnyValue(string_value=text)) == text


@given(INT64)
def test_ints_are_base_ten(number: int) -> None:
    assert as_string(AnyValue(int_value=number)) == str(number)


@given(st.booleans())
def test_bools_are_lowercase_words(flag: bool) -> None:
    assert as_string(AnyValue(bool_value=flag)) == ("true" if flag else "false")


@given(st.binary())
def test_bytes_are_standard_base64(data: bytes) -> None:
    assert as_string(AnyValue(bytes_value=data)) == base64.b64encode(data).decode()


def test_empty_value_is_empty_string() -> None:
    assert as_string(AnyValue()) == ""


def test_array_is_compact_json_with_go_numbers_and_html_escapes() -> None:
    value = any_value(["a<b>&c", 1, 2.0, 0.5, True, b"\x00\x01"])
    assert as_string(value) == '["a\\u003cb\\u003e\\u0026c",1,2,0.5,true,"AAE="]'


def test_kvlist_is_a_json_object_with_sorted_keys_last_duplicate_winning() -> None:
    kvlist = KeyValueList(
        values=[
            KeyValue(key="b", value=any_value(1)),
            KeyValue(key="a", value=any_value(["x"])),
            KeyValue(key="b", value=any_value(2)),
            KeyValue(key="c", value=AnyValue()),
        ]
    )
    assert as_string(AnyValue(kvlist_value=kvlist)) == '{"a":["x"],"b":2,"c":null}'


def test_array_holding_nan_is_empty_like_a_failed_json_marshal() -> None:
    assert as_string(any_value([1.0, float("nan")])) == ""


def test_control_characters_and_non_ascii_escape_like_go() -> None:
    assert as_string(any_value(["é\n\t\x01\u2028"])) == '["é\\n\\t\\u0001\\u2028"]'


JSON_LEAVES = st.one_of(st.text(), INT64, FINITE, st.booleans())


def _same(parsed: Any, original: Any) -> bool:
    """Go writes whole doubles without a fraction, so a double may parse back as an int of equal value."""
    if isinstance(original, list):
        return (
            isinstance(parsed, list)
            and len(parsed) == len(original)
            and all(_same(p, o) for p, o in zip(parsed, original, strict=True))
        )
    if isinstance(original, float):
        return isinstance(parsed, int | float) and float(parsed) == original
    return type(parsed) is type(original) and parsed == original


@given(
    st.recursive(JSON_LEAVES, lambda children: st.lists(children, max_size=4), max_leaves=12).map(
        lambda leaf_or_list: leaf_or_list if isinstance(leaf_or_list, list) else [leaf_or_list]
    )
)
def test_arrays_parse_back_to_their_values(items: list[Any]) -> None:
    text = as_string(any_value(items))
    assert _same(json.loads(text), items)
    assert not set("<>&") & set(text)
    assert ", " not in text.replace('", "', "")
