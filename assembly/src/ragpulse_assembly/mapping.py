"""A service's ``[[assembly.mappings]]`` entry applied to an assembled request.

The fields the mapping names are read where it says (:class:`~ragpulse_assembly.settings.FieldSource`); the
others stay as the rules found them. A field the mapping names but finds nothing for makes the request
unscorable with a reason that says so: a mapping never falls back silently to the rules' guess, which is what
it was written to replace.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from ragpulse_core.patterns import LinearMatch, linear_pattern

from ragpulse_assembly import guard
from ragpulse_assembly.context import chunk_rows, context_texts
from ragpulse_assembly.jsonpath import select
from ragpulse_assembly.learnt.template import Template, read
from ragpulse_assembly.learnt.tokens import flatten
from ragpulse_assembly.model import Span, TraceSpan, document, normalized, role
from ragpulse_assembly.names import ContextSource, Kind
from ragpulse_assembly.prompt_context import current_turn
from ragpulse_assembly.reasons import Unscorable, explain
from ragpulse_assembly.rules import AssembledRequest
from ragpulse_assembly.settings import FieldSource, ServiceMapping
from ragpulse_assembly.trace import Trace
from ragpulse_assembly.unwrap import parse_json

_TEXT_FIELDS: Final = ("text", "content", "page_content", "document", "snippet", "body", "chunk", "passage")
_EVERY_FIELD: Final = frozenset({"question", "context", "answer"})
_SEEN_IN_THE_TEXTS: Final = frozenset(
    {Unscorable.SCORABLE, Unscorable.NO_CONTENT, Unscorable.NO_QUESTION, Unscorable.NO_ANSWER,
     Unscorable.NO_CONTEXT, Unscorable.CONTEXT_UNAVAILABLE, Unscorable.UNPARSEABLE}
)  # fmt: skip
"""Reasons that what the request holds shows by itself, so they are decided again after a mapping."""


def mapping_keys(mappings: Sequence[ServiceMapping]) -> list[str]:
    """The attributes mappings read or match on: assembly reads them beside the dialects' own."""
    keys = {key for mapping in mappings for key in mapping.attributes}
    for mapping in mappings:
        for source in (mapping.question, mapping.documents, mapping.answer):
            if source is not None and source.attribute:
                keys.add(source.attribute)
    return sorted(keys)


def trace_attributes(delivered: Sequence[TraceSpan]) -> dict[str, str]:
    """Every span and resource attribute of the trace, a span's winning over its resource's, the root's
    over the others' (a mapping matches a trace by what any of its spans carries)."""
    found: dict[str, str] = {}
    for span in sorted(delivered, key=lambda s: (s.parent_span_id != "", s.timestamp, s.span_id)):
        for key, value in (*span.attributes.items(), *span.resource.items()):
            found.setdefault(key, value)
    return found


def apply_mapping(
    request: AssembledRequest, delivered: Sequence[TraceSpan], mapping: ServiceMapping
) -> AssembledRequest:
    """``request`` with the fields ``mapping`` names read from the trace where it says."""
    trace = Trace(delivered)
    raw = {span.span_id: span for span in delivered}
    generator = _generator(trace, request.answer)
    question, answer, context = request.question, request.answer, request.context
    context_source = request.context_source
    not_found = []
    if mapping.question is not None:
        question = " ".join(_extract(mapping.question, "question", trace, raw, generator))
        not_found += [] if question else ["question"]
    if mapping.answer is not None:
        answer = " ".join(_extract(mapping.answer, "answer", trace, raw, generator))
        not_found += [] if answer else ["answer"]
    chunks = context_texts(context)
    if mapping.documents is not None:
        chunks = _extract(mapping.documents, "documents", trace, raw, generator)
        context = _context_json(chunks)
        context_source = ContextSource.MAPPING if chunks else ContextSource.NONE
        not_found += [] if chunks else ["documents"]
    if not_found:
        unscorable = Unscorable.MAPPING_FOUND_NOTHING
    else:
        unscorable = _reason(request.unscorable, _covered(mapping), question, answer, chunks)
    return replace(
        request,
        question=question,
        answer=answer,
        context=context,
        context_source=context_source,
        unscorable=unscorable,
        unscorable_detail=request.unscorable_detail if unscorable is request.unscorable else "",
    )


def apply_template(
    request: AssembledRequest, delivered: Sequence[TraceSpan], template: Template | None
) -> AssembledRequest:
    """``request`` with its question and documents read by a pinned template alone: the prompt it does not
    fit (or a version no longer known) finds nothing, as any mapping's field that finds nothing."""
    generator = _generator(Trace(delivered), request.answer)
    text = flatten(current_turn(generator.messages)) if generator is not None else None
    reading = read(template, text) if template is not None and text is not None else None
    if reading is None:
        return replace(request, unscorable=Unscorable.MAPPING_FOUND_NOTHING, template_version="")
    chunks = list(reading.chunks)
    question = reading.question or request.question
    unscorable = _reason(
        request.unscorable, frozenset({"question", "context"}), question, request.answer, chunks
    )
    return replace(
        request,
        question=question,
        context=_context_json(chunks),
        context_source=ContextSource.MAPPING if chunks else ContextSource.NONE,
        unscorable=unscorable,
        unscorable_detail="",
        template_version=reading.version,
    )


def _covered(mapping: ServiceMapping) -> frozenset[str]:
    named = {"question": mapping.question, "context": mapping.documents, "answer": mapping.answer}
    return frozenset(field for field, source in named.items() if source is not None)


def _reason(
    earlier: Unscorable, covered: frozenset[str], question: str, answer: str, chunks: list[str]
) -> Unscorable:
    """Why the mapped request cannot be judged. Reasons that the texts themselves show (missing or serialized
    parts) are decided again on what the mapping read; any other reason of the rules stands unless the
    mapping supplies every field it concerns."""
    if earlier not in _SEEN_IN_THE_TEXTS:
        explanation = explain(earlier.value)
        concerned = (explanation.missing or _EVERY_FIELD) if explanation is not None else _EVERY_FIELD
        if not concerned <= covered:
            return earlier
    if guard.problem(question, answer, chunks):
        return Unscorable.UNPARSEABLE
    if not question and not answer:
        return Unscorable.NO_CONTENT
    if not answer:
        return Unscorable.NO_ANSWER
    if not question:
        return Unscorable.NO_QUESTION
    if not chunks:
        return earlier if earlier is Unscorable.CONTEXT_UNAVAILABLE else Unscorable.NO_CONTEXT
    return Unscorable.SCORABLE


def _generator(trace: Trace, answer: str) -> Span | None:
    """The LLM call that wrote the answer (its output holds it), else the last LLM call to end."""
    llms = [span for span in trace.spans if span.kind is Kind.LLM]
    wanted = normalized(answer)
    return max(
        llms,
        key=lambda s: (bool(wanted) and wanted in normalized(s.output_text), s.end, s.span_id),
        default=None,
    )


def _extract(
    source: FieldSource, field: str, trace: Trace, raw: dict[str, TraceSpan], generator: Span | None
) -> list[str]:
    values = _values(source, field, trace, raw, generator)
    if source.jsonpath is not None:
        values = [
            text
            for value in values
            for reached in select(_json_or_text(value), source.jsonpath)
            if (text := _text_of(reached))
        ]
    if source.regex is not None:
        pattern = linear_pattern(source.regex)
        values = [_kept_group(match) for value in values for match in pattern.finditer(value)]
    return [value.strip() for value in values if value.strip()]


def _values(
    source: FieldSource, field: str, trace: Trace, raw: dict[str, TraceSpan], generator: Span | None
) -> list[str]:
    if source.attribute is not None:
        return _attribute(source.attribute, trace, raw, generator)
    if generator is None:
        return []
    if source.message is not None:
        texts = [message.text for message in generator.messages if message.role is role(source.message)]
        if source.position is None:
            return texts if field == "documents" else texts[-1:]
        return [texts[source.position]] if -len(texts) <= source.position < len(texts) else []
    if field == "answer":
        return [generator.output_text]
    return ["\n\n".join(message.text for message in generator.messages)]


def _attribute(key: str, trace: Trace, raw: dict[str, TraceSpan], generator: Span | None) -> list[str]:
    """The generating call's value of ``key``, else the outermost span's that has it."""
    ordered = sorted(trace.spans, key=lambda s: (s is not generator, trace.depth(s), s.timestamp, s.span_id))
    for span in ordered:
        value = raw[span.span_id].attributes.get(key) if span.span_id in raw else None
        if value:
            return [value]
    return []


def _json_or_text(value: str) -> Any:
    parsed = parse_json(value)
    return value if parsed is None else parsed


def _text_of(value: Any) -> str:
    """A reached JSON value as text: a string as it is, an object by its text-like field."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return next((value[key] for key in _TEXT_FIELDS if isinstance(value.get(key), str)), "")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _kept_group(match: LinearMatch) -> str:
    text = match.groupdict().get("text")
    if text is not None:
        return text
    return match.group(1 if match.re.groups else 0) or ""


def _context_json(chunks: list[str]) -> str:
    mapped = [document(text, f"mapped:{rank}") for rank, text in enumerate(chunks, 1)]
    return json.dumps(chunk_rows(mapped, {}), ensure_ascii=False, separators=(",", ":")) if chunks else ""
