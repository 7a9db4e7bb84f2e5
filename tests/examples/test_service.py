"""The instrumented service: its spans, how planting and drift are planned and labelled, the CLI and the LLM
backend."""

from __future__ import annotations

import json

import httpx
import pytest
from openai import OpenAI
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_example import __main__ as example_main
from ragpulse_example.__main__ import main
from ragpulse_example.backends import OpenAIBackend, StandinBackend, default_backend
from ragpulse_example.bm25 import default_index, tokenize
from ragpulse_example.labels import DEGRADED_RETRIEVAL_ATTRIBUTE, PLANTED_ATTRIBUTE
from ragpulse_example.questions import load_questions
from ragpulse_example.service import RagFusionService, variant_named
from ragpulse_example.standins import STANDIN_MODEL, split_passage
from ragpulse_example.traffic import Drift, plan_traffic, run_traffic


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
    assert PLANTED_ATTRIBUTE not in root and DEGRADED_RETRIEVAL_ATTRIBUTE not in root


@pytest.mark.parametrize("variant", ["A", "B"])
def test_no_request_gives_the_generator_one_text_twice(exporter: InMemorySpanExporter, variant: str) -> None:
    """The reference docs repeat topics word for word (``specialnames`` holds ``attribute-access``): fused
    rankings once put both copies in B's five chunks."""
    service = RagFusionService(variant_named(variant), StandinBackend(), default_index())
    for question in [*(q.text for q in load_questions()), "How is __getattr__ called for attribute access?"]:
        service.ask(question)
    for root in _roots(exporter):
        texts = [chunk["text"] for chunk in json.loads(str(root["ragpulse.context"]))]
        assert len(texts) == len(set(texts)), root["input.value"]


def test_plain_variant_retrieves_once_without_fusion(exporter: InMemorySpanExporter) -> None:
    RagFusionService(variant_named("A"), StandinBackend(), default_index()).ask("What does pass do?")
    names = [span.name for span in exporter.get_finished_spans()]
    assert names.count("retrieve") == 1 and "fuse" not in names and "variations" not in names


def test_planted_requests_are_labelled_on_the_root_span(exporter: InMemorySpanExporter) -> None:
    service = RagFusionService(variant_named("A"), StandinBackend(), default_index())
    clean = service.ask("What does the global statement do?")
    planted = service.ask("What does the global statement do?", inject_seed=5)
    roots = _roots(exporter)
    assert PLANTED_ATTRIBUTE not in roots[0]
    assert roots[1][PLANTED_ATTRIBUTE] is True
    assert planted != clean and all(sentence in planted for sentence in clean.split(". ")[:1])


@pytest.mark.parametrize("variant", ["A", "B"])
def test_degraded_retrieval_returns_unrelated_chunks_and_the_standin_answers_beyond_them(
    exporter: InMemorySpanExporter, variant: str
) -> None:
    question = "What does the else clause of a for loop do?"
    service = RagFusionService(variant_named(variant), StandinBackend(), default_index())
    healthy = service.ask(question)
    degraded = service.ask(question, degraded_retrieval=True)
    roots = _roots(exporter)
    assert DEGRADED_RETRIEVAL_ATTRIBUTE not in roots[0]
    assert roots[1][DEGRADED_RETRIEVAL_ATTRIBUTE] is True and PLANTED_ATTRIBUTE not in roots[1]
    context = json.loads(str(roots[1]["ragpulse.context"]))
    assert len(context) == 5
    assert not {"else", "clause", "for", "loop"} & {
        word for chunk in context for word in tokenize(chunk["text"])
    }
    # Like a model whose passages miss the question, the stand-in answers from what it knows: nothing of
    # that answer is in the context it was given.
    context_sentences = {s for chunk in context for s in split_passage(chunk["text"])}
    if variant == "A":  # Plain RAG's healthy context is exactly what the stand-in knows.
        assert degraded == healthy
    assert not set(split_passage(degraded)) & context_sentences


def test_traffic_plan_is_exact_per_variant_and_deterministic() -> None:
    plan = plan_traffic(200, ["A", "B"], {"A": 0.05, "B": 0.2}, seed=1)
    assert sum(p.planted for p in plan[0::2]) == 5 and sum(p.planted for p in plan[1::2]) == 20
    assert [p.variant for p in plan[:4]] == ["A", "B", "A", "B"]
    assert not any(p.degraded_retrieval for p in plan)
    assert plan == plan_traffic(200, ["A", "B"], {"A": 0.05, "B": 0.2}, seed=1)
    assert plan != plan_traffic(200, ["A", "B"], {"A": 0.05, "B": 0.2}, seed=2)
    assert not any(p.planted for p in plan_traffic(10, ["A"], {"A": 0.0}, seed=1))
    with pytest.raises(ValueError, match="inject rate"):
        plan_traffic(10, ["A"], {"A": 1.5}, seed=1)
    with pytest.raises(ValueError, match="sends no traffic"):
        plan_traffic(10, ["A"], {"B": 0.1}, seed=1)


def test_drift_degrades_only_the_named_variant_and_only_from_the_drift_point() -> None:
    plan = plan_traffic(200, ["A", "B"], {"A": 0.05, "B": 0.1}, seed=1, drift=Drift(0.5, {"B": 0.4}))
    degraded = [index for index, p in enumerate(plan) if p.degraded_retrieval]
    assert len(degraded) == 20 and all(index >= 100 and plan[index].variant == "B" for index in degraded)
    assert sum(p.planted for p in plan[1::2]) == 10
    with pytest.raises(ValueError, match="drift point"):
        plan_traffic(10, ["A"], {}, seed=1, drift=Drift(1.5, {"A": 0.1}))


def test_run_traffic_alternates_variants_and_reports_what_it_planted(exporter: InMemorySpanExporter) -> None:
    seen: list[int] = []
    summary = run_traffic(
        "http://127.0.0.1:9",
        20,
        {"A": 0.3, "B": 0.3},
        ["A", "B"],
        seed=7,
        on_request=lambda r: seen.append(r.index),
        drift=Drift(0.5, {"B": 0.4}),
    )
    assert seen == list(range(20))
    assert {name: (t.sent, t.planted, t.degraded) for name, t in summary.by_variant.items()} == {
        "A": (10, 3, 0),
        "B": (10, 3, 2),
    }
    assert summary.drift_started_at is not None
    roots = _roots(exporter)
    assert len(roots) == 20
    assert sum(bool(root.get(PLANTED_ATTRIBUTE)) for root in roots) == 6
    assert sum(bool(root.get(DEGRADED_RETRIEVAL_ATTRIBUTE)) for root in roots) == 2
    planted_traces = {record.trace_id for record in summary.records if record.planted}
    assert len(planted_traces) == 6 and all(len(trace) == 32 for trace in planted_traces)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        run_traffic("http://127.0.0.1:9", 1, {}, ["Z"], seed=1)


def test_cli_sends_traffic_and_prints_per_variant_counts(
    exporter: InMemorySpanExporter, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--requests", "4", "--inject", "A=0.5,B=1", "--variants", "A,B", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "variant A: 2 sent, 1 planted" in out and "variant B: 2 sent, 2 planted" in out
    assert STANDIN_MODEL in out


def test_cli_refuses_a_bad_rate_naming_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--requests", "4", "--inject", "A=lots"])
    assert exit_info.value.code == 2
    assert "--inject: 'A=lots' is not a rate" in capsys.readouterr().err


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
