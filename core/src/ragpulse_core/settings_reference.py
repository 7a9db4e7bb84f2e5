"""The configuration reference, made from the settings classes themselves so that it cannot drift.

Every field of the most complete installed settings class becomes a row: its TOML key under its section, the
environment variable that sets it, its type, its default and its description. Names follow how
:meth:`RagpulseSettings.load` reads them: sections are TOML tables (``[scorer.free]``) and
``RAGPULSE_<SECTION>__<FIELD>`` variables, ``__`` between nested names; a list of tables (``[[rules]]``) or a
table of tables (``[judge.prices.<name>]``) is one variable holding JSON. The docs build calls
:func:`reference_markdown` (``docs/hooks/settings_reference.py``).
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, BeforeValidator, SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from ragpulse_core.settings import RagpulseSettings, installed_extension

ENV_PREFIX = "RAGPULSE_"
NESTED = "__"
REQUIRED = "required"
UNSET = "unset"
DEFAULTS_READ_FROM = ("RAGPULSE_", "OPENAI_", "OTEL_")
"""Variables some defaults are read from: cleared while defaults are rendered, so the reference shows what a
clean environment gets, not the environment of whoever builds the docs."""


@dataclass(frozen=True)
class Row:
    key: str
    variable: str
    type: str
    default: str
    description: str


@dataclass(frozen=True)
class Table:
    """One TOML table of the reference: ``[scorer.free]``, ``[[rules]]``, ``[[alerts.destinations]]`` of a
    kind, ``[judge.prices.<name>]``."""

    header: str
    variable: str
    """The variable of a whole list or table of tables (JSON), else empty: each row names its own."""
    doc: str
    rows: tuple[Row, ...]


def reference_tables(settings_class: type[RagpulseSettings] | None = None) -> list[Table]:
    """Every table of ``settings_class`` (default: the most complete installed one), sections in order."""
    complete = settings_class or installed_extension(RagpulseSettings)
    tables: list[Table] = []
    with _clean_environment():
        for name, field in complete.model_fields.items():
            tables += _tables_of(field.annotation, [_toml_key(name, field)], ENV_PREFIX + name.upper())
    return tables


def reference_markdown(settings_class: type[RagpulseSettings] | None = None) -> str:
    """The reference as markdown: a heading and a table per TOML table."""
    parts: list[str] = []
    for table in reference_tables(settings_class):
        parts.append(f"### `{table.header}`\n")
        if table.doc:
            parts.append(table.doc + "\n")
        if table.variable:
            parts.append(f"From the environment: only inside the JSON that `{table.variable}` holds.\n")
        parts.append("| key | environment variable | type | default | description |")
        parts.append("|---|---|---|---|---|")
        parts += [
            f"| `{row.key}` | {_code(row.variable)} | {_cell(row.type)} | {_shown_default(row.default)} "
            f"| {_cell(row.description)} |"
            for row in table.rows
        ]
        parts.append("")
    return "\n".join(parts)


def _tables_of(annotation: Any, path: list[str], variable: str) -> list[Table]:
    """The tables a top-level field makes (none for a plain value, which no current section is)."""
    model = _model_of(annotation)
    if model is not None:
        return _section(model, path, variable, whole_variable="")
    return _item_sections(annotation, path, variable, whole_variable=variable)


def _item_sections(annotation: Any, path: list[str], variable: str, whole_variable: str) -> list[Table]:
    """The tables of a list of tables (``[[rules]]``, one per kind) or a table of tables (``<name>``)."""
    items = _items_of(annotation)
    if items is None:
        return []
    shape, models = items
    tables: list[Table] = []
    for model in models:
        if shape == "list":
            tables += _section(model, path, variable, whole_variable, array=True, kind=_literal_kind(model))
        else:
            tables += _section(model, [*path, "<name>"], variable, whole_variable)
    return tables


def _section(
    model: type[BaseModel],
    path: list[str],
    variable: str,
    whole_variable: str,
    array: bool = False,
    kind: str = "",
) -> list[Table]:
    """``model``'s table and, after it, the tables of its fields that are tables themselves."""
    rows: list[Row] = []
    nested: list[Table] = []
    for name, field in model.model_fields.items():
        key = _toml_key(name, field)
        own_variable = "" if whole_variable else f"{variable}{NESTED}{name.upper()}"
        child = _model_of(field.annotation)
        if child is not None:
            nested += _section(child, [*path, key], own_variable, whole_variable)
        elif _items_of(field.annotation) is not None:
            whole = whole_variable or own_variable
            nested += _item_sections(field.annotation, [*path, key], own_variable, whole)
        else:
            rows.append(
                Row(
                    key=key,
                    variable=own_variable,
                    type=_type_name(field.annotation),
                    default=_default(field),
                    description=field.description or "",
                )
            )
    name = ".".join(path)
    header = f"[[{name}]]" + (f' kind = "{kind}"' if kind else "") if array else f"[{name}]"
    doc = _own_doc(model)
    table = Table(header=header, variable=whole_variable, doc=doc, rows=tuple(rows))
    return ([table] if rows or doc else []) + nested


def _literal_kind(model: type[BaseModel]) -> str:
    """The ``kind`` that picks ``model`` in a list of several kinds (alert destinations), if it has one."""
    field = model.model_fields.get("kind")
    if field is not None and typing.get_origin(field.annotation) is Literal:
        return str(typing.get_args(field.annotation)[0])
    return ""


def _toml_key(name: str, field: FieldInfo) -> str:
    return field.alias or name


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model ``annotation`` is, also when optional (``FieldSource | None``); None for a plain value or a
    model with a short form (a rule's condition: ``service = "checkout"``), which is a value of its table."""
    if _has_short_form(annotation):
        return None
    candidates = [arg for arg in _union_members(annotation) if arg is not type(None)]
    if len(candidates) == 1 and isinstance(candidates[0], type) and issubclass(candidates[0], BaseModel):
        return candidates[0]
    return None


def _items_of(annotation: Any) -> tuple[str, list[type[BaseModel]]] | None:
    """``("list", models)`` for a list of tables, ``("table", models)`` for a table of tables."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is list and args:
        element = args[0]
    elif origin is dict and len(args) == 2:
        element = args[1]
    else:
        return None
    if _has_short_form(element):
        return None
    models = [
        member
        for member in _union_members(element)
        if isinstance(member, type) and issubclass(member, BaseModel)
    ]
    return ("list" if origin is list else "table", models) if models else None


def _has_short_form(annotation: Any) -> bool:
    """Annotated with a validator that reads another shape first (a string or a list for a condition)."""
    for member in _union_members_annotated(annotation):
        if typing.get_origin(member) is typing.Annotated and any(
            isinstance(meta, BeforeValidator) for meta in member.__metadata__
        ):
            return True
    return False


def _union_members_annotated(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def _union_members(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) is typing.Annotated:
        return _union_members(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(member for arg in typing.get_args(annotation) for member in _union_members(arg))
    return (annotation,)


def _own_doc(model: type[BaseModel]) -> str:
    """The model's docstring when it has its own (not one inherited from a base)."""
    doc = model.__dict__.get("__doc__") or ""
    return " ".join(doc.split()) if doc else ""


def _type_name(annotation: Any) -> str:
    if typing.get_origin(annotation) is typing.Annotated:
        inner = typing.get_args(annotation)[0]
        if _has_short_form(annotation) and isinstance(inner, type):
            return f"{inner.__name__.lower()}: string, list or table"
        return _type_name(inner)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal:
        return " \\| ".join(f'"{arg}"' for arg in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(arg) for arg in args if arg is not type(None)) + (
            " (optional)" if type(None) in args else ""
        )
    if origin is list:
        return f"list of {_type_name(args[0])}"
    if origin is tuple:
        return f"[{', '.join(_type_name(arg) for arg in args)}]"
    if origin is dict:
        return f"table of {_type_name(args[1])}"
    if annotation is SecretStr:
        return "secret string"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table"
    if annotation is Path:
        return "path"
    return getattr(annotation, "__name__", str(annotation))


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return REQUIRED
    else:
        value = field.default
    return _shown(value)


def _shown(value: Any) -> str:
    if value is None:
        return UNSET
    if isinstance(value, SecretStr):
        return _shown(value.get_secret_value())
    if isinstance(value, BaseModel):
        return "defaults"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, str):
        working = str(Path.cwd())
        return f'"{value.replace(working, ".")}"'
    if isinstance(value, int | float):
        return f"{value:_}" if isinstance(value, int) else repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{}" if not value else "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _shown_default(default: str) -> str:
    """A value in code; "required" and "unset" say something about the value, so they stay words."""
    return default if default in (REQUIRED, UNSET) else _code(default)


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def _cell(text: str) -> str:
    """Text for a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


@contextmanager
def _clean_environment() -> Iterator[None]:
    saved = {name: value for name, value in os.environ.items() if name.startswith(DEFAULTS_READ_FROM)}
    for name in saved:
        del os.environ[name]
    try:
        yield
    finally:
        os.environ.update(saved)
