"""Unsupported answer sentences pulled out of a score's ``Details`` JSON, whichever judge wrote it.

Judges describe sentence-level evidence in their own shapes (the lexical judge, the TRACe support judge), so
this walks the JSON for objects that name a sentence and carry a verdict, rather than binding to one schema.
"""

from __future__ import annotations

import json
from typing import Any

_SENTENCE_KEYS = ("sentence", "answer_sentence", "response_sentence", "text", "claim")
_VERDICT_KEYS = ("supported", "fully_supported", "is_supported")
_UNSUPPORTED_LABELS = frozenset(
    {"unsupported", "not_supported", "hallucinated", "contradicted", "no", "false"}
)


def unsupported_sentences(details: str, limit: int = 5) -> list[str]:
    """Up to ``limit`` answer sentences the judge marked unsupported; [] for empty or malformed JSON."""
    try:
        parsed = json.loads(details) if details else None
    except (json.JSONDecodeError, RecursionError):
        return []
    found: list[str] = []
    _walk(parsed, found, limit)
    return list(dict.fromkeys(found))[:limit]


def _walk(node: Any, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    if isinstance(node, list):
        for item in node:
            _walk(item, found, limit)
    elif isinstance(node, dict):
        sentence = next((node[key] for key in _SENTENCE_KEYS if isinstance(node.get(key), str)), None)
        if sentence is not None and _is_unsupported(node):
            found.append(sentence)
            return
        for value in node.values():
            _walk(value, found, limit)


def _is_unsupported(node: dict[str, Any]) -> bool:
    for key in _VERDICT_KEYS:
        if isinstance(node.get(key), bool):
            return not node[key]
    verdict = node.get("verdict", node.get("label"))
    return isinstance(verdict, str) and verdict.strip().lower().replace(" ", "_") in _UNSUPPORTED_LABELS
