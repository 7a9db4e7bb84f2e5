"""The instrumented service: its spans, how injection is planned and marked, the CLI and the LLM backend."""

from __future__ import annotations

import json

import httpx
import pytest
from openai import OpenAI
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_example import __main__ as example_main
from ragpulse_example.__main__ import main
from ragpulse_example.backends import OpenAIBackend, StandinBackend, default_backend
from ragpulse_example.bm25 import default_index
from ragpulse_example.injection import INJECTED_ATTRIBUTE
from ragpulse_example.service import RagFusionService, variant_named
from ragpulse_example.standins import STANDIN_MODEL
from ragpulse_example.traffic import plan_injections, run_traffic


def _roots(exporter: InMemorySpanExporter) -> list[dict[str, object]]:
    return [
        dict(s.attributes or {})
        for s in exporter.get_finished_spans()
        if (s.attributes or {}).get("ragpulse.kind") == "rag"
    ]


def test_fusion_variant_traces_every_step_and_five_chunks_of_context(exporter: InMemorySpanExporter) -> None:
    service = RagFusionService(variant_named("B"), StandinBackend(), default_index())
    answer = service.ask("What does the else clause of a for loop do?")
    names = [span.name for span in exporter.get_finished_spans()]
    assert names.count("retrieve") == 4 and names.count("variations") == 1 and names.count("fuse") == 1
    (root,) = _roots(exporter)
    assert root["ragpulse.variant"] == "B"
    assert root["output.value"] == answer
    context = json.loads(str(root["ragpulse.context"]))
    assert len(context) == 5 and all(chunk["id"].startswith("pydoc:") for chunk in context)
    assert len(json.loads(str(root["ragpulse.variations"]))) == 3
    generate = next(s for s in exporter.get_finished_spans() if s.name == "generate")
    assert STANDIN_MODEL in (generate.attributes or {}).values()
    assert INJECTED_ATTRIBUTE not in root


def test_plain_variant_retrieves_once_without_fusion(exporter: InMemorySpanExporter) -> None:
    RagFusionService(variant_named("A"), StandinBackend(), default_index()).ask("What does pass do?")
    names = [span.name for span in exporter.get_finished_spans()]
    assert names.count("retrieve") == 1 and "fuse" not in names and "variations" not in names


def test_injected_requests_are_marked_on_the_root_span(exporter: InMemorySpanExporter) -> None:
    service = RagFusionService(variant_named("A"), StandinBackend(), default_index())
    clean = service.ask("What does the global statement do?")
    planted = service.ask("What does the global statement do?", inject_seed=5)
    roots = _roots(exporter)
    assert INJECTED_ATTRIBUTE not in roots[0]
    assert roots[1][INJECTED_ATTRIBUTE] is True
    assert planted != clean and all(sentence in planted for sentence in clean.split(". ")[:1])


def test_injection_plan_is_exact_per_variant_and_deterministic() -> None:
    plan = plan_injections(200, ["A", "B"], 0.2, seed=1)
    assert sum(plan[0::2]) == 20 and sum(plan[1::2]) == 20
    assert plan == plan_injections(200, ["A", "B"], 0.2, seed=1)
    assert plan != plan_injections(200, ["A", "B"], 0.2, seed=2)
    assert not any(plan_injections(10, ["A"], 0.0, seed=1))
    with pytest.raises(ValueError, match="inject rate"):
        plan_injections(10, ["A"], 1.5, seed=1)


def test_run_traffic_alternates_variants_and_reports_what_it_planted(exporter: InMemorySpanExporter) -> None:
    seen: list[int] = []
    summary = run_traffic(
        "http://127.0.0.1:9", 20, 0.3, ["A", "B"], seed=7, on_request=lambda r: seen.append(r.index)
    )
    assert seen == list(range(20))
    assert {name: (t.sent, t.injected) for name, t in summary.by_variant.items()} == {
        "A": (10, 3),
        "B": (10, 3),
    }
    roots = _roots(exporter)
    assert len(roots) == 20
    assert sum(bool(root.get(INJECTED_ATTRIBUTE)) for root in roots) == 6
    injected_traces = {record.trace_id for record in summary.records if record.injected}
    assert len(injected_traces) == 6 and all(len(trace) == 32 for trace in injected_traces)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        run_traffic("http://127.0.0.1:9", 1, 0.0, ["Z"], seed=1)


def test_cli_sends_traffic_and_prints_per_variant_counts(
    exporter: InMemorySpanExporter, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--requests", "4", "--inject", "0.5", "--variants", "A,B", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "variant A: 2 sent, 1 injected" in out and STANDIN_MODEL in out


def test_without_an_endpoint_the_labelled_standins_are_used(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with caplog.at_level("INFO"):
        backend = default_backend()
    assert backend.model == STANDIN_MODEL
    assert "stand-ins" in caplog.text


def _chat_server(content: str) -> OpenAI:
    def reply(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        assert body["model"] == "m"
        return httpx.Response(200, json={
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
        })  # fmt: skip

    return OpenAI(
        api_key="k",
        base_url="http://llm.test/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(reply)),
    )


def test_llm_backend_parses_one_variation_per_line() -> None:
    backend = OpenAIBackend(
        "m", client=_chat_server("1. for else clause\n- loop else semantics\n\nbreak and else\nextra")
    )
    assert backend.variations("q?", 3) == ["for else clause", "loop else semantics", "break and else"]


def test_llm_backend_answers_from_the_model() -> None:
    assert OpenAIBackend("m", client=_chat_server("It runs when the loop ends.")).answer("q?", ["p"]) == (
        "It runs when the loop ends."
    )


def test_forever_sends_batch_after_batch_no_faster_than_the_rate(
    exporter: InMemorySpanExporter, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 3:
            raise KeyboardInterrupt  # what stopping the container does

    monkeypatch.setattr(example_main, "sleep", pause)
    assert main(["--requests", "2", "--forever", "--rate", "0.5", "--seed", "3"]) == 0
    assert capsys.readouterr().out.count("2 requests in") == 3
    assert len(_roots(exporter)) == 6
    # 2 requests at 0.5 per second: a batch and its pause take 4 s.
    assert all(0 < pause_s <= 4.0 for pause_s in pauses) and max(pauses) > 3.0
