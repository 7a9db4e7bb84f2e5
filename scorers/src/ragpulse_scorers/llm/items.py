"""List answers read item by item: each item stands or falls on its own, and only the missing are asked again.

A judge grading twenty sub-questions in one answer may get one id wrong or one value out of range; throwing
the other nineteen away for it (and paying for them again) is what a strict whole-answer check does. Here an
invalid item is dropped when the answer is read, an item naming an id that was not asked about is ignored,
and the ids left without a valid item are asked about again, on their own, a bounded number of times.
Whatever is still missing then stays missing: it is reported as not judged, never given a default verdict.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ValidationError

from ragpulse_scorers.llm.errors import JudgeOutputInvalid

logger = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def valid_items_only(item_model: type[BaseModel]) -> BeforeValidator:
    """For ``Annotated[list[Item], valid_items_only(Item)]``: items that do not validate are dropped instead
    of failing the whole answer (the JSON Schema stays ``list[Item]``)."""

    def keep_valid(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        kept = []
        for item in value:
            try:
                item_model.model_validate(item)
            except ValidationError as exc:
                logger.debug("dropping an invalid %s: %s", item_model.__name__, exc.errors()[:1])
                continue
            kept.append(item)
        return kept

    return BeforeValidator(keep_valid)


def collect_by_id(
    wanted: Sequence[K], ask: Callable[[list[K]], Iterable[tuple[K, V]]], asks: int
) -> dict[K, V]:
    """Ask about ``wanted``, then about the ids still missing, at most ``asks`` times in all.

    ``ask`` returns (id, item) pairs; an id not asked about is ignored and a repeated id keeps its first
    item. Asking stops early when a round brings nothing new (the same question would get the same answer).
    A failure of the first ask propagates; a re-ask that yields no usable answer ends the asking.
    """
    found: dict[K, V] = {}
    missing = list(dict.fromkeys(wanted))
    for round_ in range(asks):
        if not missing:
            break
        asked = set(missing)
        try:
            answered = list(ask(missing))
        except JudgeOutputInvalid as exc:
            if round_ == 0:
                raise
            logger.info("asking again about %d items gave no usable answer: %s", len(missing), exc)
            break
        for key, item in answered:
            if key in asked and key not in found:
                found[key] = item
        still_missing = [key for key in missing if key not in found]
        if still_missing:
            logger.info("judge answered %d of %d items", len(missing) - len(still_missing), len(missing))
        if len(still_missing) == len(missing):
            break
        missing = still_missing
    return found
