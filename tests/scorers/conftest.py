"""Fixtures of the scorer tests."""

from __future__ import annotations

import pytest
from ragpulse_scorers.llm.formats import forget_negotiated_formats


@pytest.fixture(autouse=True)
def fresh_format_negotiation() -> None:
    """Every test's fake endpoints start from json_schema: what one test's server refused is not another's."""
    forget_negotiated_formats()
