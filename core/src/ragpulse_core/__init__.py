"""ragpulse core: the Store, settings, schema migrations and the ``ragpulse`` command front.

The collector and the scorers both build on this package and never on each other.
"""

from ragpulse_core.store import Store, StoreUnavailable

__all__ = ["Store", "StoreUnavailable"]
