"""Default RAG templates of popular frameworks and products (tests/assembly_templates), each sent under
OpenInference and the current GenAI conventions with answers in plain, cited, markdown and preamble styles,
faithful and with one fabricated claim; assembled and judged by the lexical judge as ragpulse does.

Prints, per template and style, how many requests came out correct, with the wrong context (or question),
with the wrong verdict (apart: those a citation marker alone made wrong, which the judges' own work is
about), and unscored with the reason shown to users. The held-out templates, written after the parser,
are totalled apart: they are the measure of how it generalises.

    python benchmarks/bench_templates.py [--details] [--built]

By default each request is a real ``openai`` client call to a loopback server, traced by the real
opentelemetry-instrumentation-openai-v2 (``gen_ai_latest_experimental``, content on the span) and
openinference-instrumentation-openai; ``--built`` makes the same spans by hand, without the instrumentations.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "assembly_templates"))

from held_out import HELD_OUT, HELD_OUT_LAST, HELD_OUT_LATE
from held_out_lead import HELD_OUT_LEAD
from rich.console import Console
from rich.table import Table
from templates import TEMPLATES, Template
from traffic import STYLES, Outcome, Result, run

COLUMNS = (Outcome.CORRECT, Outcome.WRONG_CONTEXT, Outcome.WRONG_VERDICT, Outcome.WRONG_VERDICT_MARKERS,
           Outcome.UNSCORED)  # fmt: skip


def _table(title: str, templates: list[Template], results: list[Result]) -> Table:
    table = Table(title=title)
    for header in ("template", "style", *COLUMNS, "reasons"):
        table.add_column(str(header))
    for template in templates:
        for style in STYLES:
            mine = [r for r in results if r.template == template.name and r.style == style]
            counts = Counter(r.outcome for r in mine)
            reasons = sorted({r.reason for r in mine if r.reason})
            table.add_row(template.name, style, *(str(counts[c]) for c in COLUMNS), "; ".join(reasons))
    return table


def _total(console: Console, label: str, results: list[Result]) -> None:
    counts = Counter(r.outcome for r in results)
    total = len(results)
    if not total:
        return
    unexplained = sum(
        1
        for r in results
        if r.outcome is Outcome.UNSCORED
        and "add" not in r.reason
        and "turn" not in r.reason
        and "record" not in r.reason
        and "put" not in r.reason
    )
    console.print(
        f"{label}: {total} requests, correct {counts[Outcome.CORRECT]}"
        f" ({counts[Outcome.CORRECT] / total:.1%}),"
        f" wrong context {counts[Outcome.WRONG_CONTEXT]}, wrong verdict {counts[Outcome.WRONG_VERDICT]},"
        f" wrong verdict from citation markers {counts[Outcome.WRONG_VERDICT_MARKERS]},"
        f" unscored {counts[Outcome.UNSCORED]} (without a fix named: {unexplained})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="print every request that was not correct")
    parser.add_argument(
        "--built",
        action="store_true",
        help="spans built as the instrumentations write them, not the real ones",
    )
    args = parser.parse_args()
    console = Console(width=200)
    live = not args.built
    developed, held = run(TEMPLATES, live), run(HELD_OUT, live)
    late, last = run(HELD_OUT_LATE, live), run(HELD_OUT_LAST, live)
    lead = run(HELD_OUT_LEAD, live)
    console.print(_table("templates used while developing", TEMPLATES, developed))
    console.print(_table("held-out templates", HELD_OUT, held))
    console.print(_table("held-out templates, second set", HELD_OUT_LATE, late))
    console.print(_table("held-out templates, third set", HELD_OUT_LAST, last))
    console.print(_table("the lead's held-out layouts", HELD_OUT_LEAD, lead))
    if args.details:
        for result in developed + held + late + last + lead:
            if result.outcome is not Outcome.CORRECT:
                console.print(result, markup=False)
    _total(console, f"developed ({len(TEMPLATES)} templates)", developed)
    _total(console, f"held out ({len(HELD_OUT)} templates)", held)
    _total(console, f"held out, second set ({len(HELD_OUT_LATE)} templates)", late)
    _total(console, f"held out, third set ({len(HELD_OUT_LAST)} templates)", last)
    _total(console, f"the lead's held-out layouts ({len(HELD_OUT_LEAD)})", lead)
    _total(console, "all", developed + held + late + last + lead)


if __name__ == "__main__":
    main()
