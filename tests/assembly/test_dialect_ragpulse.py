"""ragpulse's own spans in the common model: OpenInference names, and the root's ``ragpulse.*``."""

from __future__ import annotations

from dialect_spans import raw, read
from ragpulse_assembly.names import Kind, Source


def test_the_root_keeps_what_the_decorators_recorded() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "CHAIN",
                "ragpulse.kind": "rag",
                "ragpulse.pipeline": "fusion",
                "ragpulse.variant": "B",
                "input.value": "Q?",
                "output.value": "A.",
                "ragpulse.reference": "known",
            },
            scope="ragpulse",
        ),
        Source.RAGPULSE,
    )

    assert span.rag is not None
    assert (span.kind, span.rag.pipeline, span.rag.variant, span.rag.question, span.rag.reference) == (
        Kind.CHAIN, "fusion", "B", "Q?", "known",
    )  # fmt: skip


def test_a_step_span_reads_as_openinference_without_a_root() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "RETRIEVER",
                "input.value": "Q?",
                "retrieval.documents.0.document.id": "d1",
            },
            scope="ragpulse",
        ),
        Source.RAGPULSE,
    )

    assert (span.kind, span.input_text, [d.id for d in span.documents], span.rag) == (
        Kind.RETRIEVER,
        "Q?",
        ["d1"],
        None,
    )
