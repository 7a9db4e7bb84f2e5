"""The ``[alerts]`` and ``[live]`` settings: the scorers' settings plus what the dashboards read.

Environment: ``RAGPULSE_ALERTS__WINDOW_MINUTES=30``, ``RAGPULSE_LIVE__PORT=4400`` and so on.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from ragpulse_core.settings import SettingsSection
from ragpulse_core.tokens import checked_token
from ragpulse_scorers.settings import ScorersSettings


class AlertSettings(SettingsSection):
    hallucination_threshold: float = Field(0.2, ge=0, le=1)
    window_minutes: float = Field(60.0, gt=0)
    min_samples: int = Field(30, ge=1)
    webhook_url: str | None = None
    enabled: bool = Field(True, description="Run the built-in alert job beside the scorer")
    interval_s: float = Field(60.0, gt=0, description="Seconds between alert evaluations")
    resolve_margin: float = Field(
        0.0, ge=0, le=1, description="A firing rate alert resolves once its upper bound < threshold − margin"
    )
    baseline_days: float = Field(7.0, gt=0, description="Support-rate drop is tested against this many days")
    judge_error_threshold: float = Field(0.1, ge=0, le=1, description="Share of judged requests that errored")
    stall_grace_minutes: float = Field(5.0, ge=0, description="Requests younger than this need no score yet")
    stall_min_requests: int = Field(10, ge=1, description="Requests in the window before a stall can fire")
    webhook_timeout_s: float = Field(5.0, gt=0)
    corrected_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Fire when the hallucination rate corrected for the free judge's measured errors is above"
        " this (its interval's lower bound); unset: no such alert",
    )


class LiveSettings(SettingsSection):
    """The live report page ``ragpulse serve`` runs beside the collector, on a port of its own.

    It shows traced questions and answers, so it asks for a token: ``read_token`` (or ``read_token_file``),
    else the collector's ingest token, else one made for the run and printed once at start.
    """

    enabled: bool = Field(True, description="Serve the live report while `ragpulse serve` runs")
    host: str = "127.0.0.1"
    port: int = Field(4319, ge=0, le=65535, description="0 picks a free port")
    window_hours: float = Field(24.0, gt=0, description="The page reports requests this recent")
    refresh_s: int = Field(15, ge=1, description="The page reloads itself this often")
    read_token: SecretStr | None = Field(
        None, description="Token that opens the page (default: the collector's ingest token)"
    )
    read_token_file: Path | None = Field(None, description="A file holding the read token (kept out of argv)")
    write_token: SecretStr | None = Field(
        None,
        description="When set, labelling requests on the page needs this token too (default: any reader)",
    )
    write_token_file: Path | None = Field(None, description="A file holding the write token")
    allowed_hosts: list[str] = Field(
        default_factory=lambda: ["localhost"],
        description="Host names the page answers to (IP addresses always): others are refused, which"
        " defeats DNS rebinding; add the name people use when the page listens beyond loopback",
    )
    cache_s: float = Field(
        5.0, ge=0, description="A render is shared by every reader of the same view for this long"
    )
    header_timeout_s: float = Field(
        10.0, gt=0, description="A connection without a complete request head, or idle, this long is closed"
    )
    sign_in_attempts: int = Field(
        10, ge=1, description="Wrong tokens one client may try per sign_in_window_s; past it 429"
    )
    sign_in_window_s: float = Field(60.0, gt=0, description="The window sign_in_attempts counts in")

    @field_validator("read_token", "write_token")
    @classmethod
    def _token_not_blank(cls, token: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        return checked_token(token, f"live.{info.field_name}")


class DashboardsSettings(ScorersSettings):
    alerts: AlertSettings = Field(default_factory=AlertSettings)
    live: LiveSettings = Field(default_factory=LiveSettings)
