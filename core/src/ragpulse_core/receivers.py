"""Finding the installed trace receiver without importing it.

``ragpulse serve`` and the demo run a receiver in the scorers' process, yet the scorers never import the
collector: the collector registers a factory in the ``ragpulse.receivers`` entry-point group, and this
module loads it by name when a command asks.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Protocol

from ragpulse_core.errors import ReceiverNotInstalled
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

RECEIVERS_GROUP = "ragpulse.receivers"
DEFAULT_RECEIVER = "otlp"


class Receiver(Protocol):
    """A trace receiver running beside other work in one process."""

    @property
    def url(self) -> str:
        """Base URL it listens on, once started."""
        ...

    def start(self) -> None:
        """Listen in background threads."""
        ...

    def stop(self) -> None:
        """Stop listening and write what is queued."""
        ...

    def tune_process(self) -> None:
        """Adjust process-wide settings (the garbage collector) for a process that mainly receives."""
        ...


ReceiverFactory = Callable[[RagpulseSettings, Store], Receiver]


def load_receiver(name: str = DEFAULT_RECEIVER) -> ReceiverFactory:
    for entry_point in entry_points(group=RECEIVERS_GROUP, name=name):
        factory: ReceiverFactory = entry_point.load()
        return factory
    raise ReceiverNotInstalled(
        f"no trace receiver {name!r} is installed: install ragpulse-collector beside ragpulse-scorers"
    )
