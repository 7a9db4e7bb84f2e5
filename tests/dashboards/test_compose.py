"""docker-compose.yml: validated by `docker-compose config` when the binary exists (Debian's package needs no
engine), and always structurally: pinned images, healthchecks, ordered start-up, Grafana locked down and
provisioned, and the stock-otel profile."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from compose_testing import compose_check
from ragpulse_core.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
LONG_RUNNING_CHECKED = ("clickhouse", "collector", "scorer", "grafana")
DOCKER_COMPOSE = shutil.which("docker-compose")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document


def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = compose["services"]
    return result


def compose_summary(output: str) -> str:
    summary: str = compose_check().summary(output, COMPOSE.name)
    return summary


def run_config(*args: str, password: str | None = "test-only") -> subprocess.CompletedProcess[str]:
    assert DOCKER_COMPOSE is not None
    env = {k: v for k, v in os.environ.items() if k != "GRAFANA_ADMIN_PASSWORD"}
    if password is not None:
        env["GRAFANA_ADMIN_PASSWORD"] = password
    return subprocess.run(
        [DOCKER_COMPOSE, "-f", str(COMPOSE), *args, "config", "--quiet"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.skipif(
    DOCKER_COMPOSE is None, reason="docker-compose not installed (apt-get install docker-compose)"
)
@pytest.mark.parametrize("profile", [None, "stock-otel"])
def test_docker_compose_config_passes(profile: str | None) -> None:
    result = run_config(*(["--profile", profile] if profile else []))
    # The problem first, in one line (make compose-config prints the same), then docker-compose's words.
    assert result.returncode == 0, f"{compose_summary(result.stderr)}\n{result.stderr}"


@pytest.mark.skipif(
    DOCKER_COMPOSE is None, reason="docker-compose not installed (apt-get install docker-compose)"
)
def test_docker_compose_refuses_to_start_grafana_without_an_admin_password() -> None:
    result = run_config(password=None)
    assert result.returncode != 0
    assert "GRAFANA_ADMIN_PASSWORD" in result.stderr


def test_every_image_is_pinned(compose: dict[str, Any]) -> None:
    for name, service in services(compose).items():
        image = service.get("image")
        assert image, f"{name} needs an image (ragpulse services name the one they build)"
        repository, _, tag = image.rpartition(":")
        assert repository and tag and tag != "latest" and "/" not in tag, f"{name}: {image} is not pinned"
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    (base,) = re.findall(r"^FROM\s+(\S+)", dockerfile, re.MULTILINE)
    assert re.search(r":\d+\.\d+\.\d+", base), f"base image {base} is not pinned to a patch release"


def test_long_running_services_have_healthchecks(compose: dict[str, Any]) -> None:
    for name in LONG_RUNNING_CHECKED:
        check = services(compose)[name]["healthcheck"]
        assert check["test"] and check["interval"] and check["retries"] >= 1, name


def test_start_up_order_waits_for_health_and_migrations(compose: dict[str, Any]) -> None:
    allowed = {"service_healthy", "service_started", "service_completed_successfully"}
    for name, service in services(compose).items():
        for dependency, spec in service.get("depends_on", {}).items():
            assert isinstance(spec, dict) and spec["condition"] in allowed, f"{name} -> {dependency}"
            assert dependency in services(compose)
            if spec["condition"] == "service_healthy":
                assert "healthcheck" in services(compose)[dependency], f"{dependency} has no healthcheck"
    for name in ("collector", "scorer", "grafana", "otel-collector"):
        assert (
            services(compose)[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        )
    assert services(compose)["migrate"]["depends_on"]["clickhouse"]["condition"] == "service_healthy"
    assert services(compose)["example"]["depends_on"]["collector"]["condition"] == "service_healthy"


def test_grafana_is_locked_down_and_provisioned(compose: dict[str, Any]) -> None:
    grafana = services(compose)["grafana"]
    env = grafana["environment"]
    assert env["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert env["GF_SECURITY_ADMIN_PASSWORD"].startswith("${GRAFANA_ADMIN_PASSWORD:?")
    plugins = (
        env.get("GF_PLUGINS_PREINSTALL_SYNC") or env.get("GF_PLUGINS_PREINSTALL") or env["GF_INSTALL_PLUGINS"]
    )
    assert plugins.split("@")[0] == "grafana-clickhouse-datasource"
    mounts = {
        target.removesuffix(":ro"): source
        for source, _, target in (v.partition(":") for v in grafana["volumes"])
    }
    for kind in ("datasources", "dashboards", "alerting"):
        source = mounts[f"/etc/grafana/provisioning/{kind}"]
        assert (ROOT / source).resolve() == ROOT / "dashboards" / "grafana" / "provisioning" / kind
    provider = yaml.safe_load((ROOT / "dashboards/grafana/provisioning/dashboards/ragpulse.yml").read_text())[
        "providers"
    ][0]
    assert (ROOT / mounts[provider["options"]["path"]]).resolve() == ROOT / "dashboards" / "grafana" / "json"
    assert "/var/lib/grafana" in mounts and mounts["/var/lib/grafana"] in compose["volumes"]


def test_bind_mounts_exist_and_named_volumes_are_declared(compose: dict[str, Any]) -> None:
    for name, service in services(compose).items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).exists(), f"{name} mounts missing {source}"
            else:
                assert source in compose["volumes"], f"{name} uses undeclared volume {source}"
    assert "clickhouse-data" in {v.split(":")[0] for v in services(compose)["clickhouse"]["volumes"]}


def test_ports_are_published_on_loopback_only(compose: dict[str, Any]) -> None:
    for name, service in services(compose).items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} on every interface"


def test_ragpulse_services_run_commands_that_exist(compose: dict[str, Any]) -> None:
    subcommands = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert subcommands is not None
    for name in ("migrate", "collector", "scorer"):
        command = services(compose)[name]["command"]
        assert command[0] == "ragpulse" and command[1] in subcommands, command
        assert services(compose)[name]["build"]["dockerfile"] == "docker/Dockerfile"
    example = services(compose)["example"]["command"]
    assert example[:3] == ["python", "-m", "ragpulse_example"]
    assert importlib.util.find_spec("ragpulse_example.__main__") is not None


def test_stock_otel_profile_writes_the_ragpulse_schema_without_creating_it(compose: dict[str, Any]) -> None:
    otel = services(compose)["otel-collector"]
    assert otel["profiles"] == ["stock-otel"]
    assert otel["image"].startswith("otel/opentelemetry-collector-contrib:")
    assert all("profiles" not in services(compose)[name] for name in LONG_RUNNING_CHECKED)
    source, _, target = otel["volumes"][0].partition(":")
    assert target.removesuffix(":ro") in " ".join(otel["command"])
    config = yaml.safe_load((ROOT / source).read_text())
    exporter = config["exporters"]["clickhouse"]
    assert exporter["create_schema"] is False
    assert (
        exporter["database"] == "ragpulse"
        and exporter.get("traces_table_name", "otel_traces") == "otel_traces"
    )
    assert exporter["endpoint"].startswith("http://clickhouse:8123")
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["clickhouse"]
    assert "otlp" in config["service"]["pipelines"]["traces"]["receivers"]
