"""The request fields an evaluator reads, by the names a config uses: ``answer``, ``span.http.route``...

Every kind reads the same names, so a regex, a heuristic rule and an LLM template say ``question`` alike.
A field the request does not have reads as None: the evaluator then says it has nothing to judge rather than
judging an empty string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragpulse_scorers.models import RagRequest

TEXT_FIELDS = ("question", "answer", "context", "documents", "variations", "reference")
"""Fields read from the request itself; ``documents`` is the context chunk by chunk."""
SPAN_PREFIX = "span."
RESOURCE_PREFIX = "resource."
ATTRIBUTE_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,199}"
FIELD_NAME = re.compile(rf"^(?:{'|'.join(TEXT_FIELDS)}|(?:span|resource)\.{ATTRIBUTE_NAME})$")
REQUEST_ATTRIBUTE = {"documents": "context"}
"""What the scheduler checks a request has before judging it, for fields named otherwise."""


def check_field(name: str) -> str:
    """``name`` when it is a field an evaluator can read; ValueError naming the known ones otherwise."""
    if not FIELD_NAME.match(name):
        raise ValueError(
            f"unknown field {name!r}: use one of {', '.join(TEXT_FIELDS)}, span.NAME or resource.NAME"
        )
    return name


def field_text(request: RagRequest, name: str) -> str | None:
    """The field as one text (chunks and variations one a paragraph); None when the request lacks it."""
    if name.startswith(SPAN_PREFIX):
        return request.span_attributes.get(name[len(SPAN_PREFIX) :])
    if name.startswith(RESOURCE_PREFIX):
        return request.resource_attributes.get(name[len(RESOURCE_PREFIX) :])
    if name in ("context", "documents"):
        texts = [chunk.text for chunk in request.context]
        return "\n\n".join(texts) if texts else None
    if name == "variations":
        return "\n".join(request.variations) if request.variations else None
    value = getattr(request, name)
    return value if isinstance(value, str) and value else None


def attributes_read(fields: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The span and resource attribute names among ``fields``, for the scheduler to load."""
    chosen = list(fields)
    span = sorted({name[len(SPAN_PREFIX) :] for name in chosen if name.startswith(SPAN_PREFIX)})
    resource = sorted({name[len(RESOURCE_PREFIX) :] for name in chosen if name.startswith(RESOURCE_PREFIX)})
    return tuple(span), tuple(resource)


def required_request_fields(fields: Iterable[str]) -> tuple[str, ...]:
    """The request attributes the scheduler checks before judging (``requires`` of a scorer)."""
    found = [REQUEST_ATTRIBUTE.get(name, name) for name in fields if name in TEXT_FIELDS]
    return tuple(dict.fromkeys(found))
