"""OTLP metrics are answered as a real endpoint answers them, then dropped: decoded and counted, never stored,
and a body that is not a metrics request is still a 400."""

from __future__ import annotations

import json

import grpc
import pytest
from conftest import StartCollector
from google.rpc import status_pb2
from otlp_testing import post
from ragpulse_core.store import Store

METRICS_PATH = "/v1/metrics"
GRPC_EXPORT = "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export"

# A gauge with an exemplar and a histogram, as OTLP JSON writes them (ids in hex, 64-bit ints as strings).
OTLP_JSON = {
    "resourceMetrics": [
        {
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "json-svc"}}]},
            "scopeMetrics": [
                {
                    "scope": {"name": "app"},
                    "metrics": [
                        {
                            "name": "queue.depth",
                            "gauge": {
                                "dataPoints": [
                                    {
                                        "timeUnixNano": "1700000000000000000",
                                        "asInt": "3",
                                        "exemplars": [
                                            {
                                                "asInt": "3",
                                                "timeUnixNano": "1700000000000000000",
                                                "traceId": "5B8EFFF798038103D269B633813FC60C",
                                                "spanId": "EEE19B7EC3C1B174",
                                            }
                                        ],
                                    }
                                ]
                            },
                        },
                        {
                            "name": "rag.latency",
                            "unit": "s",
                            "histogram": {
                                "aggregationTemporality": 2,
                                "dataPoints": [
                                    {
                                        "count": "2",
                                        "sum": 0.5,
                                        "bucketCounts": ["1", "1"],
                                        "explicitBounds": [0.3],
                                    },
                                    {
                                        "count": "1",
                                        "sum": 0.1,
                                        "bucketCounts": ["1", "0"],
                                        "explicitBounds": [0.3],
                                    },
                                ],
                            },
                        },
                    ],
                }
            ],
        }
    ]
}


def _stored_tables(store: Store) -> set[str]:
    return {
        name
        for (name,) in store.query(
            "SELECT name FROM system.tables WHERE database = {db:String}", {"db": store.database}
        )
    }


def test_metrics_are_answered_counted_and_dropped(start_collector: StartCollector, store: Store) -> None:
    server = start_collector(auth_token="s3cret")
    auth = {"Authorization": "Bearer s3cret"}
    tables = _stored_tables(store)

    status, headers, reply = post(
        server.url, json.dumps(OTLP_JSON).encode(), "application/json", auth, path=METRICS_PATH
    )
    assert (status, headers["Content-Type"], json.loads(reply)) == (200, "application/json", {})
    assert server.metrics.value("metric_data_points_dropped_total") == 3
    assert post(server.url, json.dumps(OTLP_JSON).encode(), "application/json", path=METRICS_PATH)[0] == 401

    status, _, reply = post(server.url, b"\x0a\xff\xff\xff", headers=auth, path=METRICS_PATH)
    assert status == 400 and "ExportMetricsServiceRequest" in status_pb2.Status.FromString(reply).message
    bad_id = json.dumps(OTLP_JSON).replace("EEE19B7EC3C1B174", "not-hex").encode()
    assert post(server.url, bad_id, "application/json", auth, path=METRICS_PATH)[0] == 400
    assert server.metrics.value("metric_data_points_dropped_total") == 3
    assert _stored_tables(store) == tables
    rendered = post(server.url, b"", path="/metrics", method="GET")[2].decode()
    assert "ragpulse_collector_metric_data_points_dropped_total 3" in rendered


def test_metrics_over_grpc_are_accepted_and_garbage_is_invalid(start_collector: StartCollector) -> None:
    server = start_collector(grpc_port=0)
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        export = channel.unary_unary(GRPC_EXPORT)
        assert export(b"", timeout=30) == b""
        with pytest.raises(grpc.RpcError) as invalid:
            export(b"\x0a\xff\xff\xff", timeout=30)
    assert invalid.value.code() is grpc.StatusCode.INVALID_ARGUMENT
