"""Service patterns of mappings match as ``fnmatch`` reads them, on RE2 (issue 37: user patterns run on
values a sender chose, in linear time)."""

from __future__ import annotations

from fnmatch import fnmatchcase

from hypothesis import example, given, settings
from hypothesis import strategies as st
from ragpulse_assembly.settings import ServiceMapping
from ragpulse_core.patterns import PatternError, glob_literal, linear_glob, linear_pattern

GLOB_PIECES = st.sampled_from(
    ["*", "?", "a", "b", "-", ".", "[ab]", "[!a]", "[a-c]", "\\", "^", "$", "(", "+"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(GLOB_PIECES, max_size=8).map("".join), st.text("ab-.\\^$(+c\n", max_size=12))
@example("*a*a*a*a*a*a*a*a*a*a*b", "a" * 40)
@example("[]]", "]")
@example("[!]]", "x")
def test_a_glob_matches_what_fnmatch_matches(glob: str, value: str) -> None:
    try:
        compiled = linear_glob(glob)
    except PatternError:
        return
    assert (compiled.search(value) is not None) == fnmatchcase(value, glob)


def test_a_mapping_refuses_a_pattern_it_cannot_match_at_config_load() -> None:
    try:
        ServiceMapping(service="[z-a]*", question={"message": "user"})
    except ValueError as exc:
        assert "not a usable service pattern" in str(exc)
    else:
        raise AssertionError("a reversed range was accepted")


def test_a_value_utf8_cannot_encode_is_matched_not_raised() -> None:
    """RE2 reads UTF-8: a lone surrogate (what an OTLP/JSON "\\ud800" escape decodes to) in a service name
    raised UnicodeEncodeError out of every rule and mapping that looked at it."""
    prod = linear_pattern(r"-prod$")
    assert prod.search("api\ud800-prod") is not None
    assert linear_glob("api*-prod").search("api\ud800-prod") is not None
    assert [match.span() for match in linear_pattern("b").finditer("a\udfffb")] == [(2, 3)]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.text(max_size=12))
@example("*", "any-other-service")
@example("a[!b]", "a[!b]x")
def test_a_literal_glob_matches_its_own_text_and_nothing_else(name: str, other: str) -> None:
    compiled = linear_glob(glob_literal(name))
    assert compiled.search(name) is not None
    assert (compiled.search(other) is not None) == (other == name)
