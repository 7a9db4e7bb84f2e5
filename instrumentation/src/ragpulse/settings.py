"""What text ragpulse records: content capture, the size cap and the redaction hook."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

logger = logging.getLogger("ragpulse")

ENV_CAPTURE_CONTENT = "RAGPULSE_CAPTURE_CONTENT"
ENV_MAX_TEXT_CHARS = "RAGPULSE_MAX_TEXT_CHARS"
DEFAULT_MAX_TEXT_CHARS = 16_000

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True, slots=True)
class ContentSettings:
    capture_content: bool = True
    """False drops questions, answers, chunk texts, queries and references; ids, scores and ranks stay."""
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS
    redact: Callable[[str], str] | None = None
    """Rewrites every recorded text before it is set on a span (e.g. to mask e-mail addresses)."""


def settings_from_env(environ: Mapping[str, str] | None = None) -> ContentSettings:
    """Defaults overridden by the environment; a malformed value is logged and ignored, never raised."""
    env = os.environ if environ is None else environ
    capture = True
    raw_capture = env.get(ENV_CAPTURE_CONTENT)
    if raw_capture is not None and raw_capture.strip():
        value = raw_capture.strip().lower()
        if value in _TRUE or value in _FALSE:
            capture = value in _TRUE
        else:
            logger.warning("ragpulse: ignoring %s=%r (not true/false)", ENV_CAPTURE_CONTENT, raw_capture)
    max_chars = DEFAULT_MAX_TEXT_CHARS
    raw_max = env.get(ENV_MAX_TEXT_CHARS)
    if raw_max is not None and raw_max.strip():
        try:
            max_chars = _positive(int(raw_max))
        except ValueError:
            logger.warning("ragpulse: ignoring %s=%r (not a positive integer)", ENV_MAX_TEXT_CHARS, raw_max)
    return ContentSettings(capture_content=capture, max_text_chars=max_chars)


def _positive(value: int) -> int:
    if value < 1:
        raise ValueError(f"max_text_chars must be at least 1, got {value}")
    return value


_current = settings_from_env()


def current_settings() -> ContentSettings:
    return _current


def apply_settings(
    capture_content: bool | None = None,
    max_text_chars: int | None = None,
    redact: Callable[[str], str] | None = None,
) -> ContentSettings:
    """Replace the settings: each argument given wins over the environment, which wins over the default."""
    global _current
    base = settings_from_env()
    _current = ContentSettings(
        capture_content=base.capture_content if capture_content is None else capture_content,
        max_text_chars=base.max_text_chars if max_text_chars is None else _positive(max_text_chars),
        redact=redact,
    )
    return _current
