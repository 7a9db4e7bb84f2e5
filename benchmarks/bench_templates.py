"""Prompt documents read from traffic as services send it, over the whole template corpus
(tests/assembly_templates): the default RAG templates of frameworks and products and the held-out sets (each
rendered as a stream of 24 requests with one to four documents in varying order), the layouts issue 36
named, and the blind waves (services' traffic written by a helper who had not read the reader). Every stream
is read three ways, side by side: the structure rules alone, the learnt templates with the rules (ragpulse's
default: score when they agree or one is sure), and the learnt templates alone (the layout rules switched
off). Prints right / wrong context / unscored per template and per part of the corpus.

    python benchmarks/bench_templates.py [--live] [--details] [--mode MODE]

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
from streams import MODES, Outcome, Stream, Verdict, blind_streams, run, template_stream
from templates import TEMPLATES


def parts() -> dict[str, list[Stream]]:
    return {
        "frameworks' and products' templates": [template_stream(t) for t in TEMPLATES],
        "held-out templates": [template_stream(t) for t in HELD_OUT + HELD_OUT_LATE + HELD_OUT_LAST],
        "the lead's held-out layouts": [template_stream(t) for t in HELD_OUT_LEAD],
        "issue 36's layouts": [template_stream(t) for t in ISSUE_36],
        "blind wave A": blind_streams("wave_a"),
    }


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", action="store_true", help="send through the real instrumentations")
    parser.add_argument("--details", action="store_true", help="print every request not read right")
    parser.add_argument("--mode", choices=MODES, action="append", help="only these readers (default: all)")
    args = parser.parse_args()
    modes = args.mode or list(MODES)
    console = Console(width=200)
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
