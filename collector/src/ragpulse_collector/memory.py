"""Giving memory back to the system after a burst of large requests (glibc's malloc; a no-op elsewhere).

Large strings (a request body, a rendered attribute) are allocated with malloc. glibc raises its mmap
threshold each time such a block is freed, up to 32 MiB, after which blocks that size come from the heap
and its arenas, which keep freed memory: a burst of large requests left gigabytes resident after the
collector went idle. Fixing the threshold keeps large blocks mmapped (returned when freed), and a
collection and a trim after a burst return what reference cycles and the arenas still hold.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging

logger = logging.getLogger(__name__)

# mallopt's parameter number for the mmap threshold (malloc.h); blocks this size and larger are mmapped.
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 1024 * 1024


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


_LIBC = _libc()


def keep_large_blocks_mapped() -> None:
    """Fix glibc's mmap threshold, so freed large blocks go back to the system at once."""
    if _LIBC is not None and not _LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES):
        logger.debug("mallopt(M_MMAP_THRESHOLD) refused")


def return_free_memory() -> None:
    """Collect garbage in reference cycles (the collector raises the thresholds, and the store's client
    leaves cycles that hold a batch's data), then return what malloc's arenas hold free (``malloc_trim``)."""
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
