"""A port clash names the settings as the user set them: the file key, the environment variable or the flag
actually used, never a flag nobody typed (issue 27: "--port and --live-port are both 4500" for a file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ragpulse_core.preflight import PortUnavailable, check_listeners, collector_listeners
from ragpulse_core.settings import RagpulseSettings

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))


def _serve(argv: list[str], cwd: Path, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_"))}
    done = subprocess.run(
        [RAGPULSE, "serve", *argv], cwd=cwd, env={**clean, "COLUMNS": "300", **env},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    return [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("file", "argv", "env", "said"),
    [
        ("[collector]\nport = 4500\n[live]\nport = 4500\n", [], {},
         "[collector] port in {config} and [live] port in {config} are both 4500"),
        ("[live]\nport = 4501\n", ["--port", "4501"], {}, "--port and [live] port in {config} are both 4501"),
        ("", ["--live-port", "4502"], {"RAGPULSE_COLLECTOR__PORT": "4502"},
         "RAGPULSE_COLLECTOR__PORT and --live-port are both 4502"),
        ("[collector]\nport = 4503\n", [], {"RAGPULSE_LIVE__PORT": "4503"},
         "[collector] port in {config} and RAGPULSE_LIVE__PORT are both 4503"),
        ("[collector]\ngrpc_port = 4504\n", ["--port", "4504"], {},
         "--port and [collector] grpc_port in {config} are both 4504"),
        ("[live]\nport = 4318\n", [], {}, "--port and [live] port in {config} are both 4318"),
    ],
)  # fmt: skip
def test_serve_names_where_each_clashing_port_was_set(
    tmp_path: Path, file: str, argv: list[str], env: dict[str, str], said: str
) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text(file)
    lines = _serve(["--config", str(config), "--dsn", f"chdb://{tmp_path / 'db'}", *argv], tmp_path, **env)
    assert len(lines) == 1 and said.format(config=config) in lines[0], lines
    assert not (tmp_path / "db").exists()


def test_the_flag_wins_over_the_file_and_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text("[collector]\nport = 4600\ngrpc_port = 4601\n")
    monkeypatch.setenv("RAGPULSE_COLLECTOR__GRPC_PORT", "4602")
    settings = RagpulseSettings.load(config, collector={"port": 4601})
    assert settings.origin("collector", "port", "--port") == "--port"
    assert settings.origin("collector", "grpc_port", "--grpc-port") == f"[collector] grpc_port in {config}"
    assert settings.origin("store", "dsn", "--dsn") == "--dsn"
    with pytest.raises(
        PortUnavailable, match=rf"^--port and \[collector\] grpc_port in {config} are both 4601"
    ):
        check_listeners(collector_listeners(settings.collector, settings.origin))
