"""``ragpulse demo``: the whole product on one machine in about a minute.

Embedded chDB under ``--dir``, the collector on a free local port, the scoring scheduler, and the example
RAG-Fusion service sending real OTLP/HTTP traffic: planted unsupported statements at a rate per variant and,
from the drift point on, degraded retrieval for one variant. Then one alert evaluation (the run's part from
the drift point on, against its first part as the baseline), the report in the terminal and as HTML led by
the story (how B differs from A, the alert that fired for it and the requests that show why), and the
measured hallucination rate next to what the service caused.
"""

from __future__ import annotations

import argparse
import logging
import shlex
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragpulse_core.cli import invoked_as
from ragpulse_core.receivers import load_receiver
from ragpulse_core.store import Store
from ragpulse_core.store_access import open_migrated_store
from ragpulse_dashboards.alerts import evaluate_alerts
from ragpulse_dashboards.commands.report import write_html
from ragpulse_dashboards.report import ReportData, render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.report.format import percent
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.figures import collect_rootcause
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_example.rates import parse_rates
from ragpulse_example.standins import STANDIN_MODEL
from ragpulse_example.traffic import SERVICE_NAME, Drift, TrafficSummary, run_traffic
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.scheduler import ScoringSchedule, quiet_scheduler_logs
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ragpulse_demo.alert_window import AlertWindow
from ragpulse_demo.flags import check_flags, demo_variants

console = Console()
logger = logging.getLogger(__name__)

# Outcomes after which a scorer is done with a request (throttled or over-budget requests come back later).
FINAL_OUTCOMES = (Outcome.SCORED, Outcome.SKIPPED, Outcome.FAILED, Outcome.SAMPLED_OUT)
POLL_S = 0.5
# Below this many scored requests per variant no demo alert can fire, however high the rate.
DEMO_MIN_SAMPLES_FLOOR = 10
# Loggers that report every batch and tick: useful when serving, noise under a progress bar.
_CHATTY_LOGGERS = (
    "ragpulse_collector",
    "ragpulse_scorers.pipeline",
    "ragpulse_dashboards.alerts",
    "apscheduler",
)


def run(args: argparse.Namespace) -> int:
    check_flags(args)
    variants = demo_variants(args)
    inject = parse_rates(args.inject, variants, "--inject")
    drift = Drift(args.drift_at, parse_rates(args.drift, variants, "--drift"))
    drifting = any(drift.degraded.values()) and drift.start_index(args.requests) < args.requests
    html_path: Path = args.html or args.dir / "report.html"
    per_variant = args.requests // max(len(variants), 1)
    smallest_part = round(per_variant * min(drift.at, 1 - drift.at)) if drifting else per_variant
    settings = _demo_settings(args.config, args.dir, smallest_part)
    quiet_demo_logs(args.verbose)
    store = open_migrated_store(settings)
    if store is None:
        return 1
    started = datetime.now(UTC)
    scorers = settings.scorer.scorers
    drift_text = (
        f"from {percent(drift.at, 0)} of the run on, degraded retrieval for {_shares(drift.degraded)}"
        if drifting
        else "no drift"
    )
    console.print(
        f"[bold]ragpulse demo[/bold]: {args.requests} requests, variants {', '.join(variants)}; planted"
        f" statements in {_shares(inject)}; {drift_text}; judges: {', '.join(scorers)};"
        f" store {settings.store.dsn}"
    )
    collector = load_receiver()(settings, store)
    collector.start()
    schedule = ScoringSchedule(settings, store)
    schedule.start()
    summary_box: list[TrafficSummary] = []
    failure: list[BaseException] = []

    def send() -> None:
        try:
            summary_box.append(
                run_traffic(
                    collector.url,
                    args.requests,
                    inject,
                    variants,
                    args.seed,
                    on_request=advance,
                    drift=drift if drifting else None,
                    spread_s=args.duration,
                )
            )
        except BaseException as exc:  # Reported on the main thread, which owns the console.
            failure.append(exc)

    try:
        with _progress() as progress:
            sending = progress.add_task("sending requests", total=args.requests)
            scoring = {name: progress.add_task(f"scoring: {name}", total=args.requests) for name in scorers}

            def advance(_: object) -> None:
                progress.advance(sending)

            sender = threading.Thread(target=send, name="ragpulse-demo-traffic", daemon=True)
            sender.start()
            deadline = time.monotonic() + args.timeout
            while time.monotonic() < deadline:
                landed, done = _scoring_progress(store, started, SERVICE_NAME, scorers)
                for name, task in scoring.items():
                    progress.update(task, completed=done.get(name, 0))
                if (
                    not sender.is_alive()
                    and landed >= args.requests
                    and all(done.get(name, 0) >= landed for name in scorers)
                ):
                    break
                time.sleep(POLL_S)
            else:
                console.print(
                    f"[yellow]scoring did not finish within {args.timeout:.0f}s; reporting what is scored[/]"
                )
            sender.join(timeout=5)
    finally:
        schedule.stop()
        collector.stop()
    if failure:
        raise failure[0]
    traffic = summary_box[0] if summary_box else None
    _tell(
        store,
        started,
        traffic,
        settings,
        html_path,
        standin=traffic is not None and traffic.model == STANDIN_MODEL,
    )
    return 0


def _shares(rates: Mapping[str, float]) -> str:
    return ", ".join(f"{percent(rate, 0)} of {name}" for name, rate in rates.items() if rate) or "none"


def _tell(
    store: Store,
    started: datetime,
    traffic: TrafficSummary | None,
    settings: DashboardsSettings,
    html_path: Path,
    *,
    standin: bool,
) -> None:
    """Evaluate the alerts once over this run, then report: the story first, the full report, the truth."""
    # These read the example's labels, so they load only once the example is known to be installed.

    from ragpulse_demo.comparison import comparison_html, print_comparison
    from ragpulse_demo.page import with_sections
    from ragpulse_demo.story import build_story, print_story, story_html
    from ragpulse_demo.truth import labels_of, measured_vs_truth

    evaluated_at = datetime.now(UTC)
    split_at = (
        datetime.fromtimestamp(traffic.drift_started_at, UTC)
        if traffic is not None and traffic.drift_started_at is not None
        else None
    )
    window = AlertWindow(started, evaluated_at, split_at)
    # Where each change sits is read from the root-cause facts: bring them up to every verdict of the run.
    update_facts(store, settings.rootcause, now=evaluated_at)
    alerts = window.settings(settings.alerts)
    evaluation = evaluate_alerts(store, alerts, now=evaluated_at, sample_rate=settings.scorer.sample_rate)
    data = collect_alerting_report(store, started, SERVICE_NAME, settings.alerts, settings.judge.prices)
    if split_at is not None:
        # A run has no days of history: its part from the drift point on against its first part.
        data = replace(data, rootcause=collect_rootcause(
            store, split_at, evaluated_at, SERVICE_NAME, baseline_days=alerts.baseline_days,
            min_samples=alerts.min_samples,
        ))  # fmt: skip
    scorer = data.primary_scorer or ""
    truth = measured_vs_truth(store, started, SERVICE_NAME, scorer) if scorer else []
    labels = labels_of(store, [row.trace_id for row in data.worst])
    store.close()
    # This evaluation's alerts: one left firing in --dir by an earlier run is in the report, not the story.
    story = build_story(
        data,
        [alert for alert in evaluation.firing if alert.updated_at >= evaluated_at],
        labels,
        window.describe(),
    )
    if story is not None:
        print_story(story, console)
    render_terminal(data, console)
    print_comparison(truth, scorer, standin, console)
    _print_alerts(data, settings, whole_run=split_at is None)
    sections = [story_html(story)] if story is not None else []
    write_html(
        html_path, with_sections(render_html(data), [*sections, comparison_html(truth, scorer, standin)])
    )
    if story is not None:
        console.rule("[bold]in short[/bold]")
        for line in story.headlines():
            console.print(escape(line))
    console.print(f"\nHTML report: [bold]{escape(str(html_path.resolve()))}[/bold]")
    rerun = f"{invoked_as()} report --dsn {shlex.quote(settings.store.dsn)} --since 1h"
    console.print(f"Rerun the report on this data: {escape(rerun)}", soft_wrap=True)


def quiet_demo_logs(verbose: int) -> None:
    """What the demo's output leaves out: the scheduler's per-run lines and its warning for every tick that
    outlasts the demo's 1 s interval (which they do by design, ``max_instances=1``), unless ``-vv``; and,
    without ``-v``, every batch and tick line under the progress bars."""
    quiet_scheduler_logs(verbose)
    if verbose == 0:
        for name in _CHATTY_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
        # The story prints every alert this run fired, with its value and interval; no log line before it.
        logging.getLogger("ragpulse_dashboards.alerts.evaluator").setLevel(logging.ERROR)


def _demo_settings(config: Path | None, directory: Path, samples_per_part: int) -> DashboardsSettings:
    """Short intervals and no settle delay, so requests are scored seconds after they land.

    The scheduler's alert job is off: the demo evaluates alerts once, after the run, over windows sized to
    it. Alerts keep their threshold but need fewer samples than in production: a demo variant gets tens of
    requests in each part of the run, and the Wilson bounds already keep a small sample from firing on noise.
    """
    base = DashboardsSettings.load(config)
    # LLM judges when an endpoint is configured (lexical stays: free, and a second opinion); else lexical.
    scorers = ["support", "lexical"] if base.judge.configured else ["lexical"]
    return DashboardsSettings.load(
        config,
        store={"dsn": f"chdb://{(directory / 'chdb').resolve()}"},
        collector={"host": "127.0.0.1", "port": 0, "batch_max_wait_ms": 100},
        scorer={"scorers": scorers, "settle_delay_s": 0.0, "interval_s": 1.0, "sample_rate": 1.0},
        alerts={
            "enabled": False,
            "min_samples": _demo_min_samples(base.alerts.min_samples, samples_per_part),
        },
    )


def _demo_min_samples(configured: int, samples_per_part: int) -> int:
    return max(DEMO_MIN_SAMPLES_FLOOR, min(configured, samples_per_part // 2))


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description:<22}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def _scoring_progress(
    store: Store, started: datetime, service: str, scorers: Sequence[str]
) -> tuple[int, dict[str, int]]:
    params: dict[str, Any] = {
        "since_ms": int(started.timestamp() * 1000),
        "service": service,
        "scorers": list(scorers),
        "outcomes": list(FINAL_OUTCOMES),
    }
    # Requests, not rows: a request's rows (the view's and an assembled one, or a resent batch) stay apart
    # until a merge, and counted as rows they outnumber the requests scored, so the wait ran out its timeout.
    landed = store.query(
        f"SELECT uniqExact(TraceId, SpanId) FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64}) AND ServiceName = {service:String}",
        params,
    )[0][0]
    done = {
        scorer: int(count)
        for scorer, count in store.query(
            f"SELECT Scorer, uniqExact(TraceId, SpanId) FROM {store.table('ragpulse_scoring_log')}"
            " WHERE RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
            " AND ServiceName = {service:String}"
            " AND Scorer IN {scorers:Array(String)} AND Outcome IN {outcomes:Array(String)} GROUP BY Scorer",
            params,
        )
    }
    return int(landed), done


def _print_alerts(data: ReportData, settings: DashboardsSettings, whole_run: bool) -> None:
    """Which alerts fire after the run, or why none does: the demo's answer to "would I have been paged?".

    The reasons quote the run's rates, so they are given only when the alert window was the whole run.
    """
    console.rule("[bold]alerts[/bold]")
    for alert in data.firing_alerts:
        console.print(f"[red]alert firing[/red]: {escape(alert.summary)}")
    if data.firing_alerts:
        return
    rates = [row for row in data.hallucination if row.scorer == data.primary_scorer]
    if not rates:
        console.print("no alert firing: nothing was scored")
        return
    if not whole_run:
        console.print("no alert firing: no rate in the window is confidently above its threshold")
        return
    threshold, min_samples = settings.alerts.hallucination_threshold, settings.alerts.min_samples
    reasons = [
        f"variant {escape(row.variant)}: "
        + (
            f"{row.rate.n} scored, an alert needs {min_samples}"
            if row.rate.n < min_samples
            else f"95% lower bound {percent(row.rate.interval[0])} below the {percent(threshold)} threshold"
        )
        for row in rates
    ]
    console.print(f"no alert firing ({escape(data.primary_scorer or '')}): {'; '.join(reasons)}")
