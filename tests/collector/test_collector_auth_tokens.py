"""An empty or blank ingest token is refused at start-up in one line, never taken for "auth off"; and a
request with an empty bearer credential is refused on HTTP and gRPC alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from collector_process import unused_port
from conftest import StartCollector
from otlp_testing import make_request, make_span, post, span_count
from pydantic import SecretStr, ValidationError
from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import CollectorSettings, RagpulseSettings
from ragpulse_core.store import Store
from ragpulse_core.tokens import TokenError

EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"
BLANKS = ["", " ", "\t\n"]


def _collector_command(tmp_path: Path, *flags: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("RAGPULSE_")}
    environment.update(env)
    command = [sys.executable, "-m", "ragpulse_core.cli", "collector", "--dsn", f"chdb://{tmp_path / 'db'}",
               "--port", str(unused_port()), *flags]  # fmt: skip
    return subprocess.run(
        command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize("blank", BLANKS)
def test_a_blank_token_from_the_environment_is_a_settings_error(
    monkeypatch: pytest.MonkeyPatch, blank: str
) -> None:
    monkeypatch.setenv("RAGPULSE_COLLECTOR__AUTH_TOKEN", blank)
    with pytest.raises(ValidationError, match=r"collector\.auth_token is empty"):
        RagpulseSettings.load(None)


def test_the_collector_refuses_to_start_with_a_blank_token_in_one_line(tmp_path: Path) -> None:
    from_env = _collector_command(tmp_path, RAGPULSE_COLLECTOR__AUTH_TOKEN="  ")
    from_flag = _collector_command(tmp_path, "--auth-token", "")
    blank_file = tmp_path / "token"
    blank_file.write_text(" \n")
    from_file = _collector_command(tmp_path, "--auth-token-file", str(blank_file))
    empty = "collector.auth_token is empty"
    for result, said in ((from_env, empty), (from_flag, empty),
                         (from_file, f"auth token file {blank_file} is empty")):  # fmt: skip
        lines = (result.stdout + result.stderr).strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, lines
        assert lines[0].startswith("error:") and said in lines[0], lines[0]
        assert "listening" not in result.stdout


def test_a_token_that_skipped_validation_still_cannot_turn_auth_off(store: Store) -> None:
    collector = CollectorSettings.model_construct(
        **{**CollectorSettings().__dict__, "auth_token": SecretStr("")}
    )
    settings = RagpulseSettings.model_construct(store=RagpulseSettings().store, collector=collector)
    with pytest.raises(TokenError, match="empty"):
        CollectorServer(settings, store)


@pytest.mark.parametrize("header", ["Bearer ", "Bearer", "bearer  ", "", " "])
def test_an_empty_bearer_credential_is_refused_over_http(
    start_collector: StartCollector, store: Store, header: str
) -> None:
    server = start_collector(auth_token="s3cret")
    body = make_request([make_span()]).SerializeToString()
    assert post(server.url, body, headers={"Authorization": header})[0] == 401
    assert span_count(store) == (0, 0)


@pytest.mark.parametrize("header", ["Bearer ", "Bearer", ""])
def test_an_empty_bearer_credential_is_refused_over_grpc(
    start_collector: StartCollector, store: Store, header: str
) -> None:
    server = start_collector(grpc_port=0, auth_token="s3cret")
    body = make_request([make_span()]).SerializeToString()
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        with pytest.raises(grpc.RpcError) as refused:
            channel.unary_unary(EXPORT)(body, metadata=(("authorization", header),), timeout=30)
        assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
        channel.unary_unary(EXPORT)(body, metadata=(("authorization", "Bearer s3cret"),), timeout=30)
    assert span_count(store) == (1, 1)
