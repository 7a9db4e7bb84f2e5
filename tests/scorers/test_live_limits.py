"""The parts that keep the live page safe, alone: any ``next`` value or path resolves on the page's origin by
the WHATWG URL rules browsers use (Node's parser as the oracle), the log budget counts what it left out, and
the sign-in limit opens again when its window ends."""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ragpulse_core.log_budget import LogBudget
from ragpulse_dashboards.live.limits import SignInLimit
from ragpulse_dashboards.live.redirects import form_target, same_site_target
from whatwg_urls import Resolver

BASE = "http://127.0.0.1:4319/?service=svc"
ORIGIN = "http://127.0.0.1:4319"


@pytest.fixture(scope="module")
def browser_urls() -> Iterator[Resolver]:
    resolver = Resolver()
    yield resolver
    resolver.close()


_SEPARATORS = st.sampled_from(
    ["/", "\\", "\t", "\n", "\r", " ", "\x00", "\x0b", "%2F", "%5C", "%09", "@", ":"]
)
_HOSTS = st.sampled_from(["evil.example", "evil.example:80", "user@evil.example", "127.0.0.1@evil.example"])


@st.composite
def _targets(draw: st.DrawFn) -> str:
    """Separators browsers may fold into ``//``, then a host; or anything at all."""
    crafted = "".join(draw(st.lists(_SEPARATORS, max_size=6))) + draw(_HOSTS) + draw(st.text(max_size=8))
    return draw(st.one_of(st.just(crafted), st.text(), st.text(alphabet=string.printable)))


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=_targets())
def test_any_next_value_resolves_on_the_same_origin(browser_urls: Resolver, target: str) -> None:
    assert browser_urls.origin(form_target(target), BASE) == ORIGIN
    assert browser_urls.origin(same_site_target(target, [("token", "x"), ("q", target)]), BASE) == ORIGIN


def test_the_log_says_how_many_lines_it_left_out() -> None:
    now = [0.0]
    budget = LogBudget(lines=2, window_s=60, clock=lambda: now[0])
    assert [budget.admit() for _ in range(5)] == ["", "", None, None, None]
    now[0] = 61.0
    assert budget.admit() == " (3 more like it in the previous minutes were not logged)"


def test_a_client_may_try_again_once_its_window_is_over() -> None:
    now = [0.0]
    limit = SignInLimit(attempts=2, window_s=30, clock=lambda: now[0])
    limit.failed("a")
    limit.failed("a")
    assert limit.retry_after("a") == 30 and limit.retry_after("b") is None
    now[0] = 29.5
    assert limit.retry_after("a") == 1
    now[0] = 30.0
    assert limit.retry_after("a") is None
    limit.failed("a")
    assert limit.retry_after("a") is None
