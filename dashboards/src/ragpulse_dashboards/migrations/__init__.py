"""The dashboards' tables: the built-in alerts' state (``ragpulse_alerts``)."""
