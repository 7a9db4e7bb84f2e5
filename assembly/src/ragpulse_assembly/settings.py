"""The ``[assembly]`` settings: how often and how much of the foreign traces become requests, and where a
service's question, documents and answer are when the rules cannot tell (``[[assembly.mappings]]``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator
from ragpulse_core.patterns import PatternError, linear_glob, linear_pattern
from ragpulse_core.settings import RagpulseSettings, SettingsSection

from ragpulse_assembly.jsonpath import parse_path

MessageRole = Literal["system", "user", "assistant", "tool"]


class FieldSource(SettingsSection):
    """Where one field's text is, read in this order: a value (``attribute``, else a message of the generating
    LLM call by ``message`` role and ``position``, else its whole prompt, or its output for the answer), then
    ``jsonpath`` into that value, then ``regex`` over what is left.

    For documents, every match is a document: every message of the role when ``position`` is unset, every
    element a JSONPath with ``[*]`` selects, every match of the regex.
    """

    attribute: str | None = Field(
        None,
        description="A span attribute: the generating LLM span's, else the outermost span's with it",
    )
    message: MessageRole | None = Field(None, description="A message of the generating LLM call, by role")
    position: int | None = Field(
        None,
        description="Which message of that role: 0 first, -1 last (default: the last; documents: all)",
    )
    jsonpath: str | None = Field(
        None, description="A path into a value that is JSON: $.docs[*].text, $.question, $[0].content"
    )
    regex: str | None = Field(
        None,
        description="Keeps the group named text, else the first group, else the match (documents: each)",
    )

    @field_validator("regex")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                linear_pattern(pattern)
            except PatternError as exc:
                raise ValueError(f"not a usable regular expression: {exc}") from None
        return pattern

    @field_validator("jsonpath")
    @classmethod
    def _a_path(cls, path: str | None) -> str | None:
        if path is not None:
            parse_path(path)
        return path


class ServiceMapping(SettingsSection):
    """Where the question, documents and answer of one service's requests are (any of the three; the rules
    find the others)."""

    service: str = Field(description="A service name, or a pattern of them: support-*, *-rag")
    attributes: dict[str, str] = Field(
        default_factory=dict, description="Span or resource attributes a trace must carry, with these values"
    )
    question: FieldSource | None = None
    documents: FieldSource | None = None
    answer: FieldSource | None = None
    template: str | None = Field(
        None,
        description="A learnt template version (ragpulse assembly templates) pinned as where the question and"
        " documents are",
    )

    @field_validator("service")
    @classmethod
    def _a_glob(cls, service: str) -> str:
        try:
            linear_glob(service)
        except PatternError as exc:
            raise ValueError(f"not a usable service pattern: {exc}") from None
        return service

    @model_validator(mode="after")
    def _maps_something(self) -> ServiceMapping:
        named = (self.question, self.documents, self.answer)
        if self.template is None and all(source is None for source in named):
            raise ValueError(
                f"mapping for {self.service!r} names none of question, documents, answer, template"
            )
        if self.template is not None and (self.question is not None or self.documents is not None):
            raise ValueError(
                f"mapping for {self.service!r} pins a template, which says where the question and documents"
                " are: leave question and documents out"
            )
        return self

    def matches(self, service_name: str, attributes: dict[str, str]) -> bool:
        return linear_glob(self.service).search(service_name) is not None and all(
            attributes.get(key) == value for key, value in self.attributes.items()
        )


class TemplateSettings(SettingsSection):
    """Each service's prompt templates, learnt from its own traffic (``[assembly.templates]``)."""

    learn: bool = Field(True, description="Learn each service's prompt templates from its traffic")
    rules: bool = Field(
        True,
        description="Also read pasted documents with the structure rules, and score only when both readings"
        " agree (off: the learnt templates alone)",
    )
    min_prompts: int = Field(8, ge=2, description="Prompts of one template before it is learnt")
    window: int = Field(32, ge=2, description="Most prompts one template is learnt from")
    pool: int = Field(64, ge=2, description="Prompts kept per place while no learnt template reads them")
    wait_s: float = Field(
        120.0,
        ge=0,
        description="How long past settling a request waits whose template is not learnt yet, or whose"
        " reading the service's other requests cannot confirm yet",
    )
    max_places: int = Field(
        2000, ge=1, description="Places (service, generating call) whose templates are kept"
    )
    templates_per_place: int = Field(
        8, ge=1, description="Templates kept per place, least recently used dropped"
    )
    pool_chars: int = Field(
        50_000_000,
        ge=1000,
        description="Characters of prompts no learnt template reads yet kept over all places (oldest places'"
        " dropped first)",
    )
    max_prompt_chars: int = Field(200_000, ge=1000, description="Longer prompts are read, never learnt from")

    @model_validator(mode="after")
    def _window_holds_a_template(self) -> TemplateSettings:
        if self.window < self.min_prompts or self.pool < self.min_prompts:
            raise ValueError("templates.window and templates.pool must hold min_prompts prompts")
        if not self.learn and not self.rules:
            raise ValueError("templates.learn and templates.rules are both off: nothing would read a prompt")
        return self


class AssemblySettings(SettingsSection):
    enabled: bool = Field(True, description="Assemble requests from OpenInference and GenAI traces each tick")
    batch_size: int = Field(200, ge=1, description="Traces read and assembled per query")
    max_traces_per_tick: int = Field(5000, ge=1, description="Most traces assembled per tick")
    mappings: list[ServiceMapping] = Field(
        default_factory=list,
        description="Per service: where question, documents and answer are (first wins)",
    )
    templates: TemplateSettings = Field(default_factory=TemplateSettings)

    def mapping_for(self, service_name: str, attributes: dict[str, str]) -> ServiceMapping | None:
        return next((m for m in self.mappings if m.matches(service_name, attributes)), None)


class AssemblyPartSettings(RagpulseSettings):
    """The store's and collector's settings plus ``[assembly]``: what assembling, and its preview, read."""

    assembly: AssemblySettings = Field(default_factory=AssemblySettings)
