"""Judgments already paid for: an in-memory LRU in front of the ``ragpulse_judge_cache`` table."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ragpulse_core.store import StoreUnavailable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

logger = logging.getLogger(__name__)

CACHE_TABLE = "ragpulse_judge_cache"
_CACHE_COLUMNS = ("Key", "Model", "PromptVersion", "Response", "InputTokens", "OutputTokens", "CreatedAt")


@dataclass(frozen=True)
class CachedJudgment:
    response: str  # the validated JSON
    input_tokens: int
    output_tokens: int


def cache_key(model: str, prompt_version: str, system: str, user: str, schema: dict[str, Any]) -> str:
    """sha256 over everything that decides the answer; unambiguous because the parts are JSON-encoded."""
    material = json.dumps([model, prompt_version, system, user, schema], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class JudgeCache:
    """A store that is down only costs cache hits: lookups miss and writes are skipped, with a warning."""

    def __init__(self, store: Store | None = None, max_entries: int = 4096) -> None:
        self._store = store
        self._max_entries = max_entries
        self._memory: OrderedDict[str, CachedJudgment] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedJudgment | None:
        with self._lock:
            hit = self._memory.get(key)
            if hit is not None:
                self._memory.move_to_end(key)
                return hit
        if self._store is None:
            return None
        try:
            rows = self._store.query(
                f"SELECT Response, InputTokens, OutputTokens FROM {self._store.table(CACHE_TABLE)}"
                " WHERE Key = {key:String} ORDER BY CreatedAt DESC LIMIT 1",
                {"key": key},
            )
        except StoreUnavailable as exc:
            logger.warning("judge cache lookup failed (%s); judging again", exc)
            return None
        if not rows:
            return None
        response, input_tokens, output_tokens = rows[0]
        found = CachedJudgment(str(response), int(input_tokens), int(output_tokens))
        self._remember(key, found)
        return found

    def put(self, key: str, model: str, prompt_version: str, judgment: CachedJudgment) -> None:
        self._remember(key, judgment)
        if self._store is None:
            return
        row = [
            key,
            model,
            prompt_version,
            judgment.response,
            judgment.input_tokens,
            judgment.output_tokens,
            datetime.now(UTC),
        ]
        try:
            self._store.insert(CACHE_TABLE, [row], _CACHE_COLUMNS)
        except StoreUnavailable as exc:
            logger.warning("judge cache write failed (%s); this judgment is cached in memory only", exc)

    def _remember(self, key: str, judgment: CachedJudgment) -> None:
        with self._lock:
            self._memory[key] = judgment
            self._memory.move_to_end(key)
            while len(self._memory) > self._max_entries:
                self._memory.popitem(last=False)
