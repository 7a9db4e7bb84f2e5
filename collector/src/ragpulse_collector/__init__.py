"""ragpulse collector: OTLP/HTTP in, ClickHouse (server or embedded chDB) out."""

from ragpulse_collector.store import Store, StoreUnavailable

__all__ = ["Store", "StoreUnavailable"]
