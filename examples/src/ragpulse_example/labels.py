"""Span attributes on which the example service says what it did on purpose, so a judge can be checked.

They sit on the request's root span next to ragpulse's own attributes; nothing in ragpulse reads them except
the demo, which compares the judge's verdicts with them.
"""

from __future__ import annotations

from typing import Final

PLANTED_ATTRIBUTE: Final = "ragpulse.example.planted"
"""True when an unsupported statement was planted in the answer."""
DEGRADED_RETRIEVAL_ATTRIBUTE: Final = "ragpulse.example.degraded_retrieval"
"""True when retrieval returned chunks unrelated to the question (the drift of a degraded variant)."""
