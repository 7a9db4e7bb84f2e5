"""The parts' arrows point one way, down the layers: examples' demo → dashboards → scorers → assembly → core,
and collector → core; a part never imports one above it or beside it."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Each part's package, and the top-level packages it must never import.
FORBIDDEN_IMPORTS = {
    "judge/src/ragpulse_judge": (
        "ragpulse_core", "ragpulse_collector", "ragpulse_assembly", "ragpulse_scorers", "ragpulse_dashboards",
        "ragpulse",
    ),
    "core/src/ragpulse_core": (
        "ragpulse_collector", "ragpulse_assembly", "ragpulse_scorers", "ragpulse_dashboards", "ragpulse",
    ),
    "collector/src/ragpulse_collector": ("ragpulse_assembly", "ragpulse_scorers", "ragpulse_dashboards"),
    "assembly/src/ragpulse_assembly": ("ragpulse_collector", "ragpulse_scorers", "ragpulse_dashboards"),
    "scorers/src/ragpulse_scorers": ("ragpulse_collector", "ragpulse_dashboards", "ragpulse_demo"),
    "dashboards/src/ragpulse_dashboards": ("ragpulse_collector", "ragpulse_demo", "ragpulse_example"),
}  # fmt: skip
DEPENDENCIES = {
    "judge": (set(), {"ragpulse-core", "ragpulse-scorers", "ragpulse"}),
    "core": ({"clickhouse-connect", "pydantic", "pydantic-settings", "rich"}, {"ragpulse-collector"}),
    "collector": ({"ragpulse-core"}, {"ragpulse-scorers", "ragpulse-assembly", "ragpulse-dashboards"}),
    "assembly": ({"ragpulse-core"}, {"ragpulse-collector", "ragpulse-scorers", "ragpulse-dashboards"}),
    "scorers": (
        {"ragpulse-core", "ragpulse-assembly", "ragpulse-judge"},
        {"ragpulse-collector", "ragpulse-dashboards"},
    ),
    "dashboards": ({"ragpulse-scorers"}, {"ragpulse-collector"}),
}


def imported_packages(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN_IMPORTS))
def test_a_part_imports_no_part_it_must_not_know(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & set(FORBIDDEN_IMPORTS[package]))
        for path in (ROOT / package).rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_server_parts_use_ragpulse_for_its_semantic_conventions_only() -> None:
    pattern = re.compile(r"^from ragpulse(?:\.(\w+))? import (.+)$", re.MULTILINE)
    imports = [
        imported
        for package in ("assembly/src/ragpulse_assembly", "scorers/src/ragpulse_scorers", "dashboards/src")
        for path in (ROOT / package).rglob("*.py")
        for imported in pattern.findall(path.read_text(encoding="utf-8"))
    ]
    assert imports and all(imported == ("", "semconv") for imported in imports), imports


@pytest.mark.parametrize("part", sorted(DEPENDENCIES))
def test_each_part_depends_on_the_core_and_not_on_its_sibling(part: str) -> None:
    project = tomllib.loads((ROOT / part / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0] for requirement in project["dependencies"]}
    required, forbidden = DEPENDENCIES[part]
    assert required <= names and not names & forbidden, names


PARTS = ("instrumentation", "judge", "core", "collector", "assembly", "scorers", "dashboards", "examples")


@pytest.mark.parametrize("part", PARTS)
def test_each_part_says_what_it_holds_and_what_it_may_import(part: str) -> None:
    readme = (ROOT / part / "README.md").read_text(encoding="utf-8")
    opening = readme.split("\n\n", 2)[1]  # the paragraph under the title
    assert "Holds" in opening and "May import" in opening, opening
