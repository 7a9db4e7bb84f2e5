"""Exact coverage of kappa's 95% interval at tens of labels: the interval ragpulse shows (Fleiss, Cohen and
Everitt's variance on the table with ½ added to each cell, :mod:`ragpulse_scorers.labels.agreement`) side by
side with the same variance on the raw table, which collapses to zero width whenever a cell is empty.

For every setting (prevalence of hallucinations among labels, the judge's true sensitivity and specificity)
and every n, each 2×2 table of n labelled requests is enumerated with its multinomial probability, so the
figures are exact, not simulated. Tables with one class of label are left out (kappa is undefined there, and
said so). Per n: the mean and least coverage over the settings, the share of settings below 90%, and the mean
width.

    python benchmarks/bench_kappa_coverage.py            # n = 10, 20, 40 (about a minute)
    python benchmarks/bench_kappa_coverage.py --n 10 20  # fewer
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Callable, Iterator

from ragpulse_scorers.labels.agreement import Cells, Confusion, agreement, kappa
from ragpulse_scorers.stats import Z95
from rich.console import Console
from rich.table import Table

PREVALENCES = (0.1, 0.3, 0.5)
SENSITIVITIES = (0.6, 0.8, 0.95, 1.0)
SPECIFICITIES = (0.8, 0.95, 1.0)
Interval = Callable[[tuple[int, int, int, int]], tuple[float, float]]


def shown(table: tuple[int, int, int, int]) -> tuple[float, float]:
    figure = agreement(Confusion(*table)).kappa
    assert figure.low is not None and figure.high is not None
    return figure.low, figure.high


def raw_table(table: tuple[int, int, int, int]) -> tuple[float, float]:
    """The same variance computed on the table as counted, centred at its kappa."""
    tp, fn, fp, tn = table
    n = sum(table)
    cells = [[tp / n, fn / n], [fp / n, tn / n]]
    rows = [cells[i][0] + cells[i][1] for i in range(2)]
    columns = [cells[0][j] + cells[1][j] for j in range(2)]
    chance = rows[0] * columns[0] + rows[1] * columns[1]
    value = (cells[0][0] + cells[1][1] - chance) / (1 - chance)
    a = sum(cells[i][i] * (1 - (rows[i] + columns[i]) * (1 - value)) ** 2 for i in range(2))
    b = (1 - value) ** 2 * sum(
        cells[i][j] * (columns[i] + rows[j]) ** 2 for i in range(2) for j in range(2) if i != j
    )
    c = (value - chance * (1 - value)) ** 2
    half = Z95 * math.sqrt(max(0.0, a + b - c) / (n * (1 - chance) ** 2))
    return max(-1.0, value - half), min(1.0, value + half)


def tables(n: int, probabilities: tuple[float, ...]) -> Iterator[tuple[tuple[int, int, int, int], float]]:
    logs = [math.log(p) if p > 0 else -math.inf for p in probabilities]
    for tp in range(n + 1):
        for fn in range(n + 1 - tp):
            for fp in range(n + 1 - tp - fn):
                table = (tp, fn, fp, n - tp - fn - fp)
                if tp + fn == 0 or fp + table[3] == 0:
                    continue  # one class of label: kappa undefined
                if any(count and logs[i] == -math.inf for i, count in enumerate(table)):
                    continue
                log = math.lgamma(n + 1) + sum(
                    count * logs[i] - math.lgamma(count + 1) for i, count in enumerate(table) if count
                )
                yield table, math.exp(log)


def coverage(n: int, probabilities: tuple[float, ...], interval: Interval) -> tuple[float, float]:
    """(coverage, mean width) over the tables where kappa is defined."""
    truth = kappa(Cells(*probabilities), 1).value
    assert truth is not None
    defined = covered = width = 0.0
    for table, probability in tables(n, probabilities):
        low, high = interval(table)
        defined += probability
        covered += probability * (low - 1e-12 <= truth <= high + 1e-12)
        width += probability * (high - low)
    return covered / defined, width / defined


def main(sizes: tuple[int, ...] = (10, 20, 40)) -> None:
    settings = [
        (prevalence * se, prevalence * (1 - se), (1 - prevalence) * (1 - sp), (1 - prevalence) * sp)
        for prevalence, se, sp in itertools.product(PREVALENCES, SENSITIVITIES, SPECIFICITIES)
    ]
    table = Table(title=f"kappa's 95% interval: exact coverage over {len(settings)} settings per n")
    for column in ("n", "interval", "mean coverage", "least", "settings < 90%", "mean width"):
        table.add_column(column, justify="left" if column == "interval" else "right")
    for n in sizes:
        for name, interval in (("raw table", raw_table), ("ragpulse (add ½)", shown)):
            found = [coverage(n, probabilities, interval) for probabilities in settings]
            covers = [cover for cover, _ in found]
            table.add_row(
                str(n), name, f"{sum(covers) / len(covers):.1%}", f"{min(covers):.1%}",
                f"{sum(cover < 0.9 for cover in covers)} of {len(covers)}",
                f"{sum(width for _, width in found) / len(found):.2f}",
            )  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 20, 40], help="numbers of labels")
    main(tuple(parser.parse_args().n))
