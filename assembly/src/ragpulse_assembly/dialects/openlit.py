"""OpenLIT: the GenAI conventions' keys (``gen_ai.input.messages`` with the system message included, and
``gen_ai.system_instructions`` repeating it), under instrumentation scopes named ``openlit.*``."""

from __future__ import annotations

from ragpulse_assembly.dialects import genai
from ragpulse_assembly.dialects.base import Marker
from ragpulse_assembly.model import Span, TraceSpan
from ragpulse_assembly.names import Source


class OpenLIT:
    source = Source.OPENLIT
    keys = genai.GenAI.keys
    prefixes: tuple[str, ...] = ()
    markers: tuple[Marker, ...] = ()
    """OpenLIT's spans are found by their scope."""
    scopes = ("openlit",)

    def claims(self, span: TraceSpan) -> bool:
        return span.scope_name.startswith(self.scopes)

    def normalise(self, span: TraceSpan) -> Span:
        return genai.read(span, self.source, genai.kind_of(span))
