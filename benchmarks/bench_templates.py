"""Prompt documents read from traffic as services send it, over the whole template corpus
(tests/assembly_templates): the default RAG templates of frameworks and products and the held-out sets (each
rendered as a stream of 24 requests with one to four documents in varying order), the layouts issue 36
named, and the blind waves (services' traffic written by a helper who had not read the reader). Every stream
is read three ways, side by side: the structure rules alone, the learnt templates with the rules (ragpulse's
default: score when they agree or one is sure), and the learnt templates alone (the layout rules switched
off). Prints right / wrong context / unscored per template and per part of the corpus.

    python benchmarks/bench_templates.py [--live] [--details] [--mode MODE]
    python benchmarks/bench_templates.py --blind DIR [--live] [--details] [--mode MODE]

``--blind DIR`` reads only a blind wave's directory (the format of tests/assembly_templates/blind/wave_a:
one JSON file per service besides index.json) and prints per service the requests, those scored on the right
context, on a wrong one, and those not scored with their reasons; by default with ragpulse's default readers
(learnt+rules).

Spans are built as OpenInference and openai-v2 (current GenAI conventions) write them; ``--live`` sends every
request through a real ``openai`` client under the real instrumentations instead (slower, same outcomes).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "assembly_templates"))

from held_out import HELD_OUT, HELD_OUT_LAST, HELD_OUT_LATE
from held_out_lead import HELD_OUT_LEAD
from issue_36 import ISSUE_36
from rich.console import Console
from rich.table import Table
from streams import (
    BLIND,
    FAMILIES,
    MODES,
    BlindWaveError,
    Outcome,
    Stream,
    Verdict,
    blind_streams,
    run,
    template_stream,
)
from templates import TEMPLATES


def parts() -> dict[str, list[Stream]]:
    return {
        "frameworks' and products' templates": [template_stream(t) for t in TEMPLATES],
        "held-out templates": [template_stream(t) for t in HELD_OUT + HELD_OUT_LATE + HELD_OUT_LAST],
        "the lead's held-out layouts": [template_stream(t) for t in HELD_OUT_LEAD],
        "issue 36's layouts": [template_stream(t) for t in ISSUE_36],
        "blind wave A": blind_streams(BLIND / "wave_a"),
        "blind wave C (header lines)": blind_streams(BLIND / "wave_c"),
        "blind wave D (question slots)": blind_streams(BLIND / "wave_d"),
        **{f"blind wave {wave[-1].upper()}": blind_streams(BLIND / wave) for wave in LATER_WAVES},
    }


LATER_WAVES = (
    "wave_e",
    "wave_f",
    "wave_g",
    "wave_h",
    "wave_i",
    "wave_j",
    "wave_k",
    "wave_m",
    "wave_o",
    "wave_q",
    "wave_s",
    "wave_u",
    "wave_v",
    "wave_w",
    "wave_x",
    "wave_y",
)
"""Every blind wave after D, each measured before the changes it led to (their first runs are in the
closing notes); all of them count in the whole corpus."""


def _cell(outcomes: list[Outcome]) -> str:
    counts = Counter(o.verdict for o in outcomes)
    return "/".join(str(counts[v]) for v in Verdict)


def _total(outcomes: list[Outcome]) -> str:
    counts = Counter(o.verdict for o in outcomes)
    right = counts[Verdict.RIGHT]
    return (
        f"{right}/{len(outcomes)} right ({right / len(outcomes):.1%}), {counts[Verdict.WRONG]} wrong context,"
        f" {counts[Verdict.UNSCORED]} unscored"
    )


def _reasons(outcomes: list[Outcome]) -> str:
    """Why requests were not scored: the unscorable reason's code, with how many."""
    counts = Counter(o.detail.split(" ", 1)[0] for o in outcomes if o.verdict is Verdict.UNSCORED)
    return ", ".join(f"{reason} ×{count}" for reason, count in counts.most_common())


def blind(directory: Path, modes: list[str], live: bool, details: bool, console: Console) -> None:
    """One blind wave, per service and readers: requests, right / wrong context / unscored, and why."""
    try:
        streams = blind_streams(directory)
    except BlindWaveError as error:
        raise SystemExit(f"bench_templates: {error}") from error
    for mode in modes:
        outcomes = run(streams, mode, live=live)
        table = Table(title=f"{directory}, {mode}: every request sent under {' and '.join(FAMILIES)}")
        for column in ("service", "requests", "right context", "wrong context", "unscored", "unscored: why"):
            table.add_column(column)
        for stream in streams:
            own = [o for o in outcomes if o.service == stream.service]
            counts = Counter(o.verdict for o in own)
            table.add_row(
                stream.service, str(len(own)), *(str(counts[v]) for v in Verdict), _reasons(own)
            )  # fmt: skip
        console.print(table)
        console.print(f"  {mode}, total: {_total(outcomes)} ({_reasons(outcomes) or 'none unscored'})")
        if details:
            for outcome in outcomes:
                if outcome.verdict is not Verdict.RIGHT:
                    console.print("   ", mode, outcome, markup=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", action="store_true", help="send through the real instrumentations")
    parser.add_argument("--details", action="store_true", help="print every request not read right")
    parser.add_argument("--mode", choices=MODES, action="append", help="only these readers (default: all)")
    parser.add_argument("--blind", type=Path, metavar="DIR", help="only this blind wave's directory")
    args = parser.parse_args()
    console = Console(width=200)
    if args.blind is not None:
        blind(args.blind, args.mode or ["learnt+rules"], args.live, args.details, console)
        return
    modes = args.mode or list(MODES)
    results: dict[tuple[str, str], list[Outcome]] = {}
    for part, streams in parts().items():
        for mode in modes:
            results[(part, mode)] = run(streams, mode, live=args.live)
        table = Table(title=f"{part}: right/wrong context/unscored, both instrumentations")
        table.add_column("template or service")
        for mode in modes:
            table.add_column(mode)
        for stream in streams:
            table.add_row(
                stream.service,
                *(_cell([o for o in results[(part, mode)] if o.service == stream.service]) for mode in modes),
            )
        console.print(table)
    for mode in modes:
        console.print(f"[bold]{mode}[/bold]")
        everything: list[Outcome] = []
        for part in parts():
            outcomes = results[(part, mode)]
            everything += outcomes
            console.print(f"  {part}: {_total(outcomes)}")
        console.print(f"  whole corpus: {_total(everything)}")
        if args.details:
            for outcome in everything:
                if outcome.verdict is not Verdict.RIGHT:
                    console.print("   ", mode, outcome, markup=False)


if __name__ == "__main__":
    main()
