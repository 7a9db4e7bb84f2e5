"""``make bench``: every benchmark, each measuring its ratio side by side in one run."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from rich.console import Console

BENCHMARKS = ("bench_decorators", "bench_collector", "bench_assembly")


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    console = Console()
    for name in BENCHMARKS:
        console.rule(name)
        importlib.import_module(name).main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
