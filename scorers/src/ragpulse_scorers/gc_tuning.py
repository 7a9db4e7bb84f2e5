"""Fewer garbage collections while a scoring command runs.

A turn holds its batches' candidates, judgments and score rows (lists and dataclasses the collector tracks)
until they are written, tens of thousands of objects that outlive many judgments. With CPython's default
gen0 threshold of 700 a collection then ran every few requests and rescanned them: about 0.2 s of CPU per
6,000 long-context requests, 3% of what the judge alone spends (issue 41); with the threshold below, two.
Reference counting still frees everything but cycles at once, so memory holds no more than a few
collections' worth of cyclic garbage.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

SCORER_GC_THRESHOLD: Final = (50_000, 20, 20)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The scorer's collection thresholds while the block runs; the process's own ones again after it (a
    test or an embedding process keeps its own)."""
    previous = gc.get_threshold()
    gc.set_threshold(*SCORER_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
