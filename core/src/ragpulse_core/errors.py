"""The Store's errors, apart from the Store so the command front can catch them without loading a driver."""

from __future__ import annotations


class StoreUnavailable(Exception):
    """The database could not be reached or refused the operation; callers may retry later."""


class InvalidDsn(ValueError):
    """A DSN the Store cannot open: an unknown scheme, or an embedded path that cannot hold a database."""


class StoreMissing(StoreUnavailable):
    """A command that only reads found no embedded database at the DSN's path (and created none)."""
