"""OTLP attribute values as strings, exactly as the Go collector's pdata ``Value.AsString()`` renders them.

The clickhouseexporter stores every attribute as a string through ``AsString()``, so a stock OpenTelemetry
Collector and this one must agree byte for byte: bools are ``true``/``false``, ints base 10, doubles in the
ES6/JSON number form Go's ``encoding/json`` uses, arrays and kvlists as compact JSON (HTML-escaped, map keys
sorted, as ``json.Marshal`` writes them) and bytes as standard base64.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Iterable

from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

_HTML_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


class _UnsupportedJsonValue(ValueError):
    """Go's ``json.Marshal`` fails on NaN and infinities; ``AsString`` then yields an empty string."""


def format_double(value: float) -> str:
    """A double as Go's ``float64AsString``: shortest round-trip digits, ``e`` form outside [1e-6, 1e21)."""
    shortest = repr(value)
    # Python's repr already picks fixed notation for 1e-4 <= |x| < 1e16; only the ".0" differs from Go. Any
    # other repr has an "e" or is "nan"/"inf"/"-inf", so the common case costs one repr and two scans.
    if "e" not in shortest and "n" not in shortest:
        return shortest[:-2] if shortest[-2:] == ".0" else shortest
    if math.isnan(value) or math.isinf(value):
        go_text = "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")
        return f"json: unsupported value: {go_text}"
    return _format_from_digits(value, shortest)


def _format_from_digits(value: float, shortest: str) -> str:
    mantissa, _, exponent_text = shortest.lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # Position of the decimal point relative to the first significant digit.
    point = int(exponent_text or 0) + len(whole) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0") or "0"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    magnitude = abs(value)
    if magnitude != 0 and (magnitude < 1e-6 or magnitude >= 1e21):
        exponent = point - 1
        head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        # Go writes at least two exponent digits, then the JSON encoder trims "e-07" to "e-7".
        exp_text = f"{abs(exponent):02d}" if exponent >= 0 else str(abs(exponent))
        return f"{sign}{head}e{'+' if exponent >= 0 else '-'}{exp_text}"
    if digits == "0":
        return f"{sign}0"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _json_string(text: str) -> str:
    encoded = json.dumps(text, ensure_ascii=False)
    if any(char in text for char in "<>&\u2028\u2029"):
        for raw, escaped in _HTML_ESCAPES:
            encoded = encoded.replace(raw, escaped)
    return encoded


def _json_double(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        raise _UnsupportedJsonValue(value)
    return format_double(value)


def _to_json(value: AnyValue) -> str:
    """One value as Go's ``json.Marshal(value.AsRaw())`` writes it."""
    kind = value.WhichOneof("value")
    if kind == "string_value":
        return _json_string(value.string_value)
    if kind == "int_value":
        return str(value.int_value)
    if kind == "double_value":
        return _json_double(value.double_value)
    if kind == "bool_value":
        return "true" if value.bool_value else "false"
    if kind == "bytes_value":
        return '"' + base64.b64encode(value.bytes_value).decode("ascii") + '"'
    if kind == "array_value":
        return "[" + ",".join(_to_json(item) for item in value.array_value.values) + "]"
    if kind == "kvlist_value":
        return _kvlist_json(value)
    return "null"


def _kvlist_json(value: AnyValue) -> str:
    # AsRaw builds a Go map (a repeated key keeps its last value) and json.Marshal sorts map keys.
    entries = {kv.key: kv.value for kv in value.kvlist_value.values}
    return "{" + ",".join(f"{_json_string(key)}:{_to_json(entries[key])}" for key in sorted(entries)) + "}"


def _json_or_empty(value: AnyValue) -> str:
    try:
        return _to_json(value)
    except _UnsupportedJsonValue:
        return ""


def as_string(value: AnyValue) -> str:
    """``pcommon.Value.AsString()`` for an OTLP ``AnyValue``."""
    kind = value.WhichOneof("value")
    # Numbers first: callers read string_value themselves and come here for what it does not cover.
    if kind == "double_value":
        return format_double(value.double_value)
    if kind == "int_value":
        return str(value.int_value)
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return "true" if value.bool_value else "false"
    if kind == "array_value" or kind == "kvlist_value":
        return _json_or_empty(value)
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode("ascii")
    return ""


def attributes_to_map(attributes: Iterable[KeyValue]) -> dict[str, str]:
    """``internal.AttributesToMap``: every value through ``AsString()``."""
    mapped = {}
    for kv in attributes:
        value = kv.value
        # Hot path: a non-empty string_value means the oneof holds a string, which is most attributes.
        mapped[kv.key] = value.string_value or as_string(value)
    return mapped
