"""``ragpulse demo``: the whole product on one machine in about a minute.

Embedded chDB under ``--dir``, the collector on a free local port, the scoring scheduler, and the example
RAG-Fusion service sending real OTLP/HTTP traffic with a chosen share of planted unsupported statements; then
one alert evaluation over the run, the report in the terminal and as HTML, the measured hallucination rate
next to the injected one, and which alerts fire.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragpulse_core.receivers import load_receiver
from ragpulse_core.store import Store
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ragpulse_scorers.alerts import evaluate_alerts
from ragpulse_scorers.commands.report import write_html
from ragpulse_scorers.commands.store_access import open_migrated_store
from ragpulse_scorers.pipeline.scheduler import build_scheduler
from ragpulse_scorers.report import ReportData, collect_report, render_html, render_terminal
from ragpulse_scorers.report.format import percent, rate_with_interval
from ragpulse_scorers.settings import ScorersSettings

console = Console()
logger = logging.getLogger(__name__)

# Outcomes after which a scorer is done with a request (throttled or over-budget requests come back later).
FINAL_OUTCOMES = ("scored", "skipped", "failed", "sampled_out")
POLL_S = 0.5
# Below this many scored requests per variant no demo alert can fire, however high the rate.
DEMO_MIN_SAMPLES_FLOOR = 10
# Loggers that report every batch and tick: useful when serving, noise under a progress bar.
_CHATTY_LOGGERS = (
    "ragpulse_collector",
    "ragpulse_scorers.pipeline",
    "ragpulse_scorers.alerts",
    "apscheduler",
)



def run(args: argparse.Namespace) -> int:
    try:
        from ragpulse_example.traffic import SERVICE_NAME, TrafficSummary, run_traffic
    except ImportError as exc:
        console.print(f"[red]the demo needs the example service[/red] (pip install -e ./examples): {exc}")
        return 1

    if args.requests < 1:
        raise ValueError("--requests must be at least 1")
    variants = [name.strip() for name in args.variants.split(",") if name.strip()]
    html_path: Path = args.html or args.dir / "report.html"
    settings = _demo_settings(args.config, args.dir, args.requests // max(len(variants), 1))
    if args.verbose == 0:
        for name in _CHATTY_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
    store = open_migrated_store(settings, console)
    if store is None:
        return 1
    started = datetime.now(UTC)
    scorers = settings.scorer.scorers
    console.print(
        f"[bold]ragpulse demo[/bold]: {args.requests} requests, {percent(args.inject, 0)} injected, variants "
        f"{', '.join(variants)}; judges: {', '.join(scorers)}; store {settings.store.dsn}"
    )
    collector = load_receiver()(settings, store)
    collector.start()
    scheduler = build_scheduler(settings, store)
    scheduler.start()
    summary_box: list[TrafficSummary] = []
    failure: list[BaseException] = []

    def send() -> None:
        try:
            summary_box.append(
                run_traffic(
                    collector.url, args.requests, args.inject, variants, args.seed, on_request=advance
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
        scheduler.shutdown(wait=True)
        collector.stop()
    if failure:
        raise failure[0]
    # The scheduler's alert job runs every alerts.interval_s: evaluate once more so the alerts reflect every
    # score. The window is this run only, so traffic left in --dir by an earlier run does not count.
    window_minutes = (datetime.now(UTC) - started).total_seconds() / 60 + 0.1
    evaluate_alerts(store, settings.alerts.model_copy(update={"window_minutes": window_minutes}))
    data = collect_report(store, started, SERVICE_NAME)
    store.close()
    render_terminal(data, console)
    write_html(html_path, render_html(data))
    _print_comparison(data, summary_box[0] if summary_box else None)
    _print_alerts(data, settings)
    console.print(f"\nHTML report: [bold]{escape(str(html_path.resolve()))}[/bold]")
    console.print(f"Rerun the report on this data: ragpulse report --dsn {settings.store.dsn} --since 1h")
    return 0


def _demo_settings(config: Path | None, directory: Path, requests_per_variant: int) -> ScorersSettings:
    """Short intervals and no settle delay, so requests are scored seconds after they land.

    Alerts keep their threshold but need fewer samples than in production: a demo variant gets tens of
    requests, and the Wilson lower bound already keeps a small sample from firing on noise.
    """
    base = ScorersSettings.load(config)
    # LLM judges when an endpoint is configured (lexical stays: free, and a second opinion); else lexical.
    scorers = ["support", "lexical"] if base.judge.configured else ["lexical"]
    return ScorersSettings.load(
        config,
        store={"dsn": f"chdb://{(directory / 'chdb').resolve()}"},
        collector={"host": "127.0.0.1", "port": 0, "batch_max_wait_ms": 100},
        scorer={"scorers": scorers, "settle_delay_s": 0.0, "interval_s": 1.0, "sample_rate": 1.0},
        alerts={"min_samples": _demo_min_samples(base.alerts.min_samples, requests_per_variant)},
    )


def _demo_min_samples(configured: int, requests_per_variant: int) -> int:
    return max(DEMO_MIN_SAMPLES_FLOOR, min(configured, requests_per_variant // 2))


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
    landed = store.query(
        f"SELECT count() FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64}) AND ServiceName = {service:String}",
        params,
    )[0][0]
    done = {
        scorer: int(count)
        for scorer, count in store.query(
            f"SELECT Scorer, uniqExact(TraceId) FROM {store.table('ragpulse_scoring_log')}"
            " WHERE RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
            " AND ServiceName = {service:String}"
            " AND Scorer IN {scorers:Array(String)} AND Outcome IN {outcomes:Array(String)} GROUP BY Scorer",
            params,
        )
    }
    return int(landed), done


def _print_comparison(data: ReportData, traffic: Any) -> None:
    """Measured against injected, per variant: the number the demo exists to show."""
    console.rule("[bold]measured vs injected[/bold]")
    if traffic is not None and traffic.model == "extractive-standin":
        console.print(
            "Answers come from the extractive stand-in (sentences copied from the retrieved passages), so "
            "every hallucination the judge should find is one the demo planted."
        )
    for row in data.injection:
        injected = row.injected / row.scored if row.scored else 0.0
        console.print(
            f"variant {escape(row.variant)}: injected {percent(injected)} ({row.injected}/{row.scored})"
            f" · measured {rate_with_interval(row.measured)} by {escape(data.primary_scorer or '')}"
            f" · caught {row.caught}/{row.injected}, {row.false_alarms} false alarms"
        )
    if not data.injection and traffic is not None:
        for name, tally in traffic.by_variant.items():
            rate = data.primary_rate(name)
            measured = rate_with_interval(rate) if rate else "not scored"
            console.print(
                f"variant {escape(name)}: injected {percent(tally.injected_rate)}, measured {measured}"
            )


def _print_alerts(data: ReportData, settings: ScorersSettings) -> None:
    """Which alerts fire after the run, or why none does: the demo's answer to "would I have been paged?"."""
    console.rule("[bold]alerts[/bold]")
    for alert in data.firing_alerts:
        console.print(f"[red]alert firing[/red]: {escape(alert.summary)}")
    if data.firing_alerts:
        return
    rates = [row for row in data.hallucination if row.scorer == data.primary_scorer]
    if not rates:
        console.print("no alert firing: nothing was scored")
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
