"""Failures inside ragpulse: logged and counted, never raised into the application."""

from __future__ import annotations

import logging
import threading

logger = logging.getLogger("ragpulse")

_lock = threading.Lock()
_count = 0
_sites_logged: set[str] = set()


def report_internal_error(site: str) -> None:
    """Count a failure caught at ``site``; call from an ``except`` block so the traceback is logged.

    The first failure at a site is logged as a warning with its traceback and later ones at debug, so a hook
    that fails on every request does not flood the application's log.
    """
    global _count
    with _lock:
        _count += 1
        first = site not in _sites_logged
        _sites_logged.add(site)
    if first:
        logger.warning("ragpulse: internal error in %s (tracing continues without it)", site, exc_info=True)
    else:
        logger.debug("ragpulse: internal error in %s", site, exc_info=True)


def internal_error_count() -> int:
    """How many failures ragpulse caught in its own code since the process started."""
    return _count
