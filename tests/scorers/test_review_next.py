"""``ragpulse label --next`` as printed: the queue's next request, why it was offered, its answer numbered by
sentence with the free judge's marks, every judge's verdict, and the command that labels it."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_scorers.labels.store import read_labels
from ragpulse_scorers.review.show import print_next
from review_data import CONTEXT, judged_request
from rich.console import Console


def _printed(store: Store, service: str | None = None) -> tuple[bool, str]:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    found = print_next(
        store, console, since=datetime.now(UTC) - timedelta(hours=24), service=service, command="ragpulse"
    )
    return found, console.file.getvalue()  # type: ignore[attr-defined]


def test_the_next_request_is_printed_with_how_to_label_it(store: Store) -> None:
    judged = judged_request(store, 1, lexical_bad=True, support=0.2, llm_bad=False)
    found, text = _printed(store)
    assert found
    lines = text.splitlines()
    assert lines[0].startswith("Next to review: ")
    assert f"trace {judged.id.trace_id} · span {judged.id.span_id} · service museum · variant A" in lines[1]
    assert "Q Question 1: when does the museum open?" in text and f"context 1 {CONTEXT}" in text
    assert "A0 The museum opens at nine.\n" in text
    assert "A1 Tickets cost twenty euros.  unsupported per lexical" in text
    assert "judges: lexical hallucinated, support grounded" in text
    assert f"label it: ragpulse label {judged.id.trace_id} hallucinated|grounded" in text


def test_an_empty_queue_says_so(store: Store, chdb_dsn: str) -> None:
    judged = judged_request(store, 1, lexical_bad=True, support=0.2, service="zoo")
    judged_request(store, 2, lexical_bad=True, support=0.2, service="museum")
    assert main(["label", judged.id.trace_id, "grounded", "--dsn", chdb_dsn]) == 0
    found, text = _printed(store, service="zoo")
    assert not found and text.startswith("Nothing to review")


def test_a_service_without_requests_is_named_unknown_with_the_known_ones(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "every judged request is labelled": a misspelt service would read as a queue done."""
    judged_request(store, 1, lexical_bad=True, support=0.2, service="zoo")
    judged_request(store, 2, lexical_bad=True, support=0.2, service="museum")
    assert main(["label", "--next", "--service", "nosuch", "--dsn", chdb_dsn]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert "no service 'nosuch' has requests since" in said
    assert "(services with requests: museum, zoo)" in said
    assert "Nothing to review" not in said


def test_label_next_prints_the_request_and_its_label_command_labels_it(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    judged = judged_request(store, 1, lexical_bad=True, support=0.2, llm_bad=False)
    assert main(["label", "--next", "--dsn", chdb_dsn]) == 0
    printed = capsys.readouterr().out
    command = next(line for line in printed.splitlines() if line.startswith("label it: "))
    argv = command.removeprefix("label it: ").replace("hallucinated|grounded", "hallucinated").split()[1:]
    assert main([*argv, "--dsn", chdb_dsn, "--author", "ann"]) == 0
    assert [(label.trace_id, label.span_id) for label in read_labels(store, source="reviewer")] == [
        (judged.id.trace_id, judged.id.span_id)
    ]
    assert main(["label", "--next", "--dsn", chdb_dsn]) == 0
    assert "Nothing to review" in capsys.readouterr().out
    assert main(["label", "--next", judged.id.trace_id, "--dsn", chdb_dsn]) == 2
