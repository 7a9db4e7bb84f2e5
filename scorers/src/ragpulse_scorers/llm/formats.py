"""Which structured-output format an endpoint and model accept, found out by trying and kept for the process.

Servers differ: OpenAI, vLLM and Ollama enforce ``response_format`` of type ``json_schema``; llama-cpp-python
answers it with HTTP 500 but constrains decoding to a schema given with ``json_object``; some proxies and
servers drop ``response_format`` without a word. The client starts with the strictest format and moves down
(``json_schema``, ``json_object`` with the schema, then no format at all: the prompt's example alone) when a
server rejects a format (an HTTP error that moving down cures) or ignores it (the reply is not a bare JSON
object). The prompt always shows a filled example object, so every format gets the same instructions.
"""

from __future__ import annotations

import logging
import threading
from enum import StrEnum
from typing import Any

logger = logging.getLogger(__name__)


class OutputFormat(StrEnum):
    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    PLAIN = "plain"


FORMATS = (OutputFormat.JSON_SCHEMA, OutputFormat.JSON_OBJECT, OutputFormat.PLAIN)

# Statuses that say nothing about the format: credentials, a wrong URL or model, rate limits, overload.
_NOT_ABOUT_FORMAT = frozenset({401, 403, 404, 408, 409, 429, 502, 503, 504})


def may_be_rejected_format(status_code: int) -> bool:
    """An HTTP error a server may give for a format it does not support (400, 422, llama.cpp's 500...)."""
    return status_code >= 400 and status_code not in _NOT_ABOUT_FORMAT


def response_format(output_format: OutputFormat, name: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The ``response_format`` request field for a format; None sends none."""
    if output_format is OutputFormat.JSON_SCHEMA:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
    if output_format is OutputFormat.JSON_OBJECT:
        # "schema" is llama.cpp's extension: it turns the schema into a decoding grammar. Others ignore it.
        return {"type": "json_object", "schema": schema}
    return None


class FormatNegotiation:
    """The best format not yet ruled out for one endpoint and model; thread-safe."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self._lock = threading.Lock()
        self._index = 0
        self._announced: OutputFormat | None = None

    @property
    def current(self) -> OutputFormat:
        return FORMATS[self._index]

    def confirmed(self, output_format: OutputFormat) -> bool:
        """``output_format`` has worked here already: an HTTP error now is the server failing."""
        return self._announced is output_format

    def move_past(self, output_format: OutputFormat, why: str) -> None:
        """Rule out ``output_format`` (and any better one) for this process."""
        with self._lock:
            position = FORMATS.index(output_format)
            if position + 1 < len(FORMATS) and self._index <= position:
                self._index = position + 1
                following = FORMATS[position + 1]
                logger.info("judge %s: %s output %s; trying %s", self.endpoint, output_format, why, following)

    def restore(self, output_format: OutputFormat) -> None:
        """Undo moves past ``output_format`` made in one call: every format failed the same way, so the
        server was failing, not refusing formats."""
        with self._lock:
            self._index = min(self._index, FORMATS.index(output_format))

    def worked(self, output_format: OutputFormat) -> None:
        """A reply came back in ``output_format``; say once which format this endpoint uses."""
        with self._lock:
            if self._announced is output_format or FORMATS[self._index] is not output_format:
                return
            self._announced = output_format
        logger.info("judge %s: structured output via %s", self.endpoint, output_format)


_negotiations: dict[str, FormatNegotiation] = {}
_negotiations_lock = threading.Lock()


def negotiation_for(base_url: str | None, model: str) -> FormatNegotiation:
    """The process's negotiation for an endpoint and model, shared by every client that uses them."""
    endpoint = f"{model} at {base_url or 'the OpenAI API'}"
    with _negotiations_lock:
        found = _negotiations.get(endpoint)
        if found is None:
            found = _negotiations[endpoint] = FormatNegotiation(endpoint)
        return found


def forget_negotiated_formats() -> None:
    """Start every endpoint from ``json_schema`` again (after a server was replaced; tests)."""
    with _negotiations_lock:
        _negotiations.clear()
