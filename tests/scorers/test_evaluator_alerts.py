"""An evaluator's pass-rate alert fires once its 95% interval lies below the threshold, resolves once the
interval lies above it, and in between keeps its state (no flapping at the threshold)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from ragpulse_dashboards.alerts.rules import EVALUATOR_PASS_RATE, AlertKey, rate_below
from ragpulse_dashboards.settings import DashboardsSettings

KEY = AlertKey(EVALUATOR_PASS_RATE, "svc", "A", "cites")


@pytest.mark.parametrize(
    ("passed", "judged", "fire", "clear"),
    [
        (40, 100, True, False),  # [31%, 50%]: below 90%
        (99, 100, False, True),  # [95%, 100%]: above
        (88, 100, False, False),  # [80%, 93%]: could be either, keep the state
        (4, 9, False, False),  # too few verdicts to fire
    ],
)
def test_a_pass_rate_fires_below_and_clears_above_its_threshold(
    passed: int, judged: int, fire: bool, clear: bool
) -> None:
    observed = rate_below(KEY, "cites pass rate", passed, judged, threshold=0.9, min_samples=30)
    assert (observed.fire, observed.clear) == (fire, clear)
    assert observed.summary.endswith("for service svc, variant A, scorer cites; at least 90.0% wanted")


def test_a_pass_rate_alert_names_an_evaluator_with_a_verdict() -> None:
    evaluators = {"llm": {"relevance": {"system": "Rate it.", "user": "{answer}", "output": "score",
                                        "range": [1, 5]}}}  # fmt: skip
    for name, refusal in (
        ("cites", r"no evaluator 'cites' \(evaluators: relevance\)"),
        ("relevance", "'relevance' gives no pass/fail verdict"),
    ):
        alerts = {"pass_rates": {name: 0.9}}
        with pytest.raises(ValidationError, match=refusal):
            DashboardsSettings.model_validate({"evaluators": evaluators, "alerts": alerts})
