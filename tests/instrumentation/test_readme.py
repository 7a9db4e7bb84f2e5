"""The README's five-line snippet runs as written, with the stand-in steps the README itself gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ragpulse import semconv
from span_capture import Spans

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Instrument a service in five lines"
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def snippet_blocks() -> list[str]:
    text = README.read_text()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return PYTHON_BLOCK.findall(text[start:end])


def test_the_readme_snippet_runs_as_written_and_traces_a_fusion_request(
    spans: Spans, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = snippet_blocks()
    assert len(blocks) == 2
    snippet = blocks[0]
    assert "query_index" not in snippet
    exec(compile("\n".join(blocks), str(README), "exec"), {"__name__": "readme"})

    assert capsys.readouterr().out.strip() == "Refunds take 5 days."
    root = dict(spans.one("rag fusion").attributes or {})
    assert root[semconv.VARIANT] == "B"
    assert root[semconv.INPUT_VALUE] == "How long do refunds take?"
    assert json.loads(root[semconv.VARIATIONS]) == [
        "How long do refunds take?",
        "How long do refunds take? (reworded)",
    ]
    assert [r["query_index"] for r in json.loads(root[semconv.RETRIEVALS])] == [0, 1]
    context = json.loads(root[semconv.CONTEXT])
    assert [(chunk["id"], chunk["text"]) for chunk in context] == [("kb-12", "Refunds take 5 days.")]
