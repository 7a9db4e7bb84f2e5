"""Titled documents read from traffic: a fixed sweep over the layouts tests/assembly_templates/
test_titled_documents.py draws (where the template writes each document's title, what the title looks like,
the script, the separator), each stream of twenty requests read by the learnt templates alone and with the
structure rules. Prints right / wrong context / unscored per layout and title shape, and the total.

    python benchmarks/bench_titled_documents.py [--share 0.25] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "assembly_templates"))

from drawn import SCRIPTS
from rich.console import Console
from rich.table import Table
from streams import Verdict
from test_titled_documents import LAYOUTS, SEPARATORS, TITLES, titled_stream, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, default=0.25, help="share of the layout grid drawn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[tuple[str, str], Counter[Verdict]] = {}
    grid = itertools.product(sorted(SCRIPTS), LAYOUTS, TITLES, (False, True), SEPARATORS)
    for script, layout, shape, counter, separator in grid:
        if rng.random() > args.share:
            continue
        stream = titled_stream(rng.randrange(2**32), script, layout, shape, counter, separator)
        for rules in (False, True):
            found = counts.setdefault((layout, shape), Counter())
            found.update(verdict for verdict, _ in verdicts(stream, rules))
    table = Table(
        title="titled documents: right / wrong context / unscored (learnt alone and with the rules)"
    )
    for column in ("layout", "title", "right", "wrong context", "unscored"):
        table.add_column(column)
    total: Counter[Verdict] = Counter()
    for (layout, shape), found in sorted(counts.items()):
        table.add_row(layout, shape, *(str(found[verdict]) for verdict in Verdict))
        total.update(found)
    console = Console()
    console.print(table)
    console.print("  total: " + " / ".join(str(total[verdict]) for verdict in Verdict))


if __name__ == "__main__":
    main()
