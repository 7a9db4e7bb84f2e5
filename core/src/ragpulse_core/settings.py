"""Configuration, in one place.

Sources, lowest precedence first: defaults, environment variables (``RAGPULSE_<SECTION>__<FIELD>``, plus the
standard names a field declares as aliases), a TOML file (``--config``, ``$RAGPULSE_CONFIG`` or
``./ragpulse.toml``), then command-line flags. Each part extends the settings below it with its own
sections (scorers, then dashboards) and names its class in the ``ragpulse.settings`` entry-point group; every
command loads the most complete class installed, so every process reads the same file, all of its sections.
"""

from __future__ import annotations

import os
import tomllib
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from ragpulse_core.store import DEFAULT_DATABASE, default_dsn, validate_dsn, with_credentials
from ragpulse_core.tokens import checked_token

DEFAULT_CONFIG_FILE = Path("ragpulse.toml")
SETTINGS_GROUP = "ragpulse.settings"


class ConfigError(ValueError):
    """Settings that cannot be used, said in one line naming their source."""


class SettingsSection(BaseModel):
    """A section of the config: an unknown key is a typo to report, not a setting to ignore."""

    model_config = ConfigDict(extra="forbid")


class StoreSettings(SettingsSection):
    dsn: str = Field(
        default_factory=default_dsn, description="chdb:///abs/path or http(s)://user:pass@host:8123"
    )
    database: str = Field(DEFAULT_DATABASE, description="The ClickHouse database holding ragpulse's tables")
    ttl_days: int = Field(30, ge=1, description="How long spans, requests and scores are kept")
    user: str | None = Field(None, description="ClickHouse user, given apart from an http(s) DSN")
    password: SecretStr | None = Field(
        None, description="ClickHouse password, given apart from the DSN: any characters, encoded into it"
    )

    @field_validator("dsn")
    @classmethod
    def _known_scheme(cls, dsn: str) -> str:
        return validate_dsn(dsn)

    @model_validator(mode="after")
    def _credentials_into_dsn(self) -> StoreSettings:
        if self.user is not None or self.password is not None:
            secret = self.password.get_secret_value() if self.password is not None else None
            self.dsn = with_credentials(self.dsn, self.user, secret)
        return self


class CollectorSettings(SettingsSection):
    host: str = Field(
        "127.0.0.1", description="Address the OTLP receiver listens on (0.0.0.0: every interface)"
    )
    port: int = Field(4318, ge=0, le=65535, description="OTLP/HTTP port; 0 picks a free one")
    max_body_bytes: int = Field(16 * 1024 * 1024, ge=1024, description="Larger requests get 413")
    batch_max_spans: int = Field(20_000, ge=1, description="A write batch is flushed at this many spans")
    batch_max_bytes: int = Field(
        32 * 1024 * 1024, ge=1024, description="... or at this many bytes of rows as stored (rendered)"
    )
    batch_max_wait_ms: int = Field(250, ge=1, description="... or when its oldest span waited this long")
    batch_idle_ms: int = Field(
        5, ge=0, description="... or when no request arrived for this long (senders await their acks)"
    )
    store_retry_ms: int = Field(1000, ge=1, description="How often an unreachable store is retried")
    ack_timeout_s: float = Field(60.0, gt=0, description="A request not written or spooled by then gets 503")
    queue_max_spans: int = Field(200_000, ge=1, description="Spans waiting to be written before 429")
    spool_dir: Path | None = Field(None, description="Where batches wait while ClickHouse is down")
    spool_max_bytes: int = Field(
        1024**3, ge=1024, description="Bytes the spool may hold; when it is full and the store down, 503"
    )
    auth_token: SecretStr | None = Field(
        None, description="When set, requests need 'Authorization: Bearer <token>'"
    )
    auth_token_file: Path | None = Field(None, description="A file holding the token (kept out of argv)")
    metrics_require_auth: bool = Field(False, description="Whether /metrics needs the bearer token too")
    grpc_port: int | None = Field(None, ge=0, le=65535, description="OTLP/gRPC port (4317); off when unset")
    backlog: int = Field(1024, ge=1, description="Connections waiting to be accepted")
    max_concurrent_requests: int = Field(64, ge=1, description="Requests decoding or in gRPC calls at once")
    max_buffered_bytes: int = Field(
        128 * 1024 * 1024, ge=1024, description="Request bodies held at once (read so far); past it 429"
    )
    max_header_bytes: int = Field(8190, ge=1024, description="Longest request line or header field")
    body_timeout_s: float = Field(30.0, gt=0, description="A body not received by then gets 408")
    keepalive_timeout_s: float = Field(60.0, gt=0, description="An idle connection is closed after this")
    max_expanded_bytes: int = Field(
        32 * 1024 * 1024,
        ge=1024,
        description="413 when a request's rows as stored would be larger (resource attributes repeat on every"
        " span; arrays and maps are stored as JSON, where a '<' takes six bytes)",
    )
    queue_max_bytes: int = Field(
        128 * 1024 * 1024, ge=1024, description="Bytes of rows as stored waiting to be written before 429"
    )
    stall_after_s: float = Field(
        30.0, gt=0, description="/healthz fails when the writer has work and no progress for this long"
    )
    spool_high_water: float = Field(
        0.8, gt=0, le=1, description="/healthz fails above this share of the spool"
    )
    dead_letter_window_s: float = Field(
        300.0, gt=0, description="/healthz fails while dead letters were added within this window"
    )

    @field_validator("auth_token")
    @classmethod
    def _token_not_blank(cls, token: SecretStr | None) -> SecretStr | None:
        return checked_token(token, "collector.auth_token")


SettingsT = TypeVar("SettingsT", bound="RagpulseSettings")


class RagpulseSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="RAGPULSE_", env_nested_delimiter="__", extra="ignore", populate_by_name=True
    )
    _config_file: ClassVar[Path | None] = None

    store: StoreSettings = Field(default_factory=StoreSettings)
    collector: CollectorSettings = Field(default_factory=CollectorSettings)
    _origins: Origins | None = PrivateAttr(None)

    def origin(self, section: str, field: str, flag: str) -> str:
        """Where ``section.field`` was set, as the user would find it: ``flag`` when given on the command
        line (or set nowhere: the flag then says how to change it), the file key, or the environment
        variable."""
        return self._origins.of(section, field, flag) if self._origins is not None else flag

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings]
        if cls._config_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=cls._config_file))
        sources.append(env_settings)
        return tuple(sources)

    @classmethod
    def load(cls: type[SettingsT], config_file: Path | None = None, **overrides: Any) -> SettingsT:
        """Settings from every source; ``overrides`` (flags) win, nested as ``{"store": {"dsn": ...}}``.

        The result is the most complete installed extension of ``cls``, so a section that another part reads
        (``[live]`` for the collector's command) is known, kept and checked, never refused as unknown.
        """
        complete = installed_extension(cls)
        path = config_file or _config_file_from_env()
        if path is not None:
            _check_config_file(path, set(complete.model_fields))
        layered = type(complete.__name__, (complete,), {"_config_file": path})
        flags = _drop_none(overrides)
        try:
            settings = complete.model_validate(layered(**flags).model_dump())
        except ValidationError as exc:
            # Pydantic's own error stays (callers match on it); the note says where the values came from.
            exc.add_note(f"from flags, environment or {path}" if path else "from flags or environment")
            raise
        settings._origins = Origins(flags, path, _read_document(path) if path else {})
        return settings


class Origins:
    """Which source gave each setting, by the precedence :meth:`RagpulseSettings.load` applies."""

    def __init__(self, flags: dict[str, Any], path: Path | None, document: dict[str, Any]) -> None:
        self._flags = flags
        self._path = path
        self._document = document

    def of(self, section: str, field: str, flag: str) -> str:
        if field in self._flags.get(section, {}):
            return flag
        if isinstance(self._document.get(section), dict) and field in self._document[section]:
            return f"[{section}] {field} in {self._path}"
        variable = _environment_variable(section, field)
        return variable or flag


def _environment_variable(section: str, field: str) -> str | None:
    """The variable that set ``section.field`` (``RAGPULSE_SECTION__FIELD``, any case), if one did."""
    nested, whole = f"RAGPULSE_{section}__{field}".upper(), f"RAGPULSE_{section}".upper()
    for name, value in os.environ.items():
        if name.upper() == nested or (name.upper() == whole and f'"{field}"' in value):
            return name
    return None


def _read_document(path: Path) -> dict[str, Any]:
    """The TOML file as read by :func:`_check_config_file` (which reported any problem with it already)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}


def installed_extension(cls: type[SettingsT]) -> type[SettingsT]:
    """The most derived settings class that an installed part registers and that extends ``cls``.

    The parts extend each other in a line (core, scorers, dashboards), so the most derived one holds them all.
    """
    complete = cls
    for entry_point in entry_points(group=SETTINGS_GROUP):
        candidate = entry_point.load()
        if isinstance(candidate, type) and issubclass(candidate, complete):
            complete = candidate
    return complete


def _check_config_file(path: Path, sections: set[str]) -> None:
    """A file that is missing, is not TOML, or has a section no part reads is an error naming the file."""
    if not path.is_file():
        raise FileNotFoundError(f"config file not found: {path}")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(document) - sections)
    if unknown:
        raise ConfigError(
            f"{path}: unknown section{'s' if len(unknown) > 1 else ''} "
            + ", ".join(f"[{name}]" for name in unknown)
            + f" (known: {', '.join(sorted(sections))})"
        )


def describe_invalid(exc: ValidationError) -> str:
    """One line for a person: every invalid setting with its reason, and where the values came from."""
    problems = "; ".join(_problem(error["loc"], error["msg"]) for error in exc.errors())
    source = " ".join(getattr(exc, "__notes__", []))
    return f"invalid settings ({source}): {problems}" if source else f"invalid settings: {problems}"


def _config_file_from_env() -> Path | None:
    named = os.environ.get("RAGPULSE_CONFIG")
    if named:
        return Path(named)
    return DEFAULT_CONFIG_FILE if DEFAULT_CONFIG_FILE.is_file() else None


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    """Flags left unset arrive as None and must not hide lower sources."""
    cleaned: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            nested = _drop_none(value)
            if nested:
                cleaned[key] = nested
        elif value is not None:
            cleaned[key] = value
    return cleaned


def _problem(location: tuple[int | str, ...], message: str) -> str:
    """``section.field: reason``, the field named once when the reason already starts with it."""
    where = ".".join(str(part) for part in location)
    reason = message.removeprefix("Value error, ")
    return reason if reason.startswith(where) else f"{where}: {reason}"
