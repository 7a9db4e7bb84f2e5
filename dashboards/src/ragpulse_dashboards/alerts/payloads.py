"""What each kind of destination is sent when an alert fires or resolves: pure functions of the alert.

- ``slack``: an incoming-webhook message, ``text`` (the notification's fallback) and Block Kit ``blocks``
  (header, section with fields, context), within Block Kit's limits (header text 150 characters, a text
  object 3000, a section field 2000); ``&``, ``<`` and ``>`` are escaped in mrkdwn, so a service named
  ``<!channel>`` pings nobody.
- ``pagerduty``: an Events API v2 event, ``trigger`` on fire and ``resolve`` on resolve, both carrying the
  episode's ``dedup_key`` (summary at most 1024 characters).
- ``webhook``: ragpulse's own document, schema ``ragpulse.alert.v1`` (``alerts/webhook.schema.json``).

An alert on answers carries where its change sits (:mod:`ragpulse_dashboards.rootcause.cause`): a line of
text in each message and summary, and the slices themselves in PagerDuty's details and the webhook document.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Final
from urllib.parse import quote

from ragpulse_dashboards.alerts.rules import (
    CORRECTED_RATE,
    EVALUATOR_PASS_RATE,
    HALLUCINATION_RATE,
    JUDGE_ERRORS,
    SCORING_STALLED,
    SUPPORT_DROP,
)
from ragpulse_dashboards.alerts.state import FIRING, AlertRecord
from ragpulse_dashboards.rootcause.cause import Cause
from ragpulse_dashboards.settings import Severity

WEBHOOK_SCHEMA: Final = "ragpulse.alert.v1"
TITLES: Final = {
    HALLUCINATION_RATE: "Hallucination rate above threshold",
    SUPPORT_DROP: "Support rate dropped below its baseline",
    SCORING_STALLED: "Scoring stalled",
    JUDGE_ERRORS: "Judge errors spiking",
    CORRECTED_RATE: "Corrected hallucination rate above threshold",
    EVALUATOR_PASS_RATE: "Evaluator pass rate below its threshold",
}
# A rule's default PagerDuty severity: wrong answers reaching users and a blind scorer page; the rest warn.
SEVERITIES: Final[dict[str, Severity]] = {
    HALLUCINATION_RATE: "error",
    SUPPORT_DROP: "warning",
    SCORING_STALLED: "error",
    JUDGE_ERRORS: "warning",
    CORRECTED_RATE: "error",
    EVALUATOR_PASS_RATE: "warning",
}
_HEADER_MAX: Final = 150
_TEXT_MAX: Final = 3000
_FIELD_MAX: Final = 2000
_PAGERDUTY_SUMMARY_MAX: Final = 1024
_DEDUP_KEY_MAX: Final = 255


def title(record: AlertRecord) -> str:
    return TITLES.get(record.key.rule, record.key.rule)


def link(record: AlertRecord, link_url: str | None) -> str | None:
    """The page that explains the alert: ``link_url`` for the alert's service."""
    if link_url is None:
        return None
    separator = "&" if "?" in link_url else "?"
    return f"{link_url}{separator}service={quote(record.key.service, safe='', errors='surrogatepass')}"


def dedup_key(record: AlertRecord) -> str:
    """One per alert episode: its trigger and its resolve name the same PagerDuty alert."""
    return f"ragpulse:{record.alert_id}"[:_DEDUP_KEY_MAX]


def slack_message(record: AlertRecord, link_url: str | None = None) -> dict[str, Any]:
    status = _status(record)
    icon = ":rotating_light:" if record.state == FIRING else ":white_check_mark:"
    fields = [
        _mrkdwn(f"*{name}*\n{_escaped(value)}", _FIELD_MAX)
        for name, value in (
            ("Service", record.key.service),
            ("Variant", record.key.variant),
            ("Scorer", record.scorer),
            ("Value", _value(record)),
            ("Threshold", _threshold(record)),
        )
        if value
    ]
    context = [
        _mrkdwn(
            f"ragpulse alert `{_escaped(record.key.rule)}` · id `{record.alert_id}` · "
            f"{_when(record).isoformat(timespec='seconds')}",
            _TEXT_MAX,
        )
    ]
    target = link(record, link_url)
    if target is not None:
        context.append(_mrkdwn(f"<{_escaped(target)}|Open the page that explains it>", _TEXT_MAX))
    cause = Cause.from_json(record.cause)
    where = _where(record)
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": _cut(f"{status}: {title(record)}", _HEADER_MAX)},
        },
        {
            "type": "section",
            "text": _mrkdwn(f"{icon} {_escaped(record.summary)}", _TEXT_MAX),
            "fields": fields,
        },
    ]
    if cause is not None:
        blocks.append({"type": "section", "text": _mrkdwn(f"*{_escaped(cause.text())}*", _TEXT_MAX)})
    blocks.append({"type": "context", "elements": context})
    return {
        "text": _cut(
            f"[{status}] {_escaped(title(record))}: {_escaped(record.summary)}{_escaped(where)}", _TEXT_MAX
        ),
        "blocks": blocks,
    }


def pagerduty_event(
    record: AlertRecord, routing_key: str, severity: Severity | None = None, link_url: str | None = None
) -> dict[str, Any]:
    if record.state != FIRING:
        return {"routing_key": routing_key, "event_action": "resolve", "dedup_key": dedup_key(record)}
    key = record.key
    event: dict[str, Any] = {
        "routing_key": routing_key,
        "event_action": "trigger",
        "dedup_key": dedup_key(record),
        "client": "ragpulse",
        "payload": {
            "summary": _cut(f"{title(record)}: {record.summary}{_where(record)}", _PAGERDUTY_SUMMARY_MAX),
            # The affected system is the RAG service the alert is about.
            "source": key.service or "ragpulse",
            "severity": severity or SEVERITIES.get(key.rule, "warning"),
            "timestamp": record.fired_at.isoformat(),
            "class": key.rule,
            "custom_details": _details(record),
        },
    }
    component = record.scorer or key.variant
    if component:
        event["payload"]["component"] = component
    target = link(record, link_url)
    if target is not None:
        event["client_url"] = target
        event["links"] = [{"href": target, "text": f"ragpulse: service {key.service}"}]
    return event


def webhook_event(record: AlertRecord, link_url: str | None = None) -> dict[str, Any]:
    target = link(record, link_url)
    return {
        "schema": WEBHOOK_SCHEMA,
        "alert_id": record.alert_id,
        "state": record.state,
        "rule": record.key.rule,
        "title": title(record),
        "service": record.key.service,
        "variant": record.key.variant,
        "scorer": record.scorer,
        "summary": record.summary,
        **_details(record, labels=False),
        "cause": _cause(record),
        "fired_at": record.fired_at.isoformat(),
        "resolved_at": record.resolved_at.isoformat() if record.resolved_at is not None else None,
        "updated_at": record.updated_at.isoformat(),
        "links": [] if target is None else [{"href": target, "text": f"service {record.key.service}"}],
    }


def _details(record: AlertRecord, *, labels: bool = True) -> dict[str, Any]:
    details: dict[str, Any] = (
        {"alert_id": record.alert_id, "rule": record.key.rule, "service": record.key.service,
         "variant": record.key.variant, "scorer": record.scorer}
        if labels
        else {}
    )  # fmt: skip
    found = {"cause": _cause(record)} if labels and record.cause else {}
    return {
        **details,
        "value": _number(record.value),
        "lower": _number(record.lower),
        "upper": _number(record.upper),
        "samples": record.samples,
        "threshold": _number(record.threshold),
        **found,
    }


def _cause(record: AlertRecord) -> dict[str, Any] | None:
    """Where the change sits, as the webhook schema's ``cause`` (None when not known)."""
    cause = Cause.from_json(record.cause)
    return cause.payload() if cause is not None else None


def _where(record: AlertRecord) -> str:
    cause = Cause.from_json(record.cause)
    return f". {cause.text()}" if cause is not None else ""


def _number(value: float) -> float | None:
    # JSON has no NaN or infinity: an unknown bound is null.
    return value if math.isfinite(value) else None


def _status(record: AlertRecord) -> str:
    return "FIRING" if record.state == FIRING else "RESOLVED"


def _when(record: AlertRecord) -> datetime:
    return record.fired_at if record.state == FIRING else (record.resolved_at or record.updated_at)


def _value(record: AlertRecord) -> str:
    if record.key.rule == SCORING_STALLED:
        return f"{record.value:.0f} scores / {record.samples} requests"
    return f"{_percent(record.value)} [{_percent(record.lower)}, {_percent(record.upper)}] n={record.samples}"


def _threshold(record: AlertRecord) -> str:
    if record.key.rule == SCORING_STALLED:
        return f"{record.threshold:.0f} requests"
    return _percent(record.threshold)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%" if math.isfinite(value) else "unknown"


def _mrkdwn(text: str, limit: int) -> dict[str, str]:
    return {"type": "mrkdwn", "text": _cut(text, limit)}


def _escaped(text: str) -> str:
    """Slack's three control characters, escaped as its formatting docs ask."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, an ellipsis marking a cut; never empty (Slack refuses "").

    Characters are counted as UTF-16 code units, which count an emoji as two: within the limit however the
    receiver counts.
    """
    text = text or "-"
    if _utf16_units(text) <= limit:
        return text
    kept: list[str] = []
    units = 0
    for char in text:
        units += _utf16_units(char)
        if units > limit - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def _utf16_units(text: str) -> int:
    return sum(2 if ord(char) > 0xFFFF else 1 for char in text)
