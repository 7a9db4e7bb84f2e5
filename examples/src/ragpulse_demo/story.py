"""The story the demo's report leads with: how B differs from A, which alert fired for whom, and why.

Built from the report's data, this run's alert evaluation and the example's labels; rendered as a few lines in
the terminal and as one HTML card, both from the same sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from ragpulse_core.printable import excerpt
from ragpulse_dashboards.alerts.state import AlertRecord
from ragpulse_dashboards.report.format import number, percent
from ragpulse_dashboards.report.model import Rate, ReportData, WorstRequest
from ragpulse_scorers.stats import difference_interval
from rich.console import Console
from rich.markup import escape as markup_escape

from ragpulse_demo.truth import RequestLabels

EVIDENCE_LIMIT = 3


def _points(share: float) -> str:
    return f"{100 * share:.1f}"


@dataclass(frozen=True)
class Difference:
    """``variant``'s hallucination rate minus ``baseline``'s, with Newcombe's 95% interval."""

    variant: str
    baseline: str
    rate: Rate
    baseline_rate: Rate

    @property
    def value(self) -> float:
        return self.rate.value - self.baseline_rate.value

    @property
    def interval(self) -> tuple[float, float]:
        return difference_interval(
            self.rate.successes, self.rate.n, self.baseline_rate.successes, self.baseline_rate.n
        )

    @property
    def detectable(self) -> bool:
        lower, upper = self.interval
        return lower > 0 or upper < 0

    def verdict(self) -> str:
        """ "B higher than A by 12.0 points [5.1, 18.9]", or why no difference can be told at these sizes."""
        lower, upper = self.interval
        if lower > 0:
            return (
                f"{self.variant} higher than {self.baseline} by {_points(self.value)} points"
                f" [{_points(lower)}, {_points(upper)}]"
            )
        if upper < 0:
            return (
                f"{self.variant} lower than {self.baseline} by {_points(-self.value)} points"
                f" [{_points(-upper)}, {_points(-lower)}]"
            )
        sizes = (
            f"{self.rate.n} each"
            if self.rate.n == self.baseline_rate.n
            else f"{self.rate.n} and {self.baseline_rate.n}"
        )
        return (
            f"no detectable difference between {self.variant} and {self.baseline} at n = {sizes}"
            f" ({self.variant} − {self.baseline} {100 * self.value:+.1f} points"
            f" [{_points(lower)}, {_points(upper)}])"
        )

    def sentence(self, scorer: str) -> str:
        return (
            f"hallucination rate ({scorer}): {self.verdict()} — {self.variant} {percent(self.rate.value)} of"
            f" {self.rate.n}, {self.baseline} {percent(self.baseline_rate.value)} of {self.baseline_rate.n}"
        )


@dataclass(frozen=True)
class Evidence:
    """One of the worst requests of the variant the story is about, with what the service did to it."""

    request: WorstRequest
    labels: RequestLabels | None

    @property
    def cause(self) -> str:
        causes = []
        if self.labels is not None and self.labels.planted:
            causes.append("planted statement")
        if self.labels is not None and self.labels.degraded_retrieval:
            causes.append("degraded retrieval")
        return " + ".join(causes) or "nothing planted: a false alarm"


@dataclass(frozen=True)
class Story:
    scorer: str
    differences: list[Difference]
    alerts: list[AlertRecord]
    """Alerts firing after this run's evaluation."""
    quiet_variants: list[str]
    focus_variant: str | None
    evidence: list[Evidence]
    window: str

    def headlines(self) -> list[str]:
        lines = [difference.sentence(self.scorer) for difference in self.differences]
        lines += [
            f"alert firing for {alert.key.variant or alert.key.service}: {alert.summary}"
            for alert in self.alerts
        ]
        if self.quiet_variants:
            lines.append(f"no alert for {', '.join(self.quiet_variants)}")
        return lines


def build_story(
    data: ReportData,
    alerts: Sequence[AlertRecord],
    labels: Mapping[str, RequestLabels],
    window: str,
) -> Story | None:
    """The story of this run, or None when nothing was scored (then there is none to tell)."""
    scorer = data.primary_scorer
    rates = {
        variant.variant: rate
        for variant in data.variants
        if (rate := data.primary_rate(variant.variant)) is not None and rate.n
    }
    if scorer is None or not rates:
        return None
    baseline, *others = list(rates)
    differences = [Difference(name, baseline, rates[name], rates[baseline]) for name in others]
    alerted = [alert.key.variant for alert in alerts if alert.key.variant]
    focus = alerted[0] if alerted else max(rates, key=lambda name: rates[name].value)
    worst = [row for row in data.worst if row.variant == focus and row.hallucinated][:EVIDENCE_LIMIT]
    return Story(
        scorer=scorer,
        differences=differences,
        alerts=sorted(alerts, key=lambda alert: alert.key),
        quiet_variants=[name for name in rates if name not in alerted],
        focus_variant=focus,
        evidence=[Evidence(row, labels.get(row.trace_id)) for row in worst],
        window=window,
    )


def print_story(story: Story, console: Console) -> None:
    console.rule("[bold]what this run shows[/bold]")
    for line in story.headlines():
        console.print(markup_escape(line))
    console.print(f"[dim]{markup_escape(story.window)}[/dim]")
    if story.evidence:
        console.print(f"why, worst first (variant {markup_escape(story.focus_variant or '')}):")
    for rank, item in enumerate(story.evidence, start=1):
        request = item.request
        console.print(
            f"  {rank}. {request.trace_id[:16]} · support {number(request.support, 2)} · {item.cause}\n"
            f"     Q {markup_escape(excerpt(request.question, 100))}"
        )
        for sentence in request.unsupported[:2]:
            console.print(f"     [red]✗[/red] {markup_escape(excerpt(sentence, 140))}")


def story_html(story: Story) -> str:
    """The story as one card, styled by the report page it goes into."""
    lines = "".join(f"<p>{escape(line)}</p>" for line in story.headlines())
    rows = "".join(
        f"<tr><td class='mono'>{escape(item.request.trace_id)}</td>"
        f"<td class='n'>{number(item.request.support, 2)}</td><td>{escape(item.cause)}</td>"
        f"<td>{escape(item.request.question)}"
        + "".join(
            f"<div class='unsupported'>✗ {escape(sentence)}</div>" for sentence in item.request.unsupported
        )
        + "</td></tr>"
        for item in story.evidence
    )
    evidence = (
        f"<h2>Why, worst first (variant {escape(story.focus_variant or '')})</h2><table><thead><tr>"
        "<th>trace</th><th>support</th><th>what the service did</th><th>question · unsupported sentences</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
        if story.evidence
        else ""
    )
    return (
        f"<section class='card'><h2>What this run shows</h2>{lines}"
        f"<p class='muted'>{escape(story.window)}</p>{evidence}</section>"
    )
