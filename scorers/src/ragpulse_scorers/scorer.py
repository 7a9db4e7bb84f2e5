"""The scorer interface every judge implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ragpulse_scorers.models import RagRequest, Score


class NotApplicable(Exception):
    """The scorer has nothing to judge in this request (no reference answer, no variations, ...).

    The scheduler logs the request as skipped with this message as the reason; it is not an error.
    """


@runtime_checkable
class Scorer(Protocol):
    """``name`` and ``version`` identify the scores; a new version re-scores and replaces old rows.

    ``requires`` names the request fields (``context``, ``variations``, ``reference``...) without which the
    scorer has nothing to judge: the scheduler skips such requests with that reason, without calling it.

    A scorer that costs nothing per request (no model, no network) may also set ``free = True``: the scheduler
    then applies limits sized to the collector's throughput (``[scorer.free]``) instead of a paid judge's.
    One that reads span or resource attributes names them in ``attributes`` (see :func:`attributes_read`).
    """

    name: str
    version: str
    requires: tuple[str, ...]

    def score(self, request: RagRequest) -> list[Score]:
        """Judge one request. Raise :class:`NotApplicable` to skip it; any other exception fails it."""
        ...


def attributes_read(scorer: Scorer) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The span and resource attributes the scorer reads from ``RagRequest.span_attributes`` and
    ``resource_attributes`` (``attributes = (span_names, resource_names)``); none unless it says."""
    span, resource = getattr(scorer, "attributes", ((), ()))
    return tuple(span), tuple(resource)


def is_free(scorer: Scorer) -> bool:
    """The scorer says it costs nothing per request (``free = True``); an unmarked scorer counts as paid."""
    return getattr(scorer, "free", False) is True
