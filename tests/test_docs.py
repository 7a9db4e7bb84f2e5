"""The documentation: a short README whose links all lead somewhere, a site that builds strictly, and a
configuration reference made from the settings classes (every field, by the names that really set it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any

import pytest
from markdown.extensions.toc import slugify
from pydantic import BaseModel, Field, SecretStr
from ragpulse_core.settings import RagpulseSettings, SettingsSection, installed_extension
from ragpulse_core.settings_reference import Row, Table, reference_markdown, reference_tables

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README_MOST_LINES = 250
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.M)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def anchors(page: Path) -> set[str]:
    """The ids mkdocs gives the page's headings (GitHub's are the same for the headings used here)."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slugify(re.sub(r"[`*]", "", heading), "-") for heading in HEADING.findall(text)}


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_MOST_LINES


@pytest.mark.parametrize("document", documents(), ids=lambda path: path.name)
def test_every_relative_link_resolves(document: Path) -> None:
    """Links to files and headings, as GitHub follows them (mkdocs checks the site's own the same way)."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        missing_anchor = bool(anchor) and resolved.suffix == ".md" and anchor not in anchors(resolved)
        if not resolved.exists() or missing_anchor:
            broken.append(target)
    assert not broken, f"{document.name}: {broken}"


def test_the_site_builds_strictly_with_every_page_and_the_generated_reference(tmp_path: Path) -> None:
    """A broken link or anchor, a page not in the nav or a nav entry without its page fails the build."""
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    for page in DOCS.glob("*.md"):
        built = tmp_path / "site" / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert built.is_file(), page.name
    configuration = (tmp_path / "site" / "configuration" / "index.html").read_text(encoding="utf-8")
    assert "settings-reference" not in configuration
    assert "RAGPULSE_STORE__DSN" in configuration and "RAGPULSE_SCORER__FREE__JUDGE" in configuration


def leaf_fields(model: type[BaseModel], path: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """Every setting a person can write, found without the generator: (tables on the way, key)."""
    found: list[tuple[tuple[str, ...], str]] = []
    for name, field in model.model_fields.items():
        key = field.alias or name
        nested = [
            member
            for member in nested_models(field.annotation)
            if issubclass(member, SettingsSection) and not short_form(field.annotation)
        ]
        if nested:
            for member in nested:
                found += leaf_fields(member, (*path, key))
        else:
            found.append((path, key))
    return found


def nested_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [member for arg in typing.get_args(annotation) for member in nested_models(arg)]


def short_form(annotation: Any) -> bool:
    """A rule's condition: a table that may be written as a string or a list, so a value of its own."""
    return "BeforeValidator" in repr(annotation)


def table_path(table: Table) -> tuple[str, ...]:
    name = re.sub(r'^\[+|\]+( kind = ".*")?$', "", table.header)
    return tuple(part for part in name.split(".") if part != "<name>")


def test_the_reference_names_every_setting_of_every_installed_part() -> None:
    complete = installed_extension(RagpulseSettings)
    written = {(table_path(table), row.key) for table in reference_tables() for row in table.rows}
    expected = set(leaf_fields(complete, ()))
    assert expected - written == set()
    assert {section for section in complete.model_fields} <= {path[0] for path, _ in written}


class _Widgets(SettingsSection):
    """A section a new part might add."""

    limit: int = Field(3, ge=1, description="How many widgets at once")
    token: SecretStr | None = Field(None, description="A secret, shown unset")


class _Extended(RagpulseSettings):
    widgets: _Widgets = Field(default_factory=_Widgets)


def test_a_new_setting_appears_without_editing_the_docs() -> None:
    page = reference_markdown(_Extended)
    assert "### `[widgets]`" in page and "A section a new part might add." in page
    widgets = page[page.index("[widgets]") :]
    assert "| `limit` | `RAGPULSE_WIDGETS__LIMIT` | int | `3` | How many widgets at once |" in widgets, (
        widgets
    )
    assert "| `token` | `RAGPULSE_WIDGETS__TOKEN` | secret string (optional) | unset |" in page


def test_defaults_are_a_clean_environments_whoever_builds_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://judge.internal/v1")
    monkeypatch.setenv("RAGPULSE_JUDGE_MODEL", "private-model")
    page = reference_markdown()
    assert "judge.internal" not in page and "private-model" not in page and '`"gpt-4o-mini"`' in page
    assert str(Path.cwd()) not in page and '`"chdb://./.ragpulse/chdb"`' in page
    assert os.environ["OPENAI_BASE_URL"] == "http://judge.internal/v1"


def whole_numbers() -> list[tuple[Table, Row]]:
    """Every integer setting a variable of its own sets (those of lists of tables come as JSON)."""
    return [
        (table, row)
        for table in reference_tables()
        for row in table.rows
        if row.variable and row.type == "int" and row.default.replace("_", "").isdigit()
    ]


def test_the_variable_the_reference_names_sets_that_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("RAGPULSE_", "OPENAI_", "OTEL_")):
            monkeypatch.delenv(name)
    rows = whole_numbers()
    assert len(rows) > 30
    for table, row in rows:
        value = int(row.default.replace("_", "")) + 1
        with monkeypatch.context() as scoped:
            scoped.setenv(row.variable, str(value))
            assert setting(RagpulseSettings.load(), table, row) == value, row.variable


def test_the_table_and_key_the_reference_names_set_that_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in list(os.environ):
        if name.startswith(("RAGPULSE_", "OPENAI_", "OTEL_")):
            monkeypatch.delenv(name)
    for table, row in whole_numbers():
        value = int(row.default.replace("_", "")) + 1
        config = tmp_path / "ragpulse.toml"
        config.write_text(f"{table.header}\n{row.key} = {value}\n", encoding="utf-8")
        assert tomllib.loads(config.read_text())
        assert setting(RagpulseSettings.load(config), table, row) == value, f"{table.header} {row.key}"


def setting(settings: RagpulseSettings, table: Table, row: Row) -> Any:
    value: Any = settings
    for part in table_path(table):
        value = getattr(value, part)
    return getattr(value, row.key)


def test_every_setting_says_what_it_is_for() -> None:
    """The reference's description column comes from each field's own description: a field added without
    one would be a blank row."""
    tables = reference_tables()
    blank = [f"{table.header} {row.key}" for table in tables for row in table.rows if not row.description]
    assert blank == []
