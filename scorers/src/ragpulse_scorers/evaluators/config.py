"""The ``[evaluators.<kind>.<name>]`` tables: a team's own judges, one table per kind.

Each definition is checked when the config loads (a regex RE2 cannot run, a schema that is not one, an
unknown template variable, a rule tree too deep), so a mistake is read at start-up with the evaluator's name,
not as a failed request later. An evaluator's version is a digest of its definition: any change to what it
does is a new version, whose scores replace the old ones as a built-in judge's new version does.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from ragpulse_core.patterns import config_pattern
from ragpulse_core.settings import SettingsSection

from ragpulse_scorers.evaluators.fields import check_field
from ragpulse_scorers.evaluators.heuristic import RuleNode, parse_rule
from ragpulse_scorers.evaluators.template import Template, parse_template

EVALUATOR_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")
METRIC_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
RESERVED_METRICS = frozenset({"pass", "error", "hallucination", "reasoning"})
"""Names an evaluator's own metrics may not take: the verdict, the error row, and the judge's reasons."""
MAX_SCHEMA_BYTES = 64 * 1024
ENTRY_POINT = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*$")


class EvaluatorBase(SettingsSection):
    description: str = Field("", description="What it checks, for people (not part of its version)")
    measures: Literal["hallucination"] | None = Field(
        None,
        description="'hallucination': a fail means the answer is not grounded, so the evaluator also writes"
        " a hallucination verdict, measured against people's labels and usable by `eval support --judge`",
    )

    kind: ClassVar[str] = ""

    def version(self) -> str:
        """A digest of what decides the scores: every setting but ``description``."""
        definition = self.model_dump(mode="json", by_alias=True, exclude={"description"})
        material = json.dumps({**definition, "kind": self.kind, **self.version_material()}, sort_keys=True)
        return "def-" + hashlib.sha256(material.encode()).hexdigest()[:12]

    def version_material(self) -> dict[str, str]:
        """What else decides the scores beyond the settings (a python evaluator's source)."""
        return {}

    @property
    def gives_verdict(self) -> bool:
        return True

    @property
    def fields_read(self) -> tuple[str, ...]:
        return ()

    @model_validator(mode="after")
    def _measures_needs_verdict(self) -> EvaluatorBase:
        if self.measures is not None and self.kind not in ("llm", "python"):
            # Its verdict would rank above the free judge's in each request's verdict (the alerts' count).
            raise ValueError(
                f"measures is for llm and python evaluators: a {self.kind} check cannot tell grounding"
            )
        if self.measures is not None and not self.gives_verdict:
            raise ValueError("measures needs a pass/fail verdict: set pass_at, pass_labels or pass_field")
        return self


class RegexEvaluator(EvaluatorBase):
    """Pass when ``pattern`` is found in ``field`` (RE2: linear in the text); with ``reject``, when not."""

    kind: ClassVar[str] = "regex"
    pattern: str = Field(min_length=1, description="An RE2 expression, searched anywhere in the field")
    field: str = Field("answer", description="The request's text it reads: question, answer, context...")
    reject: bool = Field(False, description="A match fails the request (e.g. 'As an AI language model')")

    @field_validator("pattern")
    @classmethod
    def _linear(cls, pattern: str) -> str:
        config_pattern(pattern)
        return pattern

    _field = field_validator("field")(check_field)

    @property
    def fields_read(self) -> tuple[str, ...]:
        return (self.field,)


class JsonSchemaEvaluator(EvaluatorBase):
    """Pass when ``field`` is a JSON document valid against the schema (given inline or as a file)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    kind: ClassVar[str] = "json_schema"
    json_schema: dict[str, Any] | None = Field(
        None, alias="schema", description="The JSON Schema the field, read as JSON, must satisfy"
    )
    schema_file: Path | None = Field(None, description="A JSON file holding the schema, instead of `schema`")
    field: str = Field("answer", description="The request's text it reads, as JSON")
    timeout_s: float = Field(2.0, gt=0, le=60, description="A validation taking longer fails its request")
    max_memory_mb: int = Field(512, ge=64, description="The validating process's address-space bound")

    _field = field_validator("field")(check_field)

    @model_validator(mode="after")
    def _one_schema(self) -> JsonSchemaEvaluator:
        if (self.json_schema is None) == (self.schema_file is None):
            raise ValueError("give the schema inline (schema = {...}) or as schema_file, one of them")
        if self.schema_file is not None:
            try:
                loaded = json.loads(self.schema_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ValueError(f"schema_file {self.schema_file}: {exc}") from None
            if not isinstance(loaded, dict):
                raise ValueError(f"schema_file {self.schema_file}: a schema is a JSON object")
            # Its content, not its path, decides the version: an edited file is a new version.
            self.json_schema, self.schema_file = loaded, None
        from ragpulse_scorers.evaluators.schema_check import check_schema

        assert self.json_schema is not None
        if len(json.dumps(self.json_schema)) > MAX_SCHEMA_BYTES:
            raise ValueError(f"the schema is larger than {MAX_SCHEMA_BYTES // 1024} KiB")
        check_schema(self.json_schema)
        return self

    @property
    def fields_read(self) -> tuple[str, ...]:
        return (self.field,)


class HeuristicEvaluator(EvaluatorBase):
    """Pass when the rule tree holds: ``not_empty``, ``contains``, ``min_length``... under ``all``, ``any``,
    ``not``."""

    kind: ClassVar[str] = "heuristic"
    rule: dict[str, Any] = Field(description="The rule tree: { all = [...] }, { contains = '...' }...")

    @field_validator("rule")
    @classmethod
    def _parses(cls, rule: dict[str, Any]) -> dict[str, Any]:
        parse_rule(rule)
        return rule

    @cached_property
    def tree(self) -> RuleNode:
        return parse_rule(self.rule)

    @property
    def fields_read(self) -> tuple[str, ...]:
        return self.tree.fields()


class PythonEvaluator(EvaluatorBase):
    """``module:function(request)`` run in a process of its own, with a timeout and a memory bound."""

    kind: ClassVar[str] = "python"
    entry_point: str = Field(description="module:function, importable from the directories in `path`")
    path: list[Path] = Field(default_factory=list, description="Directories searched first for the module")
    timeout_s: float = Field(5.0, gt=0, le=600, description="A call taking longer fails its request")
    max_memory_mb: int = Field(1024, ge=64, description="The process's address-space bound")
    attributes: list[str] = Field(
        default_factory=list,
        description="span.NAME / resource.NAME attributes the function reads from request.span_attributes",
    )
    pass_at: float | None = Field(None, description="A number returned passes when at least this")
    revision: int = Field(
        0, ge=0, description="Raise it when code the entry point's module imports changed: a new version"
    )

    @field_validator("entry_point")
    @classmethod
    def _entry_point(cls, value: str) -> str:
        if not ENTRY_POINT.match(value):
            raise ValueError(f"entry_point {value!r}: write module:function, e.g. checks.tone:score")
        return value

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, names: list[str]) -> list[str]:
        for name in names:
            if not name.startswith(("span.", "resource.")):
                raise ValueError(f"attribute {name!r}: write span.NAME or resource.NAME")
            check_field(name)
        return names

    @property
    def fields_read(self) -> tuple[str, ...]:
        return tuple(self.attributes)

    def version_material(self) -> dict[str, str]:
        from ragpulse_scorers.evaluators.source import module_digest

        return {"source": module_digest(self.entry_point.partition(":")[0], self.path)}


class LlmEvaluator(EvaluatorBase):
    """A judge prompt of the team's own: system and user templates, and the shape of the answer.

    ``output = "score"`` asks for a number in ``range``; ``"label"`` for one of ``labels``; ``"json"`` for an
    object whose ``fields`` (each a number in its range) become metrics. The verdict, when wanted, is
    ``pass_at`` (a score or ``pass_field`` at least this), or ``pass_labels``.
    """

    kind: ClassVar[str] = "llm"
    system: str = Field(min_length=1, description="Instructions; request variables go in `user`")
    user: str = Field(min_length=1, description="The request's data: {question}, {answer}, {documents}...")
    output: Literal["score", "label", "json"] = Field(
        description="What the judge answers: a score in range, one of labels, or json fields"
    )
    range: tuple[float, float] | None = Field(None, description="output score: lowest and highest score")
    integer: bool = Field(True, description="output score: whole numbers only")
    labels: list[str] | None = Field(None, description="output label: the labels the judge chooses from")
    fields: dict[str, tuple[float, float]] | None = Field(
        None, description="output json: metric name = [lowest, highest]"
    )
    pass_at: float | None = Field(None, description="Pass when the score (or pass_field) is at least this")
    pass_labels: list[str] | None = Field(None, description="output label: the labels that pass")
    pass_field: str | None = Field(None, description="output json: the field pass_at applies to")

    @field_validator("system")
    @classmethod
    def _no_data_in_system(cls, system: str) -> str:
        parsed = parse_template(system)
        if parsed.fields:
            raise ValueError(
                f"the system template holds {{{parsed.fields[0]}}}: request data goes in the user template,"
                " where it is fenced as data and checked for text addressed to the judge"
            )
        return system

    @field_validator("user")
    @classmethod
    def _user_template(cls, user: str) -> str:
        if not parse_template(user).fields:
            raise ValueError("the user template uses no request variable ({question}, {answer}, ...)")
        return user

    @model_validator(mode="after")
    def _output_shape(self) -> LlmEvaluator:
        needed = {"score": "range", "label": "labels", "json": "fields"}[self.output]
        for name in ("range", "labels", "fields"):
            given = getattr(self, name) is not None
            if given != (name == needed):
                raise ValueError(
                    f"output {self.output!r} takes {needed}" + ("" if not given else f", not {name}")
                )
        if self.range is not None and not self.range[0] < self.range[1]:
            raise ValueError(f"range {list(self.range)}: the lowest score comes first")
        if self.labels is not None:
            _check_labels(self.labels)
        if self.fields is not None:
            _check_fields(self.fields)
        self._check_pass()
        return self

    def _check_pass(self) -> None:
        if self.pass_labels is not None:
            if self.output != "label":
                raise ValueError("pass_labels is for output 'label'")
            unknown = [label for label in self.pass_labels if label not in (self.labels or [])]
            if unknown or not self.pass_labels:
                raise ValueError(f"pass_labels {unknown or []} must be some of labels {self.labels}")
        if self.pass_field is not None and (
            self.output != "json" or self.pass_field not in (self.fields or {})
        ):
            raise ValueError(f"pass_field {self.pass_field!r} must be one of the json fields")
        if self.pass_at is not None:
            if self.output == "label":
                raise ValueError("output 'label' passes by pass_labels, not pass_at")
            if self.output == "json" and self.pass_field is None:
                raise ValueError("pass_at on a json output needs pass_field: the field it applies to")
        elif self.pass_field is not None:
            raise ValueError("pass_field needs pass_at: the value it passes at")

    @property
    def gives_verdict(self) -> bool:
        return self.pass_at is not None or self.pass_labels is not None

    @cached_property
    def template(self) -> Template:
        return parse_template(self.user)

    @property
    def fields_read(self) -> tuple[str, ...]:
        return self.template.fields


def _check_labels(labels: list[str]) -> None:
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise ValueError(f"labels {labels}: at least two, each once")
    for label in labels:
        if not METRIC_NAME.match(label) or label in RESERVED_METRICS:
            raise ValueError(f"label {label!r}: a label is a metric name (letters, digits, _), not {label!r}")


def _check_fields(fields: dict[str, tuple[float, float]]) -> None:
    if not fields:
        raise ValueError("fields: name at least one")
    for name, (low, high) in fields.items():
        if not METRIC_NAME.match(name) or name in RESERVED_METRICS:
            raise ValueError(
                f"field {name!r}: letters, digits and _, and not one of {sorted(RESERVED_METRICS)}"
            )
        if not low < high:
            raise ValueError(f"field {name!r}: range [{low}, {high}] has the lowest value first")


EvaluatorDefinition = (
    RegexEvaluator | JsonSchemaEvaluator | HeuristicEvaluator | PythonEvaluator | LlmEvaluator
)


class EvaluatorsSettings(SettingsSection):
    """``[evaluators.llm.NAME]``, ``[evaluators.regex.NAME]``... An evaluator runs once a rule names it
    (``judges = ["NAME"]``) or ``scorer.scorers`` does."""

    llm: dict[str, LlmEvaluator] = Field(default_factory=dict)
    regex: dict[str, RegexEvaluator] = Field(default_factory=dict)
    json_schema: dict[str, JsonSchemaEvaluator] = Field(default_factory=dict)
    heuristic: dict[str, HeuristicEvaluator] = Field(default_factory=dict)
    python: dict[str, PythonEvaluator] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _names(self) -> EvaluatorsSettings:
        from ragpulse_scorers.registry import BUILTIN_SCORERS

        seen: dict[str, str] = {}
        for kind, tables in self._kinds():
            for name in tables:
                if not EVALUATOR_NAME.match(name):
                    raise ValueError(
                        f"evaluators.{kind}: name {name!r}: start with a letter; letters, digits, _ . - only"
                    )
                if name in BUILTIN_SCORERS:
                    raise ValueError(f"evaluators.{kind}.{name}: {name!r} is a built-in judge's name")
                if name in seen:
                    raise ValueError(f"evaluators: {name!r} is both a {seen[name]} and a {kind} evaluator")
                seen[name] = kind
        return self

    def _kinds(self) -> list[tuple[str, dict[str, Any]]]:
        return [
            (kind, getattr(self, kind)) for kind in ("llm", "regex", "json_schema", "heuristic", "python")
        ]

    def definitions(self) -> dict[str, EvaluatorDefinition]:
        """Every evaluator by name."""
        found: dict[str, EvaluatorDefinition] = {}
        for _, tables in self._kinds():
            found.update(tables)
        return found

    def names(self) -> list[str]:
        return sorted(self.definitions())
