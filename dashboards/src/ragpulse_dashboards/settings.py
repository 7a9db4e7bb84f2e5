"""The ``[alerts]`` and ``[live]`` settings: the scorers' settings plus what the dashboards read.

Environment: ``RAGPULSE_ALERTS__WINDOW_MINUTES=30``, ``RAGPULSE_LIVE__PORT=4400`` and so on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import SplitResult, urlsplit

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from ragpulse_core.settings import SettingsSection
from ragpulse_core.tokens import checked_token
from ragpulse_scorers.settings import ScorersSettings

PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue"
Severity = Literal["critical", "error", "warning", "info"]


def _http_url(url: SecretStr | None) -> SecretStr | None:
    """An http(s) URL with a host; the error never repeats the URL, which holds the destination's secret."""
    if url is None:
        return None
    parts = urlsplit(url.get_secret_value().strip())
    if not _is_http(parts):
        raise ValueError(
            "must be an http:// or https:// URL with a host (not shown here: it may hold a secret)"
        )
    return SecretStr(parts.geturl())


def _is_http(parts: SplitResult) -> bool:
    try:
        parts.port  # noqa: B018 - raises on a port out of range
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and not any(char.isspace() for char in parts.netloc)
    )


class _Destination(SettingsSection):
    kind: str
    name: str = Field("", description="How logs, the report and the live page name it (default: its kind)")
    timeout_s: float = Field(5.0, gt=0, description="One attempt's timeout")

    @property
    def label(self) -> str:
        return self.kind if self.name in ("", self.kind) else f"{self.name} ({self.kind})"

    def secrets(self) -> list[str]:
        """Every secret value it holds (URLs, keys, header values): logs and errors mask them."""
        found: list[str] = []
        for value in self.__dict__.values():
            held = value.values() if isinstance(value, dict) else [value]
            found += [item.get_secret_value() for item in held if isinstance(item, SecretStr)]
        return found


class SlackDestination(_Destination):
    """A Slack incoming webhook: a message of Block Kit blocks on fire and on resolve."""

    kind: Literal["slack"] = Field(description="Which kind of destination this table is")
    url: SecretStr = Field(description="The incoming-webhook URL (secret: it carries the token)")

    _url = field_validator("url")(_http_url)


class PagerDutyDestination(_Destination):
    """PagerDuty Events API v2: trigger on fire, resolve on resolve, one dedup key per alert episode."""

    kind: Literal["pagerduty"] = Field(description="Which kind of destination this table is")
    routing_key: SecretStr = Field(description="The integration key of an Events API v2 integration")
    url: SecretStr = Field(
        SecretStr(PAGERDUTY_EVENTS_URL), description="Events endpoint (EU accounts differ)"
    )
    severity: Severity | None = Field(None, description="Every alert's severity (default: by rule)")

    _url = field_validator("url")(_http_url)

    @field_validator("routing_key")
    @classmethod
    def _key_not_blank(cls, key: SecretStr) -> SecretStr:
        stripped = key.get_secret_value().strip()
        if not stripped:
            raise ValueError("is blank")
        return SecretStr(stripped)


class WebhookDestination(_Destination):
    """Any HTTP endpoint: one JSON document per change, schema ``ragpulse.alert.v1``."""

    kind: Literal["webhook"] = Field(description="Which kind of destination this table is")
    url: SecretStr = Field(description="Where the JSON is posted (secret: it may carry a token)")
    headers: dict[str, SecretStr] = Field(
        default_factory=dict, description="Sent with every post, e.g. Authorization (values are secret)"
    )

    _url = field_validator("url")(_http_url)


Destination = Annotated[
    SlackDestination | PagerDutyDestination | WebhookDestination, Field(discriminator="kind")
]
LEGACY_WEBHOOK = "webhook"


class AlertSettings(SettingsSection):
    hallucination_threshold: float = Field(
        0.2, ge=0, le=1, description="Fire once the hallucination rate's 95% lower bound is above this"
    )
    window_minutes: float = Field(60.0, gt=0, description="The window each rate alert is evaluated over")
    min_samples: int = Field(30, ge=1, description="Judged requests a window needs before an alert may fire")
    webhook_url: SecretStr | None = Field(
        None, description="A Slack-compatible webhook: the same as a slack destination named 'webhook'"
    )
    enabled: bool = Field(True, description="Run the built-in alert job beside the scorer")
    interval_s: float = Field(60.0, gt=0, description="Seconds between alert evaluations")
    resolve_margin: float = Field(
        0.0, ge=0, le=1, description="A firing rate alert resolves once its upper bound < threshold − margin"
    )
    baseline_days: float = Field(7.0, gt=0, description="Support-rate drop is tested against this many days")
    judge_error_threshold: float = Field(0.1, ge=0, le=1, description="Share of judged requests that errored")
    stall_grace_minutes: float = Field(5.0, ge=0, description="Requests younger than this need no score yet")
    stall_min_requests: int = Field(10, ge=1, description="Requests in the window before a stall can fire")
    webhook_timeout_s: float = Field(5.0, gt=0, description="One attempt's timeout for webhook_url")
    destinations: list[Destination] = Field(
        default_factory=list, description="Where fired and resolved alerts are sent ([[alerts.destinations]])"
    )
    link_url: str | None = Field(
        None, description="The page notifications link to, with ?service=NAME (e.g. the live page's URL)"
    )
    delivery_attempts: int = Field(5, ge=1, description="Tries per notification, the first included")
    delivery_backoff_s: float = Field(1.0, gt=0, description="Wait before the first retry; doubles each time")
    delivery_backoff_max_s: float = Field(30.0, gt=0, description="Longest wait between two tries")
    delivery_deadline_s: float = Field(
        30.0,
        gt=0,
        description="An evaluation waits this long at most for its notifications, retries included",
    )
    corrected_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Fire when the hallucination rate corrected for the free judge's measured errors is above"
        " this (its interval's lower bound); unset: no such alert",
    )

    pass_rates: dict[str, float] = Field(
        default_factory=dict,
        description="[alerts.pass_rates] evaluator name = the lowest pass rate it may have: fires when the"
        " 95% interval of its pass rate lies below this, per service and variant",
    )

    _webhook_url = field_validator("webhook_url")(_http_url)

    @field_validator("pass_rates")
    @classmethod
    def _rates_are_shares(cls, rates: dict[str, float]) -> dict[str, float]:
        for name, rate in rates.items():
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"pass_rates.{name} = {rate}: a share between 0 and 1")
        return rates

    @field_validator("webhook_url", mode="before")
    @classmethod
    def _blank_webhook_is_none(cls, value: object) -> object:
        """Compose passes ``${RAGPULSE_ALERT_WEBHOOK_URL:-}``: an empty value means no webhook, as before."""
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        return None if isinstance(text, str) and not text.strip() else value

    @field_validator("link_url")
    @classmethod
    def _link_is_http(cls, url: str | None) -> str | None:
        if url is not None and not _is_http(urlsplit(url)):
            raise ValueError("must be an http:// or https:// URL with a host")
        return url

    @model_validator(mode="after")
    def _names_unique(self) -> AlertSettings:
        names = [destination.label for destination in self.notified()]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(
                f"two alert destinations are named {', '.join(repeated)}: give each its own `name`"
            )
        return self

    def notified(self) -> list[SlackDestination | PagerDutyDestination | WebhookDestination]:
        """Every destination, the single ``webhook_url`` first (as a slack destination named 'webhook')."""
        legacy = (
            [SlackDestination(kind="slack", name=LEGACY_WEBHOOK, url=self.webhook_url,
                              timeout_s=self.webhook_timeout_s)]
            if self.webhook_url is not None
            else []
        )  # fmt: skip
        return [*legacy, *self.destinations]


class LiveSettings(SettingsSection):
    """The live report page ``ragpulse serve`` runs beside the collector, on a port of its own.

    It shows traced questions and answers, so it asks for a token: ``read_token`` (or ``read_token_file``),
    else the collector's ingest token, else one made for the run and printed once at start.
    """

    enabled: bool = Field(True, description="Serve the live report while `ragpulse serve` runs")
    host: str = Field(
        "127.0.0.1", description="Address the page listens on (beyond loopback: set allowed_hosts)"
    )
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


# Dimensions ragpulse slices every request by; a configured attribute may not take one of their names.
BUILT_IN_DIMENSIONS = frozenset(
    {"service", "variant", "pipeline", "model", "model version", "template version", "topic", "document",
     "source"}
)  # fmt: skip


class RootCauseSettings(SettingsSection):
    """Where a change sits (``[rootcause]``): the dimensions beyond the built-in ones, and the job that keeps
    each judged request's slices and question topic."""

    enabled: bool = Field(True, description="Run the root-cause job beside the scorer")
    interval_s: float = Field(60.0, gt=0, description="Seconds between runs of the root-cause job")
    attributes: list[str] = Field(
        default_factory=list,
        description="Span or resource attributes to slice by, e.g. customer.tier, cloud.region,"
        " deployment.environment (the root span's value, else its resource's)",
    )
    max_topics: int = Field(40, ge=2, le=500, description="Most question topics one fit finds")
    topic_sample: int = Field(
        20_000, ge=100, description="Distinct questions a topic fit reads (the same ones each time)"
    )
    refit_hours: float = Field(24.0, gt=0, description="Topics are learnt again from traffic this often")
    fit_days: float = Field(7.0, gt=0, description="Topics are learnt from the questions of this many days")

    @field_validator("attributes")
    @classmethod
    def _attribute_names(cls, names: list[str]) -> list[str]:
        for name in names:
            if not name.strip() or len(name) > 200 or not name.isprintable():
                raise ValueError(f"an attribute name must be printable, 1-200 characters: {name[:40]!r}")
            if name in BUILT_IN_DIMENSIONS:
                raise ValueError(f"{name!r} is a built-in dimension; name the attribute differently")
        if len(set(names)) != len(names):
            raise ValueError("an attribute is named twice")
        return names


class DashboardsSettings(ScorersSettings):
    alerts: AlertSettings = Field(default_factory=AlertSettings)
    live: LiveSettings = Field(default_factory=LiveSettings)
    rootcause: RootCauseSettings = Field(default_factory=RootCauseSettings)

    @model_validator(mode="after")
    def _pass_rates_name_verdicts(self) -> DashboardsSettings:
        """A pass-rate alert names an evaluator of this config that gives a verdict."""
        definitions = self.evaluators.definitions()
        for name in self.alerts.pass_rates:
            definition = definitions.get(name)
            if definition is None:
                known = ", ".join(sorted(definitions)) or "none defined"
                raise ValueError(f"alerts.pass_rates: no evaluator {name!r} (evaluators: {known})")
            if not definition.gives_verdict:
                raise ValueError(f"alerts.pass_rates: evaluator {name!r} gives no pass/fail verdict")
        return self
