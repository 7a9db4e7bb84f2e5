"""How a cause names its baseline: in days, or in the unit a short baseline reads in."""

from __future__ import annotations

import pytest
from ragpulse_dashboards.rootcause.cause import days_before


@pytest.mark.parametrize(
    ("days", "said"),
    [
        (1, "the day before"),
        (7, "the 7 days before"),
        (2.5, "the 2.5 days before"),
        (0.5, "the 12 hours before"),
        (1 / 24, "the hour before"),
        (5 / 1440, "the 5 minutes before"),
        (12 / 86_400, "the 12 s before"),
    ],
)
def test_a_baseline_is_named_in_a_unit_a_person_reads(days: float, said: str) -> None:
    assert days_before(days) == said
