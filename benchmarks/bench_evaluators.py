"""What a team's own evaluators cost per request, beside the free lexical judge, measured in one run.

The requests are the demo's kind (``bench_scorer``'s: a question, five pydoc passages, an extractive answer).
Each evaluator judges the same requests, built in memory before any clock starts, one at a time on one
thread, as the scheduler runs free judges. The isolated kinds (``python``, ``json_schema``) are also timed
against the same check run in this process, so the price of their worker process (a pipe round trip and
JSON both ways) reads as a ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

REQUESTS = 2_000
WIDGET_SCHEMA = {
    "type": "object",
    "required": ["title", "answer"],
    "properties": {"answer": {"type": "string"}},
}
SCHEMA_ISOLATED = "json_schema widget (worker process)"
SCHEMA_IN_PROCESS = "json_schema widget, same check in process"
PYTHON_ISOLATED = "python house_style (worker process)"
PYTHON_IN_PROCESS = "python house_style, same function in process"
TEAM_CHECK = """
def house_style(request):
    words = request.answer.split()
    return {"pass": len(words) >= 5 and "sorry" not in request.answer.lower(), "words": len(words)}
"""


def _requests(count: int) -> tuple[list[Any], list[Any]]:
    """The requests, and the same with each answer as the JSON a front end parses (the schema check's)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_scorer import _COLUMNS, _request_rows
    from ragpulse_scorers.models import RagRequest

    rows = _request_rows(count)
    requests = [RagRequest.from_row(dict(zip(_COLUMNS, row, strict=True))) for row in rows]
    as_json = [
        request.model_copy(update={"answer": json.dumps({"title": "Help", "answer": request.answer})})
        for request in requests
    ]
    return requests, as_json


def _per_request_us(score: Callable[[Any], Any], requests: list[Any]) -> float:
    started = time.perf_counter()
    for request in requests:
        score(request)
    return (time.perf_counter() - started) / len(requests) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=REQUESTS)
    args = parser.parse_args(argv or [])

    from jsonschema.validators import validator_for
    from ragpulse_scorers.evaluators.scorers import build_evaluator
    from ragpulse_scorers.lexical.scorer import LexicalScorer
    from ragpulse_scorers.settings import ScorersSettings

    requests, as_json = _requests(args.requests)
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, "bench_team_checks.py").write_text(textwrap.dedent(TEAM_CHECK))
        settings = ScorersSettings.model_validate({"evaluators": {
            "regex": {"cites": {"pattern": r"\[\d+\]|(?i:\bsources?:)"}},
            "heuristic": {"substantive": {"rule": {"all": [
                {"not_empty": "answer"}, {"min_words": {"field": "answer", "words": 5}},
                {"not": {"contains_any": {"field": "answer", "texts": ["I don't know", "as an AI"]}}},
            ]}}},
            "json_schema": {"widget": {"schema": WIDGET_SCHEMA}},
            "python": {"house_style": {"entry_point": "bench_team_checks:house_style", "path": [directory]}},
        }})  # fmt: skip
        built = {
            name: build_evaluator(name, definition, settings, None)
            for name, definition in settings.evaluators.definitions().items()
        }
        sys.path.insert(0, directory)
        from bench_team_checks import house_style  # type: ignore[import-not-found]

        checker = validator_for(WIDGET_SCHEMA)(WIDGET_SCHEMA)

        def in_process_schema(request: Any) -> bool:
            try:
                return not any(checker.iter_errors(json.loads(request.answer)))
            except ValueError:
                return False

        for evaluator in built.values():  # start the worker processes before any clock
            evaluator.score(as_json[0] if evaluator.kind == "json_schema" else requests[0])
        lexical = LexicalScorer()
        timed = {
            "lexical (free judge)": _per_request_us(lexical.score, requests),
            "regex cites": _per_request_us(built["cites"].score, requests),
            "heuristic substantive": _per_request_us(built["substantive"].score, requests),
            SCHEMA_ISOLATED: _per_request_us(built["widget"].score, as_json),
            SCHEMA_IN_PROCESS: _per_request_us(in_process_schema, as_json),
            PYTHON_ISOLATED: _per_request_us(built["house_style"].score, requests),
            PYTHON_IN_PROCESS: _per_request_us(house_style, requests),
        }
        for evaluator in built.values():
            evaluator.close()

    title = f"evaluators per request, {len(requests)} requests, one thread ({datetime.now(UTC):%Y-%m-%d})"
    table = Table(title=title)
    table.add_column("evaluator")
    table.add_column("µs / request", justify="right")
    table.add_column("vs lexical", justify="right")
    reference = timed["lexical (free judge)"]
    for name, micros in timed.items():
        table.add_row(name, f"{micros:,.1f}", f"{micros / reference:.3f}x")
    console = Console()
    console.print(table)
    schema = timed["json_schema widget (worker process)"] / timed["json_schema widget, same check in process"]
    python = (
        timed["python house_style (worker process)"] / timed["python house_style, same function in process"]
    )
    console.print(
        f"isolation: json_schema {schema:.1f}x its in-process check, python {python:.0f}x its in-process call"
        " (a pipe round trip per request); shared, noisy machine: read the ratios"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
