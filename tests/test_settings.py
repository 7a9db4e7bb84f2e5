"""Configuration: one model, layered sources, typos reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from ragpulse_core.settings import RagpulseSettings
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.settings import ScorersSettings

EXAMPLE = Path(__file__).resolve().parents[1] / "ragpulse.example.toml"


def test_the_shipped_example_config_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = ScorersSettings.load(EXAMPLE)
    assert settings.scorer.sample_rate == 0.2
    assert settings.judge.prices["gpt-4o-mini"].output_per_million == 0.60
    assert settings.collector.spool_dir == Path("/var/spool/ragpulse")


def test_every_command_reads_the_whole_file_whichever_part_it_belongs_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`ragpulse migrate --config ragpulse.example.toml` once refused [scorer], [alerts] and [live] as
    unknown: the core's command loaded only the core's sections. Every part's sections are known anywhere."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = RagpulseSettings.load(EXAMPLE)
    assert isinstance(settings, DashboardsSettings)
    assert (settings.live.window_hours, settings.alerts.window_minutes) == (24, 60)
    assert settings.scorer.sample_rate == 0.2


def test_flags_beat_the_file_which_beats_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text('[scorer]\nsample_rate = 0.5\ninterval_s = 3\n')
    monkeypatch.setenv("RAGPULSE_SCORER__SAMPLE_RATE", "0.1")
    monkeypatch.setenv("RAGPULSE_SCORER__CONCURRENCY", "7")
    settings = ScorersSettings.load(config, scorer={"interval_s": 9.0, "per_tick_limit": None})
    assert settings.scorer.sample_rate == 0.5  # file over environment
    assert settings.scorer.concurrency == 7  # environment where the file is silent
    assert settings.scorer.interval_s == 9.0  # flag over file
    assert settings.scorer.per_tick_limit == 500  # an unset flag hides nothing


def test_standard_openai_variables_configure_the_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    monkeypatch.setenv("RAGPULSE_JUDGE_MODEL", "qwen2.5")
    judge = ScorersSettings.load().judge
    assert (judge.base_url, judge.model, judge.configured) == ("http://127.0.0.1:11434/v1", "qwen2.5", True)


def test_a_misspelt_key_is_an_error_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text("[scorer]\nsample_rat = 0.5\n")
    with pytest.raises(ValidationError, match="sample_rat"):
        ScorersSettings.load(config)


def test_a_missing_config_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nope\.toml"):
        ScorersSettings.load(tmp_path / "nope.toml")
