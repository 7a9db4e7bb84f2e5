"""``ragpulse eval --data NAME``: the labelled set that ships with ragpulse works from a plain clone or an
installed package, paths keep working, and a set that cannot ship says where to get it."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from ragpulse_core.cli import main
from ragpulse_scorers.evaluation.datasets import DatasetError
from ragpulse_scorers.evaluation.shipped import NOT_SHIPPED, SHIPPED, resolve_data, shipped_path

SCORERS = Path(__file__).resolve().parents[2] / "scorers"


def test_the_shipped_set_is_judged_by_its_name_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing of the checkout's ../shared/data is reachable from here

    assert main(["eval", "support", "--data", "ragtruth_qa_dev", "--judge", "lexical", "--json"]) == 0

    result = json.loads(capsys.readouterr().out)
    assert result["coverage"] == {"judged": 356, "total": 356} and result["positives"] == 109


def test_a_path_wins_over_a_shipped_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    own = tmp_path / "ragtruth_qa_dev.jsonl"
    own.write_text("{}\n")
    assert resolve_data(Path("ragtruth_qa_dev.jsonl")) == Path("ragtruth_qa_dev.jsonl")
    assert resolve_data(Path("ragtruth_qa_dev")) == shipped_path("ragtruth_qa_dev")
    assert resolve_data(Path("elsewhere/ragtruth_qa_dev.jsonl")) == Path("elsewhere/ragtruth_qa_dev.jsonl")


@pytest.mark.parametrize("name", sorted(NOT_SHIPPED))
def test_a_set_that_does_not_ship_says_where_to_get_it(name: str, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=f"{name} does not ship with ragpulse.*get it from"):
        resolve_data(Path(name))


def test_the_shipped_sets_are_package_data_with_their_licence(shared_data: Path) -> None:
    for name in SHIPPED:
        assert shipped_path(name).read_bytes() == (shared_data / f"{name}.jsonl").read_bytes()
    notice = (shipped_path(SHIPPED[0]).parent / "README.md").read_text()
    assert "MIT License" in notice and "Copyright (c) 2023 Particle Media" in notice
    pyproject = (SCORERS / "pyproject.toml").read_text()
    assert '"evaluation/data/*"' in pyproject


def test_a_wheel_carries_the_shipped_sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build = pytest.importorskip("setuptools.build_meta")
    # Built from a copy: a build in the checkout would leave an egg-info where the tests import from.
    source = tmp_path / "scorers"
    shutil.copytree(SCORERS, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    monkeypatch.chdir(source)

    wheel = build.build_wheel(str(tmp_path / "dist"))

    names = zipfile.ZipFile(tmp_path / "dist" / wheel).namelist()
    assert {f"ragpulse_scorers/evaluation/data/{name}.jsonl" for name in SHIPPED} <= set(names)
    assert "ragpulse_scorers/evaluation/data/README.md" in names
