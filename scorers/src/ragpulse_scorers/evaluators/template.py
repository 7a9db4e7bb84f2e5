"""An LLM evaluator's user template: ``{question}``, ``{documents}``, ``{span.NAME}`` filled with fenced data.

Only ``{name}`` where name is a request field is a variable; every other brace is the team's text (a JSON
example in a prompt keeps its braces). A brace around a plain word that is no field (``{qestion}``) is
refused when the config loads, since it is almost always a typo that would send the judge the literal text.

Every value goes in as the built-in judges' data does (:func:`~ragpulse_scorers.llm.prompting.fence`): in an
element it cannot close, so the judge client's check for text addressed to the judge reads it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpulse_scorers.evaluators.fields import (
    ATTRIBUTE_NAME,
    RESOURCE_PREFIX,
    SPAN_PREFIX,
    TEXT_FIELDS,
    field_text,
)
from ragpulse_scorers.llm.prompting import fence
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.scorer import NotApplicable

_VARIABLE = re.compile(rf"\{{((?:{'|'.join(TEXT_FIELDS)})|(?:span|resource)\.{ATTRIBUTE_NAME})\}}")
_WORD_IN_BRACES = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_.:/-]+)?)\}")


@dataclass(frozen=True)
class Template:
    text: str
    fields: tuple[str, ...]
    """The request fields it uses, each once, in order of first use."""

    def render(self, request: RagRequest) -> str:
        """The template with every variable filled; NotApplicable when the request lacks one."""
        values = {name: fenced_value(request, name) for name in self.fields}
        return _VARIABLE.sub(lambda match: values[match.group(1)], self.text)


def parse_template(text: str) -> Template:
    """The template's variables; ValueError for a word in braces that names no request field."""
    for match in _WORD_IN_BRACES.finditer(text):
        if not _VARIABLE.fullmatch(match.group()):
            raise ValueError(
                f"unknown variable {match.group()}: use {', '.join('{' + f + '}' for f in TEXT_FIELDS)},"
                " {span.NAME} or {resource.NAME} (other braces are kept as text)"
            )
    fields = tuple(dict.fromkeys(match.group(1) for match in _VARIABLE.finditer(text)))
    return Template(text, fields)


def fenced_value(request: RagRequest, name: str) -> str:
    """One variable's value as fenced data."""
    if name == "documents":
        if not request.context:
            raise NotApplicable("the request has no documents")
        return "\n".join(
            fence("document", chunk.text, n=index) for index, chunk in enumerate(request.context, start=1)
        )
    if name == "variations":
        if not request.variations:
            raise NotApplicable("the request has no query variations")
        numbered = "\n".join(f"{index}. {text}" for index, text in enumerate(request.variations, start=1))
        return fence("variations", numbered)
    value = field_text(request, name)
    if value is None:
        raise NotApplicable(f"the request has no {_described(name)}")
    if name.startswith((SPAN_PREFIX, RESOURCE_PREFIX)):
        where, _, attribute = name.partition(".")
        return fence("attribute", value, name=attribute, of=where)
    return fence(name, value)


def _described(name: str) -> str:
    if name.startswith(SPAN_PREFIX):
        return f"span attribute {name[len(SPAN_PREFIX) :]!r}"
    if name.startswith(RESOURCE_PREFIX):
        return f"resource attribute {name[len(RESOURCE_PREFIX) :]!r}"
    return name
