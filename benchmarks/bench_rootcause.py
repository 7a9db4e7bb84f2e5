"""Where a change sits, measured: how often the slice made worse is named first on random scenarios, and how
long the root-cause job takes to learn topics and write the facts of a million requests.

    python benchmarks/bench_rootcause.py --scenarios 400
    python benchmarks/bench_rootcause.py --scenarios 0 --requests 1000000

Scenarios (tests/dashboards/rootcause_scenarios.py): a service's judged requests over a baseline and a
window, with correlated dimensions and topics of different difficulty, in which nothing changed, everything
changed a little (by the same points or the same factor), one slice got worse, or a new model or template
version came in worse. Each is ranked as the alert ranks it; right: the planted slice named first, or none
named where none was planted; wrong: any other slice named first; missed: none named where one was planted.

The million requests are bench_queries.py's dataset (generated there once and cached): the job's facts and
topics are dropped and written again from scratch, one run, timed against the scoring tick's deadline
(``scorer.tick_deadline_s``); then topics are fitted twice on the same questions, in two orders, and compared.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "dashboards"))
sys.path.insert(0, str(ROOT / "benchmarks"))

console = Console(width=120)
WINDOWS = (150, 300, 600, 1500, 4000)


def accuracy(scenarios: int, seed: int) -> None:
    from ragpulse_dashboards.rootcause.ranking import explain
    from rootcause_scenarios import KINDS, scenario

    outcomes: Counter[tuple[str, int, str]] = Counter()
    for index in range(scenarios):
        kind, window = KINDS[index % len(KINDS)], WINDOWS[(index // len(KINDS)) % len(WINDOWS)]
        found = scenario(seed + index, kind, window)
        totals = found.totals()
        result = explain(*totals, found.slices(), residuals=found.residuals, direction=1)
        first = result.slices[0].key if result.slices else None
        if first == found.expected:
            outcome = "right"
        elif first is None:
            outcome = "missed"
        else:
            outcome = "wrong"
        outcomes[(kind, window, outcome)] += 1
    table = Table(
        title=f"{scenarios} random scenarios: right / missed / wrong, by kind and judged requests in the"
        " window",
    )
    table.add_column("kind")
    for window in WINDOWS:
        table.add_column(f"n={window}", justify="right")
    for kind in KINDS:
        cells = [
            f"{outcomes[(kind, w, 'right')]}/{outcomes[(kind, w, 'missed')]}/{outcomes[(kind, w, 'wrong')]}"
            for w in WINDOWS
        ]
        table.add_row(kind, *cells)
    console.print(table)
    for label, sizes in (("all windows", WINDOWS), ("windows of 600 or more", (600, 1500, 4000))):
        chosen = [key for key in outcomes if key[1] in sizes]
        total = sum(outcomes[key] for key in chosen)
        right = sum(outcomes[key] for key in chosen if key[2] == "right")
        wrong = sum(outcomes[key] for key in chosen if key[2] == "wrong")
        console.print(
            f"{label}: {right} of {total} right ({right / max(total, 1):.1%}), {wrong} named wrongly"
        )


def topics_at_scale(requests: int, cache: Path) -> None:
    from bench_queries import ATTRIBUTES, prepare
    from ragpulse_dashboards.rootcause.facts import update_facts
    from ragpulse_dashboards.rootcause.topics import fit_topics
    from ragpulse_dashboards.settings import RootCauseSettings
    from ragpulse_scorers.settings import ScorerSettings

    store, _ = prepare(cache.resolve(), requests, 30, with_baseline=False)
    for table in (
        "ragpulse_request_facts",
        "ragpulse_slice_hours",
        "ragpulse_slice_days",
        "ragpulse_session_days",
        "ragpulse_topics",
        "ragpulse_question_topics",
    ):
        store.command(f"TRUNCATE TABLE {store.table(table)}")
    settings = RootCauseSettings(attributes=list(ATTRIBUTES))
    started = time.perf_counter()
    update = update_facts(store, settings)
    took = time.perf_counter() - started
    [(facts, distinct)] = store.query(
        f"SELECT (SELECT sum(Sign) FROM {store.table('ragpulse_request_facts')}),"
        f" (SELECT uniqExact(QuestionKey) FROM {store.table('ragpulse_question_topics')})"
    )
    deadline = ScorerSettings().tick_deadline_s
    console.print(
        f"topics on {requests:,} requests: learnt, and {update.questions:,} distinct questions given one"
        f" of {update.topics} topics, in {update.topics_s:.1f} s: {update.topics_s / deadline:.3f} of the"
        f" scoring tick's deadline ({deadline:.0f} s)"
    )
    console.print(
        f"root-cause job from scratch: {took:.0f} s for {int(facts):,} judged requests' facts over"
        f" {update.days} days ({int(distinct):,} question topics stored): {took / deadline:.2f} of the tick's"
        " deadline; a month's backlog, once (a run a minute after the last reads minutes). A shared, loaded"
        " machine: the ratios say more than the seconds"
    )
    rows = store.query(
        f"SELECT any(Question), count() FROM {store.table('ragpulse_requests')} WHERE Question != ''"
        " GROUP BY cityHash64(Question) ORDER BY cityHash64(Question) LIMIT 20000"
    )
    questions = [(str(text), int(count)) for text, count in rows]
    shuffled = list(questions)
    random.Random(1).shuffle(shuffled)
    started = time.perf_counter()
    first = fit_topics(questions)
    fit_s = time.perf_counter() - started
    second = fit_topics(shuffled)
    texts = [text for text, _ in questions]
    same = first == second and first.assign(texts) == second.assign(texts)
    console.print(
        f"topics of {len(questions):,} distinct questions fitted in {fit_s:.1f} s:"
        f" {len(first.topics)} topics; fitted again in another order:"
        f" {'the same topics and assignments' if same else 'DIFFERENT'}"
    )
    for topic in first.topics:
        console.print(f"  topic {topic.id}: {topic.name} ({topic.questions} questions)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenarios", type=int, default=400, help="random scenarios ranked (0: none)")
    parser.add_argument("--seed", type=int, default=100_000, help="the first scenario's seed")
    parser.add_argument("--requests", type=int, default=0, help="bench_queries dataset size (0: skip)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    args = parser.parse_args(argv)
    if args.scenarios:
        accuracy(args.scenarios, args.seed)
    if args.requests:
        topics_at_scale(args.requests, args.cache)


if __name__ == "__main__":
    main()
