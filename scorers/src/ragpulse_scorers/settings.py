"""Scorer and judge settings: the collector's settings plus the sections the scorers read.

Environment: ``RAGPULSE_SCORER__SAMPLE_RATE=0.2`` and so on; the judge also honours the standard
``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` and ``RAGPULSE_JUDGE_MODEL``.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from ragpulse_assembly.settings import AssemblyPartSettings
from ragpulse_core.secrets import shown_endpoint
from ragpulse_core.settings import SettingsSection
from ragpulse_judge.limits import DEFAULT_TIME_LIMIT_S

from ragpulse_scorers.evaluators.config import EvaluatorsSettings
from ragpulse_scorers.export.otel_environment import (
    OtlpProtocol,
    env_compression,
    env_headers,
    env_protocol,
    env_timeout_s,
)
from ragpulse_scorers.rules.model import Rule, check_rules

DEFAULT_SCORERS = ("lexical",)
LLM_SUPPORT_SCORER = "support"


class FreeJudgeLimits(SettingsSection):
    """Limits of judges that cost nothing per request (no model, no network: ``lexical``).

    Sized to the collector's throughput (~1,700 requests/s on a 2-core machine), not to a paid judge's budget,
    so a free judge keeps up with all traffic; the tick's deadline bounds one tick's work instead.
    """

    per_tick_limit: int = Field(1_000_000, ge=1, description="Most requests a free judge scores per tick")
    per_variant_quota: int = Field(1_000_000, ge=1, description="Most requests per variant per tick")
    max_per_minute: float = Field(120_000, gt=0, description="Requests scored per minute, per free judge")
    concurrency: int = Field(
        1, ge=1, description="Requests judged at once; a CPU-bound judge gains nothing from threads"
    )
    time_limit_s: float | None = Field(
        DEFAULT_TIME_LIMIT_S,
        gt=0,
        description="One request's judging past this fails that request with the reason (an answer and a "
        "context built so that every claim is compared with every context sentence took minutes)",
    )
    write_rows: int = Field(
        60_000,
        ge=1,
        description="Score and log rows a free judge gathers, across batches, before writing them at once"
        " (the views on the scores table cost each write much the same whatever its size; the lexical"
        " judge's requests take 6 rows each): memory is bounded by this",
    )
    judge: Literal["rules", "learnt"] = Field(
        "learnt",
        description="How the lexical scorer decides: the learnt model over the lexical evidence (claims, "
        "calibrated probabilities; its figures are in docs/judge-quality.md), or the hand-written rules "
        "(sentences, a fixed threshold)",
    )


class ScorerSettings(SettingsSection):
    scorers: list[str] = Field(
        default_factory=lambda: list(DEFAULT_SCORERS),
        description="Scorer names to run (default: lexical, plus support once a judge endpoint is set)",
    )
    interval_s: float = Field(10.0, gt=0, description="Seconds between scheduler ticks")
    settle_delay_s: float = Field(5.0, ge=0, description="Requests younger than this wait for late spans")
    sample_rate: float = Field(1.0, ge=0, le=1, description="Share of requests scored, chosen on SampleKey")
    # The next four limit paid (LLM) judges; free judges take theirs from [scorer.free].
    per_tick_limit: int = Field(500, ge=1, description="Most requests one LLM scorer scores per tick")
    per_variant_quota: int = Field(200, ge=1, description="Most requests per variant per tick")
    max_per_minute: float = Field(6000, gt=0, description="Requests scored per minute, per scorer")
    concurrency: int = Field(4, ge=1, description="Requests judged at once")
    free: FreeJudgeLimits = Field(default_factory=FreeJudgeLimits)
    batch_size: int = Field(
        2000, ge=1, description="Candidates read, judged and written together: memory is bounded by this"
    )
    tick_deadline_s: float = Field(
        300.0, gt=0, description="A scorer starts no new judgment this long after its turn in a tick began"
    )
    circuit_failures: int = Field(
        3, ge=1, description="Unreachable-judge failures in a row that stop calling it until the next tick"
    )
    lookback_hours: float = Field(24.0, gt=0, description="Older unscored requests are left alone")
    max_attempts: int = Field(3, ge=1, description="A request whose scorer fails is retried up to this often")
    shard: str = Field(
        "0/1", pattern=r"^\d+/\d+$", description="i/N: this worker takes intDiv(SampleKey, 10000) % N == i"
    )
    heartbeat_file: Path | None = Field(
        None, description="Touched after every finished tick of `ragpulse score`, for a healthcheck"
    )


class PriceSettings(SettingsSection):
    """What a model's tokens cost, for budgets and the report's spend (a model without an entry here uses the
    list price ragpulse knows for it, if any)."""

    input_per_million: float = Field(0.0, ge=0, description="USD per million prompt tokens")
    output_per_million: float = Field(0.0, ge=0, description="USD per million completion tokens")


class JudgeSettings(SettingsSection):
    """An OpenAI-compatible judge endpoint and how to call it.

    A loopback endpoint (llama.cpp, Ollama, vLLM, LM Studio on this machine) gets its own defaults for the
    settings not given: such a server generates one answer at a time at a few tokens a second, so calls
    wait long instead of timing out, are not retried into a server still busy with the abandoned call, go
    one at a time, and get more repair rounds, since a small model's first answer is more often malformed.
    """

    # The standard variables are defaults, so a config file or RAGPULSE_JUDGE__* still overrides them.
    base_url: str | None = Field(
        default_factory=lambda: os.environ.get("OPENAI_BASE_URL") or None,
        description="An OpenAI-compatible endpoint (default: $OPENAI_BASE_URL); it or api_key turns on"
        " the LLM support judge",
    )
    api_key: SecretStr | None = Field(
        default_factory=lambda: SecretStr(key) if (key := os.environ.get("OPENAI_API_KEY")) else None,
        description="The endpoint's key (default: $OPENAI_API_KEY)",
    )
    model: str = Field(
        default_factory=lambda: os.environ.get("RAGPULSE_JUDGE_MODEL") or "gpt-4o-mini",
        description="The judges' model (default: $RAGPULSE_JUDGE_MODEL, else gpt-4o-mini)",
    )
    timeout_s: float = Field(60.0, gt=0, description="Seconds one call may take (loopback: 300)")
    connect_timeout_s: float = Field(3.0, gt=0, description="Seconds to open a connection")
    max_retries: int = Field(4, ge=0, description="Retries of a call on 429, 5xx, timeouts (loopback: 1)")
    repairs: int = Field(1, ge=0, description="Rounds asking again for an unusable answer (loopback: 2)")
    repair_temperature: float = Field(
        0.5, ge=0, le=2, description="Temperature of a repair: at 0 a model repeats its last answer"
    )
    max_output_tokens: int | None = Field(
        None, ge=1, description="Longest answer asked for; none sent when unset (loopback: 512)"
    )
    requests_per_minute: float = Field(120.0, gt=0, description="Calls to the endpoint per minute, at most")
    max_prompt_chars: int = Field(
        400_000,
        ge=1_000,
        description="A longer prompt (about 100,000 tokens) is not sent: its request is skipped with the"
        " reason. A sender's 50 MB answer would otherwise be paid for, and read for steering text for long",
    )
    concurrency: int = Field(4, ge=1, description="Calls at once (loopback: 1)")
    daily_budget_usd: float | None = Field(
        None, ge=0, description="USD all LLM judges may spend a UTC day; unset: no limit"
    )
    daily_budget_tokens: int | None = Field(
        None, ge=0, description="Tokens all LLM judges may use a UTC day; unset: no limit"
    )
    prices: dict[str, PriceSettings] = Field(default_factory=dict, description="Per model, USD per 1M tokens")
    support_mode: Literal["trace", "entailment"] = Field(
        "trace",
        description="How the support judge asks: RAGBench's TRACe form in one call, or a short yes/no/unsure "
        "entailment question per claim sentence, read as the probability of no (suits small local models)",
    )

    @property
    def configured(self) -> bool:
        """An LLM endpoint is usable: a base URL or an API key was given."""
        return self.base_url is not None or self.api_key is not None

    @property
    def local(self) -> bool:
        """The endpoint is on this machine (a loopback address or ``localhost``)."""
        return is_loopback_url(self.base_url)

    @model_validator(mode="after")
    def _local_defaults(self) -> JudgeSettings:
        if self.local:
            for name, value in LOCAL_JUDGE_DEFAULTS.items():
                if name not in self.model_fields_set:
                    setattr(self, name, value)
        return self


LOCAL_JUDGE_DEFAULTS: dict[str, float | int] = {
    "timeout_s": 300.0,
    "max_retries": 1,
    "repairs": 2,
    "max_output_tokens": 512,
    "concurrency": 1,
}


def is_loopback_url(url: str | None) -> bool:
    host = urlsplit(url).hostname if url else None
    if host is None:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ExportSettings(SettingsSection):
    """Scores also sent as OTel ``gen_ai.evaluation.result`` events, to an OTLP endpoint (off when unset).

    Only ``otlp_endpoint`` turns export on: ``OTEL_EXPORTER_OTLP_ENDPOINT`` often points a traced service
    at ragpulse itself, and scores sent back there would be no one's choice. The other settings default to
    the standard ``OTEL_EXPORTER_OTLP_LOGS_*``/``OTEL_EXPORTER_OTLP_*`` variables (the timeout in
    milliseconds, as the OTel specification says).
    """

    otlp_endpoint: str | None = Field(
        None,
        description="Base URL of an OTLP receiver, e.g. http://tempo:4318 (http/protobuf: /v1/logs is added)"
        " or http://tempo:4317 (grpc)",
    )
    protocol: OtlpProtocol = Field(
        default_factory=env_protocol, validate_default=True, description="http/protobuf or grpc"
    )
    headers: dict[str, str] = Field(default_factory=env_headers, description="Sent with every export")
    timeout_s: float = Field(
        default_factory=env_timeout_s, gt=0, description="Seconds one export may take, retries included"
    )
    compression: Literal["none", "gzip"] = Field(
        default_factory=env_compression, description="Default: OTEL_EXPORTER_OTLP_(LOGS_)COMPRESSION"
    )
    max_queue_size: int = Field(
        20_000, ge=1, description="Events waiting to be sent; past this the oldest are dropped and counted"
    )
    max_batch_size: int = Field(512, ge=1, description="Events sent in one export request")
    schedule_delay_s: float = Field(2.0, gt=0, description="Longest wait before queued events are sent")
    shutdown_timeout_s: float = Field(
        5.0, gt=0, description="How long a stopping scheduler waits to send the queued events"
    )

    @property
    def enabled(self) -> bool:
        return bool(self.otlp_endpoint)

    @field_validator("otlp_endpoint")
    @classmethod
    def _url_with_scheme(cls, value: str | None) -> str | None:
        """gRPC too takes a URL: ``http://`` sends in plain text, ``https://`` over TLS; a bare host:port
        would be read as TLS by one exporter and refused by the other."""
        if value is not None and urlsplit(value).scheme not in ("http", "https"):
            raise ValueError(
                f"{shown_endpoint(value)!r}: give an http:// or https:// URL, e.g. http://tempo:4318"
            )
        return value or None


class ScorersSettings(AssemblyPartSettings):
    scorer: ScorerSettings = Field(default_factory=ScorerSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    export: ExportSettings = Field(default_factory=ExportSettings)
    rules: list[Rule] = Field(
        default_factory=list, description="[[rules]]: which requests each judge scores, beside the default"
    )
    evaluators: EvaluatorsSettings = Field(
        default_factory=EvaluatorsSettings,
        description="[evaluators.<kind>.<name>]: judges of the team's own, run when a rule names them",
    )

    @model_validator(mode="after")
    def _rules_are_usable(self) -> ScorersSettings:
        check_rules(self.rules, self.evaluators.names())
        return self

    @model_validator(mode="after")
    def _judge_scores_when_configured(self) -> ScorersSettings:
        """An LLM endpoint (``OPENAI_BASE_URL``/``OPENAI_API_KEY`` or ``[judge]``) turns on its support judge,
        unless the scorer list was chosen explicitly."""
        if "scorers" not in self.scorer.model_fields_set and self.judge.configured:
            self.scorer.scorers = [*DEFAULT_SCORERS, LLM_SUPPORT_SCORER]
        return self
