"""ragpulse's own decorators: OpenInference names (read as OpenInference reads them) and, on the root span,
``ragpulse.*``: pipeline, variant, the context the decorators recorded, variations, retrievals, reference."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ragpulse import semconv

from ragpulse_assembly.dialects import openinference
from ragpulse_assembly.dialects.base import Marker
from ragpulse_assembly.model import RagRoot, Span, TraceSpan
from ragpulse_assembly.names import RAGPULSE_KIND, RAGPULSE_KIND_RAG, RAGPULSE_SCOPE, Source

_ROOT_KEYS: Final = (
    semconv.KIND, semconv.PIPELINE, semconv.VARIANT, semconv.CONTEXT, semconv.VARIATIONS, semconv.RETRIEVALS,
    semconv.REFERENCE,
)  # fmt: skip


class Ragpulse:
    source = Source.RAGPULSE
    keys = openinference.OpenInference.keys | frozenset(_ROOT_KEYS)
    prefixes = openinference.OpenInference.prefixes
    markers: tuple[Marker, ...] = ()
    """ragpulse's spans never make a trace a candidate: only another family's spans do."""

    def claims(self, span: TraceSpan) -> bool:
        return span.scope_name == RAGPULSE_SCOPE or span.get(RAGPULSE_KIND) == RAGPULSE_KIND_RAG

    def normalise(self, span: TraceSpan) -> Span:
        read = openinference.read(span, self.source)
        if span.get(RAGPULSE_KIND) != RAGPULSE_KIND_RAG:
            return read
        root = RagRoot(
            pipeline=span.get(semconv.PIPELINE),
            variant=span.get(semconv.VARIANT),
            question=span.get(openinference.INPUT_VALUE),
            answer=span.get(openinference.OUTPUT_VALUE),
            context=span.get(semconv.CONTEXT),
            variations=span.get(semconv.VARIATIONS),
            retrievals=span.get(semconv.RETRIEVALS),
            reference=span.get(semconv.REFERENCE),
        )
        return replace(read, rag=root)
