"""A child process that exports spans with OpenTelemetry's own exporters, as an instrumented app does.

Reads one JSON document on stdin: ``protocol`` (http or grpc), ``endpoint``, ``exports`` (a list of
batches, each a list of spans), ``retry_until_success``, ``timeout`` and ``resend_superset`` (each retry
also re-sends the batch acknowledged before). A span is a dict of ``service``, ``name``, ``trace_id``,
``span_id``, ``parent_id`` (ids as hex), ``start``, ``end`` (ns), ``attributes``, ``error`` and ``scope``
(the instrumentation's name). Exports the batches in order, one ``export`` call each (the exporter's own
retries included), and prints one result name per batch.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

SCOPE = "ragpulse-trials"


def readable(span: dict[str, Any]) -> ReadableSpan:
    context = SpanContext(
        int(span["trace_id"], 16), int(span["span_id"], 16), is_remote=False, trace_flags=TraceFlags(1)
    )
    parent = None
    if span.get("parent_id"):
        parent = SpanContext(
            int(span["trace_id"], 16), int(span["parent_id"], 16), is_remote=False, trace_flags=TraceFlags(1)
        )
    status = Status(StatusCode.ERROR, "boom") if span.get("error") else Status(StatusCode.OK)
    return ReadableSpan(
        name=span["name"],
        context=context,
        parent=parent,
        resource=Resource({"service.name": span["service"]}),
        attributes=span.get("attributes", {}),
        kind=SpanKind.INTERNAL,
        start_time=int(span["start"]),
        end_time=int(span["end"]),
        status=status,
        instrumentation_scope=InstrumentationScope(span.get("scope", SCOPE)),
    )


def exporter_for(protocol: str, endpoint: str, timeout: float) -> SpanExporter:
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        return GrpcExporter(endpoint=endpoint, insecure=True, timeout=timeout)
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

    return HttpExporter(endpoint=endpoint, timeout=timeout)


def main() -> None:
    plan = json.load(sys.stdin)
    exporter = exporter_for(plan["protocol"], plan["endpoint"], plan.get("timeout", 10))
    previous: list[ReadableSpan] = []
    for batch in plan["exports"]:
        spans = [readable(span) for span in batch]
        result = exporter.export(spans)
        while plan.get("retry_until_success") and result is not SpanExportResult.SUCCESS:
            time.sleep(0.05)
            if plan.get("resend_superset"):
                # As an app restarted with a persisted queue: what failed, and what was acknowledged before.
                spans = previous + [span for span in spans if span not in previous]
            result = exporter.export(spans)
        previous = spans
        print(result.name, flush=True)
    exporter.shutdown()


if __name__ == "__main__":
    main()
