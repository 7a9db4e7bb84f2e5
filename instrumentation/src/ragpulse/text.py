"""Redaction and size caps for every text ragpulse records."""

from __future__ import annotations

from ragpulse import semconv
from ragpulse.internal import report_internal_error
from ragpulse.settings import ContentSettings


def cut(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` with the visible truncation marker, or unchanged when it fits."""
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + semconv.TRUNCATION_MARKER.format(dropped=len(text) - max_chars)


def redact(text: str, settings: ContentSettings) -> str:
    """Apply the redaction hook; when it fails the text is withheld rather than sent unredacted."""
    hook = settings.redact
    if hook is None:
        return text
    try:
        result = hook(text)
        if not isinstance(result, str):
            raise TypeError(f"redact hook returned {type(result).__name__}, not str")
    except Exception:
        report_internal_error("redact hook")
        return semconv.REDACTION_FAILED_MARKER
    return result


def share_cap(lengths: list[int], budget: int) -> int | None:
    """The largest per-text length at which ``lengths`` together fit ``budget``, or None when all fit.

    Short texts stay whole and only the long ones are cut, to the same length (water-filling).
    """
    total = sum(lengths)
    if total <= budget:
        return None
    remaining = budget
    ordered = sorted(lengths)
    for position, length in enumerate(ordered):
        share = remaining // (len(ordered) - position)
        if length > share:
            return share
        remaining -= length
    return None


class TextRecorder:
    """Prepares the texts of one span and remembers which attributes were cut."""

    __slots__ = ("settings", "truncated")

    def __init__(self, settings: ContentSettings) -> None:
        self.settings = settings
        self.truncated: list[str] | None = None

    def content(self, attribute: str, text: str) -> str | None:
        """A content text (question, answer, chunk...): None when capture is off, else redacted and capped."""
        if not self.settings.capture_content:
            return None
        return self.capped(attribute, redact(text, self.settings))

    def capped(self, attribute: str, text: str) -> str:
        if len(text) <= self.settings.max_text_chars:
            return text
        self.mark_truncated(attribute)
        return cut(text, self.settings.max_text_chars)

    def contents_within_budget(self, attribute: str, texts: list[str]) -> list[str] | None:
        """Texts that go into one JSON attribute: redacted, then cut so together they fit the cap.

        Cutting each text rather than the JSON string keeps the attribute valid JSON.
        """
        if not self.settings.capture_content:
            return None
        if self.settings.redact is not None:
            texts = [redact(text, self.settings) for text in texts]
        limit = share_cap([len(text) for text in texts], self.settings.max_text_chars)
        if limit is None:
            return texts
        self.mark_truncated(attribute)
        return [cut(text, limit) for text in texts]

    def mark_truncated(self, attribute: str) -> None:
        if self.truncated is None:
            self.truncated = [attribute]
        elif attribute not in self.truncated:
            self.truncated.append(attribute)
