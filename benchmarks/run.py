"""``make bench``: every benchmark, each measuring its ratio side by side in one run."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from rich.console import Console

BENCHMARKS = (
    "bench_decorators",
    "bench_collector",
    "bench_assembly",
    "bench_scorer",
    "bench_formatted_answers",
    "bench_templates",
    "bench_titled_documents",
    "bench_directed_sampling",
    "bench_kappa_coverage",
    "bench_evaluators",
    "bench_guard",
    "bench_hostile_input",
    "bench_hostile_prompts",
)
# chDB holds one data path per process: benchmarks with a database of their own run in a process of their own.
SEPARATE_PROCESS = ("bench_queries", "bench_live", "bench_backfill", "bench_labels_import", "bench_rootcause")


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    console = Console()
    for name in BENCHMARKS:
        console.rule(name)
        importlib.import_module(name).main()
    for name in SEPARATE_PROCESS:
        console.rule(name)
        subprocess.run([sys.executable, str(Path(__file__).parent / f"{name}.py")], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
