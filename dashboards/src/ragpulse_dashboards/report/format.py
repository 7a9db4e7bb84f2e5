"""Number formatting shared by the terminal and HTML renderers, so both say the same thing."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable
from datetime import UTC, datetime

from ragpulse_assembly.reasons import explain
from ragpulse_core.printable import printable
from ragpulse_scorers.labels.agreement import figure_text
from ragpulse_scorers.metric_names import COUNT_METRICS

from ragpulse_dashboards.alerts.rules import SCORING_STALLED
from ragpulse_dashboards.alerts.state import AlertRecord
from ragpulse_dashboards.report.agreement import JudgeAgreement
from ragpulse_dashboards.report.glossary import term
from ragpulse_dashboards.report.model import (
    AlertCheckView,
    AlertLimits,
    Difference,
    MetricRow,
    Rate,
    ReportData,
    RequestOutcomes,
    SpendRow,
)

NO_VARIANT = "(no variant)"


def percent(value: float | None, digits: int = 1) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.{digits}f}%"


def interval_name(rates: Iterable[Rate]) -> str:
    """What the rates' intervals are: Wilson's, and over directed samples inverse-probability weighted."""
    if any(rate.is_weighted for rate in rates):
        return "95% Wilson interval, inverse-probability weighted (Hájek; directed sampling)"
    return "95% Wilson interval"


MEANS_WEIGHTED = "means inverse-probability weighted (directed sampling), n the requests scored"


def means_note(rows: Iterable[MetricRow]) -> str:
    """What the means are over directed samples (weighted, with their intervals); nothing otherwise."""
    return f" ({MEANS_WEIGHTED})" if any(row.is_weighted for row in rows) else ""


def raw_rate(rate: Rate) -> str:
    """A judge's hallucination rate as the rate table shows it, with its counts and, over directed samples,
    the weighting that makes it the same figure: "35.0% (14/40)" or "35.0% (weighted; 14 of 40 judged)"."""
    if not rate.n:
        return "–"
    if rate.is_weighted:
        return f"{percent(rate.value)} (inverse-probability weighted; {rate.successes} of {rate.n} judged)"
    return f"{percent(rate.value)} ({rate.successes}/{rate.n})"


def rate_with_interval(rate: Rate) -> str:
    if not rate.n:
        return "–"
    low, high = rate.interval
    return f"{percent(rate.value)} [{percent(low)}, {percent(high)}]"


def number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def milliseconds(value: float) -> str:
    return f"{value:.1f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.1f} s" if value < 120 else f"{value / 60:.1f} min"


def dollars(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def spend_cost(rows: Iterable[SpendRow]) -> str:
    """What judging cost: the dollars recorded, but "price unknown" where nothing was recorded for models
    without a known price (never $0.00 for them), and "free" for judges that call no model."""
    listed = list(rows)
    cost = sum(row.cost_usd for row in listed)
    unpriced = sorted({model for row in listed for model in row.unpriced})
    if cost == 0 and unpriced:
        return f"price unknown ({', '.join(printable(model) for model in unpriced)})"
    if cost == 0 and not any(row.input_tokens or row.output_tokens for row in listed):
        return "free"
    return dollars(cost)


def clock(epoch_s: int, with_date: bool = False) -> str:
    moment = datetime.fromtimestamp(epoch_s, UTC)
    return moment.strftime("%m-%d %H:%M" if with_date else "%H:%M:%S")


def alert_key(alert: AlertRecord) -> str:
    """rule / service / variant / judges, leaving out labels the rule is not evaluated per."""
    key = alert.key
    return " / ".join(printable(part) for part in (key.rule, key.service, key.variant, alert.scorer) if part)


def alert_value(alert: AlertRecord) -> str:
    if alert.key.rule == SCORING_STALLED:
        return f"{alert.value:.0f} scores / {alert.samples} requests"
    return f"{percent(alert.value)} [{percent(alert.lower)}, {percent(alert.upper)}] n={alert.samples}"


def alert_threshold(alert: AlertRecord) -> str:
    """What the value was compared with; stalls compare counts, not a threshold."""
    return "" if alert.key.rule == SCORING_STALLED else f"threshold {percent(alert.threshold)}"


def alert_since(alert: AlertRecord) -> str:
    fired = f"{alert.fired_at:%m-%d %H:%M:%S}"
    return fired if alert.resolved_at is None else f"{fired} → {alert.resolved_at:%m-%d %H:%M:%S}"


def html_text(text: str) -> str:
    """Traced text for HTML: control characters neutralised, markup escaped (quotes too, for attributes)."""
    return html.escape(printable(text), quote=True)


def variant_label(variant: str, service: str | None = None) -> str:
    """A variant as people read it: ``(no variant)`` for requests without a label, with its service first
    when a report spans several."""
    name = variant or NO_VARIANT
    return f"{service} · {name}" if service is not None else name


def quiet_alert(
    rate: Rate,
    threshold: float | None,
    limits: AlertLimits | None,
    firing: bool,
    check: AlertCheckView | None = None,
) -> str:
    """Why a rate shown above the threshold has no alert, or why an alert fires on a rate shown below it
    (``""`` when colour and alerts agree, or the limits are unknown).

    The alert fires only on enough samples whose 95% interval lies wholly above the threshold, over its own
    window, which is shorter than a report's, and only when its check has run: ``check`` (what the last
    check saw) tells which of these held it back.
    """
    if threshold is None or limits is None or not rate.n:
        return ""
    window = f"the last {limits.window_minutes:g} min"
    if firing:
        return (
            ""
            if above_threshold(rate.value, threshold)
            else f"alert firing: {window} are above the threshold"
        )
    if not above_threshold(rate.value, threshold):
        return ""
    low, high = rate.interval
    if rate.n < limits.min_samples:
        return f"no alert: n={rate.n} is below the {limits.min_samples} samples an alert needs"
    if low <= threshold:
        return f"no alert: its 95% interval [{percent(low)}, {percent(high)}] reaches the threshold"
    if not limits.enabled:
        return "no alert: the built-in alerts are off (alerts.enabled)"
    if check is None:
        return ""
    return _held_back(check, limits, window, threshold)


def _held_back(check: AlertCheckView, limits: AlertLimits, window: str, threshold: float) -> str:
    """What the last alert check saw of a rate the report shows confidently above the threshold."""
    every = f"{check.interval_s:g} s"
    if check.last_at is None:
        return f"not evaluated yet: no alert check has run; `ragpulse serve` runs one every {every}"
    at = f"{check.last_at:%H:%M:%S} UTC"
    behind = (check.now - check.last_at).total_seconds() > 2 * check.interval_s
    upcoming = (
        f"no check has run since (they run every {every} while `ragpulse serve` runs)"
        if behind
        else f"the next runs within {every}"
    )
    seen = check.seen
    if seen is None or not seen.samples:
        return f"no alert: the last alert check ({at}) found no scores for it in {window}; {upcoming}"
    if seen.samples < limits.min_samples:
        return (
            f"no alert: at the last check ({at}), {window} held n={seen.samples}, below the"
            f" {limits.min_samples} samples an alert needs; {upcoming}"
        )
    if seen.lower <= threshold:
        return (
            f"no alert: at the last check ({at}), {window} had a 95% interval [{percent(seen.lower)},"
            f" {percent(seen.upper)}] that reaches the threshold; {upcoming}"
        )
    return f"the last alert check ({at}) found its conditions met; its alert shows once recorded; {upcoming}"


def alerts_heading(firing: int, resolved: int) -> str:
    """``Alerts (2 firing, 1 resolved in this window)``, naming only what happened."""
    parts = [f"{firing} firing"] if firing else []
    if resolved:
        parts.append(f"{resolved} resolved in this window")
    return f"Alerts ({', '.join(parts)})" if parts else "Alerts"


def notifications_heading(failed: int, delivered: int) -> str:
    """``Notifications (2 failed, 14 delivered)``, naming only what happened."""
    parts = [f"{failed} failed"] if failed else []
    parts += [f"{delivered} delivered"] if delivered else []
    return f"Notifications ({', '.join(parts)})"


def sample_sizes(difference: Difference) -> str:
    if difference.n_baseline == difference.n_variant:
        return f"n = {difference.n_variant}"
    return (
        f"n = {difference.n_variant} for {variant_label(difference.variant)},"
        f" {difference.n_baseline} for {variant_label(difference.baseline)}"
    )


def _unit(difference: Difference) -> tuple[float, str, int]:
    """Scale, unit and digits a difference is quoted in: rates in percentage points."""
    if difference.is_rate:
        return 100.0, " points", 1
    if difference.metric in COUNT_METRICS:
        return 1.0, f" {term(difference.metric).unit}", 2
    return 1.0, "", 3


def signed_difference(difference: Difference) -> str:
    """``+12.0 points [5.1, 18.9]``: variant − baseline with its 95% interval."""
    scale, unit, digits = _unit(difference)
    text = f"{difference.estimate * scale:+.{digits}f}{unit}"
    if math.isnan(difference.low):
        return f"{text} (too few samples for an interval)"
    return f"{text} [{difference.low * scale:.{digits}f}, {difference.high * scale:.{digits}f}]"


def verdict(difference: Difference) -> str:
    """``B higher by 12.0 points [5.1, 18.9]`` or ``no detectable difference at n = 40``."""
    if math.isnan(difference.low):
        return f"too few samples to compare ({sample_sizes(difference)})"
    if not difference.detectable:
        return f"no detectable difference at {sample_sizes(difference)}"
    scale, unit, digits = _unit(difference)
    higher = difference.estimate > 0
    low, high = (difference.low, difference.high) if higher else (-difference.high, -difference.low)
    size = abs(difference.estimate) * scale
    return (
        f"{variant_label(difference.variant)} {'higher' if higher else 'lower'} by {size:.{digits}f}"
        f"{unit} [{low * scale:.{digits}f}, {high * scale:.{digits}f}]"
    )


def verdict_with_interval(difference: Difference) -> str:
    """The verdict, with the signed difference and its interval when the verdict itself has none."""
    said = verdict(difference)
    if difference.detectable or math.isnan(difference.low):
        return said
    return f"{said}: {signed_difference(difference)}"


def judgement(difference: Difference) -> str:
    """``better``, ``worse`` or ``same`` for the variant by the metric's good direction (``""``: none)."""
    if not difference.detectable:
        return "same"
    better = term(difference.metric).better
    if better == "neither":
        return ""
    return "better" if (difference.estimate > 0) == (better == "higher") else "worse"


def above_threshold(value: float, threshold: float | None) -> bool:
    return threshold is not None and not math.isnan(value) and value > threshold


def not_scored(data: ReportData) -> str:
    """ "not scored: 12 (no content captured: 9, no context: 3)", or "" when every request can be."""
    if not data.unscored:
        return ""
    counts = ", ".join(f"{unscored_label(reason.code)}: {reason.count}" for reason in data.unscored)
    return f"not scored: {data.not_scored_total} ({counts})"


OUTCOMES_NOTE = (
    "Every request of the window, per scorer: scored, not scored (the scoring log's reason) or pending"
    " (younger than the settle delay, or waiting for the next tick)."
)


def outcome_line(row: RequestOutcomes, with_service: bool) -> str:
    """ "support: 40 requests = 30 scored + 8 not scored (skipped 5, sampled out 3) + 2 pending"."""
    not_scored = sum(row.not_scored.values())
    reasons = ", ".join(f"{state.replace('_', ' ')} {n}" for state, n in sorted(row.not_scored.items()))
    name = f"{row.service} · {row.scorer}" if with_service else row.scorer
    return (
        f"{printable(name)}: {row.requests} requests = {row.scored} scored"
        f" + {not_scored} not scored{f' ({reasons})' if reasons else ''} + {row.pending} pending"
    )


def unscored_label(code: str) -> str:
    """A reason as people read it; a code this version does not know is shown neutralised, as stored."""
    explanation = explain(code)
    return explanation.label if explanation is not None else printable(code)


def unscored_hint(code: str) -> str:
    explanation = explain(code)
    return explanation.hint if explanation is not None else "a reason this version of ragpulse does not know"


AGREEMENT_HEADERS = (
    "service", "variant", "judges (free vs reference)", "shared requests", "balanced accuracy [95% CI]",
    "kappa [95% CI]",
)  # fmt: skip
AGREEMENT_NOTE = (
    "On the requests both judged, the free judge's hallucination verdicts against the LLM judge's. Balanced"
    " accuracy 0.5 and kappa 0 are chance; kappa above 0.6 is usually read as substantial agreement."
)


def agreement_cells(row: JudgeAgreement) -> list[str]:
    """One row of the agreement table, as plain text (the renderer escapes it)."""
    return [
        row.service,
        variant_label(row.variant),
        f"{row.judge} vs {row.reference}",
        f"{row.n} (inverse-probability weighted)" if row.is_weighted else str(row.n),
        figure_text(row.balanced_accuracy),
        figure_text(row.kappa),
    ]
