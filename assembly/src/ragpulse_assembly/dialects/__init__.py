"""One dialect per instrumentation family, each reading its own keys into the common span model
(:mod:`ragpulse_assembly.model`). Adding a family = adding a module here and its tests.

A span belongs to the first dialect in :data:`DIALECTS` that claims it: ragpulse's own spans first, then
the families whose keys are their own, then those that share the GenAI conventions' keys (OpenLIT, known by
its scope, and OpenLLMetry, known by its own keys beside them, before plain GenAI).
"""

from __future__ import annotations

from typing import Final

from ragpulse_assembly.dialects import genai
from ragpulse_assembly.dialects.base import Dialect, Marker, common
from ragpulse_assembly.dialects.genai import GenAI
from ragpulse_assembly.dialects.haystack import Haystack
from ragpulse_assembly.dialects.openinference import OpenInference
from ragpulse_assembly.dialects.openlit import OpenLIT
from ragpulse_assembly.dialects.openllmetry import OpenLLMetry
from ragpulse_assembly.dialects.ragpulse import Ragpulse
from ragpulse_assembly.model import Span, TraceSpan
from ragpulse_assembly.names import Kind

DIALECTS: Final[tuple[Dialect, ...]] = (
    Ragpulse(),
    OpenInference(),
    Haystack(),
    OpenLIT(),
    OpenLLMetry(),
    GenAI(),
)

ATTRIBUTE_KEYS: Final = sorted(frozenset().union(*(dialect.keys for dialect in DIALECTS)))
"""Every attribute some dialect reads by its full name."""
ATTRIBUTE_PREFIXES: Final = sorted(frozenset(prefix for dialect in DIALECTS for prefix in dialect.prefixes))
MARKERS: Final[tuple[Marker, ...]] = tuple(marker for dialect in DIALECTS for marker in dialect.markers)
EVENT_NAMES: Final = genai.EVENT_NAMES
"""GenAI events joined to their spans, from ``otel_logs`` or the span's own events."""
EVENT_KEYS: Final = genai.EVENT_KEYS
EVENT_NAME_KEY: Final = genai.EVENT_NAME


def dialect_of(span: TraceSpan) -> Dialect | None:
    return next((dialect for dialect in DIALECTS if dialect.claims(span)), None)


def normalise(span: TraceSpan) -> Span:
    """``span`` in the common model; a span no dialect knows (an HTTP server span, a database call) has no
    source and kind OTHER: it only shapes the tree."""
    dialect = dialect_of(span)
    return dialect.normalise(span) if dialect is not None else common(span, None, Kind.OTHER)
