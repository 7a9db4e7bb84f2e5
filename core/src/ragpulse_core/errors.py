"""The Store's errors, apart from the Store so the command front can catch them without loading a driver."""

from __future__ import annotations


class StoreUnavailable(Exception):
    """The database could not be reached or refused the operation; callers may retry later."""


class StoreRefused(StoreUnavailable):
    """The database, reached, refused the data itself: retrying the same rows fails the same way.

    A subclass so that callers which only retry keep working; the collector's writer tells the two apart
    and sets refused rows aside instead of retrying them forever.
    """


class InvalidDsn(ValueError):
    """A DSN the Store cannot open: an unknown scheme, or an embedded path that cannot hold a database."""


class StoreMissing(StoreUnavailable):
    """A command that only reads found no embedded database at the DSN's path (and created none)."""


class ReceiverNotInstalled(LookupError):
    """No installed part provides the trace receiver a command (``serve``, ``demo``) needs."""
