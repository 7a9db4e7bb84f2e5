"""ragpulse collector: OTLP in, ClickHouse (server or embedded chDB) out."""
