"""Deterministic sampling and sharding on ``SampleKey`` (``cityHash64(TraceId)``).

The low four decimal digits decide sampling (``SampleKey % 10000 < rate * 10000``), so every scorer and every
variant keeps the same requests and a higher rate keeps a superset. The digits above them decide the shard
(``intDiv(SampleKey, 10000) % N == i``), so sharding does not change which requests are sampled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SAMPLE_BUCKETS = 10_000

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def sample_threshold(rate: float) -> int:
    """Buckets kept at ``rate``: a request is sampled when ``SampleKey % SAMPLE_BUCKETS`` is below this."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"sample rate must be between 0 and 1, got {rate}")
    return round(rate * SAMPLE_BUCKETS)


@dataclass(frozen=True)
class Shard:
    """Worker ``index`` of ``count`` workers sharing the scoring."""

    index: int = 0
    count: int = 1

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"i/N"`` with ``0 <= i < N``."""
        match = _SHARD.match(text)
        if not match:
            raise ValueError(f"shard must look like i/N (for example 0/4), got {text!r}")
        index, count = int(match.group(1)), int(match.group(2))
        if count < 1 or index >= count:
            raise ValueError(f"shard {text!r}: need N >= 1 and 0 <= i < N")
        return cls(index, count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
