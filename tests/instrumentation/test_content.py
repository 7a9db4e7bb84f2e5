"""Size caps with a visible marker, content capture off, and the redaction hook."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import ragpulse
from hypothesis import given
from hypothesis import strategies as st
from ragpulse import semconv
from ragpulse.text import share_cap
from span_capture import Spans


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


@ragpulse.retrieve(capture_text=True)
def search(query: str) -> list[dict[str, Any]]:
    return [{"id": f"c{i}", "text": ("x" * 300) if i == 0 else "short", "score": 1.0} for i in range(3)]


@ragpulse.generate
def generate(question: str, chunks: list[Any]) -> str:
    return "A" * 250


@ragpulse.rag
def request(question: str) -> str:
    chunks = search(question)
    ragpulse.set_reference("R" * 500)
    return generate(question, chunks)


def test_long_texts_are_cut_with_the_marker_and_listed(spans: Spans) -> None:
    ragpulse.configure(max_text_chars=100)
    request("Q" * 150)
    root = attrs(spans.one("rag request"))
    assert root[semconv.INPUT_VALUE] == "Q" * 100 + semconv.TRUNCATION_MARKER.format(dropped=50)
    assert root[semconv.OUTPUT_VALUE] == "A" * 100 + semconv.TRUNCATION_MARKER.format(dropped=150)
    assert root[semconv.REFERENCE].startswith("R" * 100 + "…[truncated 400 chars]")
    assert set(json.loads(root[semconv.TRUNCATED])) == {
        semconv.INPUT_VALUE,
        semconv.OUTPUT_VALUE,
        semconv.REFERENCE,
        semconv.CONTEXT,
        semconv.RETRIEVALS,
    }
    assert json.loads(root[semconv.RETRIEVALS])[0]["query"].endswith("…[truncated 50 chars]")
    context = json.loads(root[semconv.CONTEXT])
    assert [entry["text"] for entry in context[1:]] == ["short", "short"]
    assert context[0]["text"] == "x" * 90 + "…[truncated 210 chars]"
    retrieve = attrs(spans.one("retrieve"))
    assert retrieve[semconv.retrieval_document(0, "content")].endswith("…[truncated 200 chars]")
    assert semconv.retrieval_document(0, "content") in json.loads(retrieve[semconv.TRUNCATED])


def test_capture_off_keeps_ids_scores_and_ranks_only(spans: Spans) -> None:
    ragpulse.configure(capture_content=False)
    request("private question")
    root = attrs(spans.one("rag request"))
    for name in (semconv.INPUT_VALUE, semconv.OUTPUT_VALUE, semconv.REFERENCE):
        assert name not in root
    assert json.loads(root[semconv.CONTEXT]) == [
        {"id": f"c{i}", "score": 1.0, "rank": i + 1, "source": None} for i in range(3)
    ]
    assert json.loads(root[semconv.RETRIEVALS]) == [
        {"query_index": 0, "documents": [{"id": f"c{i}", "score": 1.0, "rank": i + 1} for i in range(3)]}
    ]
    every_value = " ".join(str(value) for span in spans.all() for value in attrs(span).values())
    assert "private" not in every_value
    assert "short" not in every_value


def test_capture_off_from_the_environment(spans: Spans, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGPULSE_CAPTURE_CONTENT", "false")
    ragpulse.configure()
    request("private question")
    assert semconv.INPUT_VALUE not in attrs(spans.one("rag request"))


def test_redaction_rewrites_every_text(spans: Spans) -> None:
    ragpulse.configure(redact=lambda text: re.sub(r"\d{3}-\d{4}", "<phone>", text))

    @ragpulse.variations
    def make_variations(question: str) -> list[str]:
        return [question, "call 555-0000"]

    @ragpulse.retrieve(capture_text=True)
    def lookup(query: str) -> list[str]:
        return ["office line 555-1234"]

    @ragpulse.generate
    def write(question: str, chunks: list[str]) -> str:
        return "dial 555-9999"

    @ragpulse.rag
    def ask(question: str) -> str:
        ragpulse.set_reference("555-1111")
        for variation in make_variations(question):
            lookup(variation)
        return write(question, ["office line 555-1234"])

    ask("what is 555-2222?")
    every_value = " ".join(str(value) for span in spans.all() for value in attrs(span).values())
    assert re.search(r"\d{3}-\d{4}", every_value) is None
    root = attrs(spans.one("rag ask"))
    assert root[semconv.INPUT_VALUE] == "what is <phone>?"
    assert json.loads(root[semconv.CONTEXT])[0]["text"] == "office line <phone>"


def test_bad_settings_from_the_environment_fall_back_to_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGPULSE_CAPTURE_CONTENT", "maybe")
    monkeypatch.setenv("RAGPULSE_MAX_TEXT_CHARS", "-5")
    settings = ragpulse.settings.apply_settings()
    assert (settings.capture_content, settings.max_text_chars) == (True, 16_000)
    monkeypatch.setenv("RAGPULSE_MAX_TEXT_CHARS", "2048")
    assert ragpulse.settings.apply_settings().max_text_chars == 2048
    with pytest.raises(ValueError, match="at least 1"):
        ragpulse.configure(max_text_chars=0)


@given(
    st.lists(st.integers(min_value=0, max_value=5_000), max_size=30),
    st.integers(min_value=1, max_value=20_000),
)
def test_share_cap_fits_the_budget_and_cuts_only_long_texts(lengths: list[int], budget: int) -> None:
    cap = share_cap(lengths, budget)
    if cap is None:
        assert sum(lengths) <= budget
        return
    cut = [min(length, cap) for length in lengths]
    assert sum(cut) <= budget
    assert all(length == original for length, original in zip(cut, lengths, strict=True) if original <= cap)
