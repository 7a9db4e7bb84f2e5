"""Slack-compatible webhook notifications (``{"text": ..., "blocks": [...]}``), which Slack, Mattermost,
Rocket.Chat and most chat bridges accept. A failing webhook is logged and reported, never raised: alert state
must be recorded whether or not anyone could be told.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx

from ragpulse_dashboards.alerts.state import FIRING, AlertRecord

logger = logging.getLogger(__name__)

_TITLES = {
    "hallucination_rate": "Hallucination rate above threshold",
    "support_drop": "Support rate dropped below its baseline",
    "scoring_stalled": "Scoring stalled",
    "judge_errors": "Judge errors spiking",
}


def slack_message(record: AlertRecord) -> dict[str, Any]:
    title = _TITLES.get(record.key.rule, record.key.rule)
    status = "FIRING" if record.state == FIRING else "RESOLVED"
    icon = ":rotating_light:" if record.state == FIRING else ":white_check_mark:"
    text = f"[{status}] {title}: {record.summary}"
    when = record.fired_at if record.state == FIRING else (record.resolved_at or record.updated_at)
    return {
        "text": text,
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": f"{status}: {title}"}},
            {"type": "section", "text": {"type": "mrkdwn", "text": f"{icon} {record.summary}"}},
            {
                "type": "context",
                "elements": [
                    {
                        "type": "mrkdwn",
                        "text": f"ragpulse alert `{record.key.rule}` · id `{record.alert_id}` · "
                        f"{when.isoformat(timespec='seconds')}",
                    }
                ],
            },
        ],
    }


def post(url: str, payload: dict[str, Any], *, timeout_s: float) -> str:
    """POST ``payload`` as JSON; returns "" on success, otherwise what went wrong (already logged)."""
    try:
        response = httpx.post(url, json=payload, timeout=timeout_s)
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        error = f"webhook answered {exc.response.status_code}"
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        error = f"webhook unreachable: {type(exc).__name__}: {exc}"
    else:
        return ""
    logger.error("alert notification failed: %s", error)
    return error
