"""Answer sentences and their verdicts pulled out of a score's ``Details`` JSON, whichever judge wrote it.

Judges describe sentence-level evidence in their own shapes (the lexical judge, the TRACe support judge), so
this walks the JSON for objects that name a sentence and carry a verdict, rather than binding to one schema.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

_SENTENCE_KEYS = ("sentence", "answer_sentence", "response_sentence", "text", "claim")
_VERDICT_KEYS = ("supported", "fully_supported", "is_supported")
_UNSUPPORTED_LABELS = frozenset(
    {"unsupported", "not_supported", "hallucinated", "contradicted", "no", "false"}
)
_SUPPORTED_LABELS = frozenset({"supported", "fully_supported", "grounded", "yes", "true"})
_NO_CLAIM = "no_claim"
_EVIDENCE_KEYS = ("evidence", "supporting_text", "quote")
_CHUNK_KEYS = ("chunk_id", "document_id", "doc_id")


@dataclass(frozen=True)
class JudgedSentence:
    """One answer sentence as a judge's details describe it."""

    sentence: str
    supported: bool | None
    """None: the judge found no claim in it to check."""
    evidence: str = ""
    """The context text the judge found for it ("" when none)."""
    chunk_id: str = ""


def unsupported_sentences(details: str, limit: int = 5) -> list[str]:
    """Up to ``limit`` answer sentences the judge marked unsupported; [] for empty or malformed JSON."""
    found = [judged.sentence for judged in judged_sentences(details) if judged.supported is False]
    return list(dict.fromkeys(found))[:limit]


def judged_sentences(details: str, limit: int = 1000) -> list[JudgedSentence]:
    """Up to ``limit`` answer sentences a judge's details give a verdict on, each with the context text and
    chunk it found; [] for empty or malformed JSON."""
    try:
        parsed = json.loads(details) if details else None
    except (json.JSONDecodeError, RecursionError):
        return []
    found: list[JudgedSentence] = []
    _collect(parsed, found, limit)
    return found


def _collect(node: Any, found: list[JudgedSentence], limit: int) -> None:
    if len(found) >= limit:
        return
    if isinstance(node, list):
        for item in node:
            _collect(item, found, limit)
    elif isinstance(node, dict):
        sentence = next((node[key] for key in _SENTENCE_KEYS if isinstance(node.get(key), str)), None)
        verdict = _verdict(node)
        if sentence is not None and verdict != "":
            evidence = next((node[key] for key in _EVIDENCE_KEYS if isinstance(node.get(key), str)), "")
            chunk = next((node[key] for key in _CHUNK_KEYS if isinstance(node.get(key), str | int)), "")
            found.append(JudgedSentence(sentence, verdict if verdict is None else bool(verdict), evidence,
                                        str(chunk)))  # fmt: skip
            return
        for value in node.values():
            _collect(value, found, limit)


def _verdict(node: dict[str, Any]) -> bool | str | None:
    """True (supported), False (not), None (no claim in it), "" (the node gives no verdict)."""
    for key in _VERDICT_KEYS:
        if isinstance(node.get(key), bool):
            return bool(node[key])
    verdict = node.get("verdict", node.get("label"))
    if not isinstance(verdict, str):
        return ""
    said = verdict.strip().lower().replace(" ", "_")
    if said in _UNSUPPORTED_LABELS:
        return False
    if said in _SUPPORTED_LABELS:
        return True
    return None if said == _NO_CLAIM else ""
