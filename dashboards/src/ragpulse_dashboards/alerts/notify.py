"""Telling every destination about the alerts an evaluation fired or resolved, and recording how it went.

Destinations are served side by side, each on its own thread and in order (a chat webhook limits messages per
second; one destination that is down delays no other), all within ``alerts.delivery_deadline_s``: the
evaluation records its state whatever the destinations do. Every notification's outcome becomes a row of
``ragpulse_alert_deliveries`` (migration 0066), which the report and the live page read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import httpx
from ragpulse_core.secrets import mask
from ragpulse_core.store import Store

from ragpulse_dashboards.alerts import payloads
from ragpulse_dashboards.alerts.delivery import Outcome, Post, RetryPolicy, send
from ragpulse_dashboards.alerts.state import AlertRecord
from ragpulse_dashboards.settings import (
    AlertSettings,
    PagerDutyDestination,
    SlackDestination,
    WebhookDestination,
)

logger = logging.getLogger(__name__)

AnyDestination = SlackDestination | PagerDutyDestination | WebhookDestination
TABLE: Final = "ragpulse_alert_deliveries"
# How long past the deadline the evaluation waits for a sender to notice it.
_GRACE_S: Final = 1.0
COLUMNS: Final = (
    "AlertId", "Event", "Destination", "Kind", "Rule", "ServiceName", "Variant", "Scorer", "Summary",
    "Delivered", "Attempts", "HttpStatus", "LastError", "FirstAttemptAt", "LastAttemptAt",
)  # fmt: skip


@dataclass(frozen=True)
class Delivery:
    """One alert change told (or not) to one destination."""

    record: AlertRecord
    destination: str
    kind: str
    outcome: Outcome

    def row(self) -> list[Any]:
        key, outcome = self.record.key, self.outcome
        return [
            self.record.alert_id, self.record.state, self.destination, self.kind, key.rule, key.service,
            key.variant, key.scorer, self.record.summary, outcome.delivered, outcome.attempts, outcome.status,
            outcome.error, outcome.first_at, outcome.last_at,
        ]  # fmt: skip


def notify(store: Store, settings: AlertSettings, records: Sequence[AlertRecord]) -> list[Delivery]:
    """Send each changed alert to every destination, record every outcome, and return them.

    Returns by the deadline (and a moment's grace) even when an answer trickles in byte by byte, which no
    per-read timeout stops: what is still being sent then is recorded as not delivered.
    """
    destinations = settings.notified()
    if not records or not destinations:
        return []
    policy = RetryPolicy(
        settings.delivery_attempts, settings.delivery_backoff_s, settings.delivery_backoff_max_s
    )
    deadline = time.monotonic() + settings.delivery_deadline_s
    ended: list[Delivery] = []  # appended by the senders as each notification ends
    client = httpx.Client(follow_redirects=False)
    # Daemon threads: one stuck past the deadline neither delays this evaluation nor the process's exit.
    senders = [
        threading.Thread(
            target=_serve,
            args=(client, destination, records, settings.link_url, policy, deadline, ended),
            name=f"ragpulse-notify-{index}",
            daemon=True,
        )
        for index, destination in enumerate(destinations)
    ]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(max(0.0, deadline + _GRACE_S - time.monotonic()))
    deliveries = list(ended)
    if not any(sender.is_alive() for sender in senders):
        client.close()
    told = {(delivery.destination, delivery.record.alert_id) for delivery in deliveries}
    deliveries += [
        _unfinished(destination, record)
        for destination in destinations
        for record in records
        if (destination.label, record.alert_id) not in told
    ]
    store.insert(TABLE, [delivery.row() for delivery in deliveries], COLUMNS)
    return deliveries


def failures(deliveries: Sequence[Delivery], record: AlertRecord) -> str:
    """What went wrong telling ``record`` (the alert's ``notify_error``): "" when every destination got it."""
    return "; ".join(
        f"{delivery.destination}: {delivery.outcome.error}"
        for delivery in deliveries
        if delivery.record.alert_id == record.alert_id and not delivery.outcome.delivered
    )


def _serve(
    client: httpx.Client,
    destination: AnyDestination,
    records: Sequence[AlertRecord],
    link_url: str | None,
    policy: RetryPolicy,
    deadline: float,
    ended: list[Delivery],
) -> None:
    for record in records:
        try:
            outcome = send(client, _post(destination, record, link_url), policy, deadline)
        except Exception as exc:  # a notification that cannot even be built must not stop the evaluation
            now = datetime.now(UTC)
            said = mask(f"could not send: {type(exc).__name__}: {exc}", destination.secrets())
            outcome = Outcome(False, 0, 0, said, now, now)
        if not outcome.delivered:
            logger.error(
                "alert notification failed: %s %s to %s: %s",
                record.state, record.key.rule, destination.label, outcome.error,
            )  # fmt: skip
        ended.append(Delivery(record, destination.label, destination.kind, outcome))


def _unfinished(destination: AnyDestination, record: AlertRecord) -> Delivery:
    now = datetime.now(UTC)
    error = "still sending when the delivery deadline passed (an answer too slow, or a slow name lookup)"
    logger.error(
        "alert notification failed: %s %s to %s: %s", record.state, record.key.rule, destination.label, error
    )
    return Delivery(record, destination.label, destination.kind, Outcome(False, 1, 0, error, now, now))


def _post(destination: AnyDestination, record: AlertRecord, link_url: str | None) -> Post:
    secrets = destination.secrets()
    url = destination.url.get_secret_value()
    match destination:
        case SlackDestination():
            return Post(url, payloads.slack_message(record, link_url), destination.timeout_s, secrets)
        case PagerDutyDestination():
            event = payloads.pagerduty_event(
                record, destination.routing_key.get_secret_value(), destination.severity, link_url
            )
            return Post(url, event, destination.timeout_s, secrets)
        case WebhookDestination():
            headers = {name: value.get_secret_value() for name, value in destination.headers.items()}
            return Post(
                url, payloads.webhook_event(record, link_url), destination.timeout_s, secrets, headers
            )


@dataclass(frozen=True)
class Notified:
    """A recorded notification, as the report lists it."""

    alert_id: str
    event: str
    destination: str
    kind: str
    rule: str
    service: str
    variant: str
    scorer: str
    summary: str
    delivered: bool
    attempts: int
    status: int
    error: str
    at: datetime


@dataclass(frozen=True)
class NotificationLog:
    """What the report shows of a window's notifications: the failed ones (newest first, at most a page)
    and how many failed and were delivered in all."""

    failed: list[Notified] = field(default_factory=list)
    failed_total: int = 0
    delivered_total: int = 0


def load_deliveries(
    store: Store, since: datetime, service: str | None, *, failed_only: bool = False, limit: int = 200
) -> list[Notified]:
    """Notifications since ``since`` (of ``service`` when given), failed ones first, newest first; none on a
    store migrated before the table existed."""
    if not _recorded(store):
        return []
    rows = store.query_dicts(
        f"SELECT {', '.join(COLUMNS)} FROM {store.table(TABLE)} WHERE {_WINDOW}"
        f"{' AND NOT Delivered' if failed_only else ''}"
        " ORDER BY Delivered, LastAttemptAt DESC LIMIT {limit:UInt32}",
        {**_window(since, service), "limit": limit},
    )
    return [
        Notified(
            alert_id=row["AlertId"],
            event=row["Event"],
            destination=row["Destination"],
            kind=row["Kind"],
            rule=row["Rule"],
            service=row["ServiceName"],
            variant=row["Variant"],
            scorer=row["Scorer"],
            summary=row["Summary"],
            delivered=bool(row["Delivered"]),
            attempts=int(row["Attempts"]),
            status=int(row["HttpStatus"]),
            error=row["LastError"],
            at=_utc(row["LastAttemptAt"]),
        )
        for row in rows
    ]


def load_notification_log(
    store: Store, since: datetime, service: str | None, limit: int = 50
) -> NotificationLog:
    if not _recorded(store):
        return NotificationLog()
    [(failed, delivered)] = store.query(
        f"SELECT countIf(NOT Delivered), countIf(Delivered) FROM {store.table(TABLE)} WHERE {_WINDOW}",
        _window(since, service),
    )
    listed = load_deliveries(store, since, service, failed_only=True, limit=limit) if failed else []
    return NotificationLog(listed, int(failed), int(delivered))


_WINDOW: Final = (
    "LastAttemptAt >= {since:DateTime64(6)} AND ({service:String} = '' OR ServiceName = {service:String})"
)


def _window(since: datetime, service: str | None) -> dict[str, Any]:
    aware = since if since.tzinfo else since.replace(tzinfo=UTC)
    return {"since": aware.astimezone(UTC).replace(tzinfo=None), "service": service or ""}


def _recorded(store: Store) -> bool:
    return bool(store.query(f"EXISTS TABLE {store.table(TABLE)}")[0][0])


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
