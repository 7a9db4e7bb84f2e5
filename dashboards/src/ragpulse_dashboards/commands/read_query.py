"""What a reading command asks for (:class:`ReadQuery`) and what it got (:class:`Shown`), kept apart from the
views that render them: a command that reads through ``ragpulse serve``, or stops at a mistake in its flags,
never imports the report, the alerts and the assembly preview."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ragpulse_dashboards.since import parse_since

VIEWS: Final = (
    "report",
    "requests",
    "alerts",
    "assembly-preview",
    "assembly-templates",
    "rules-preview",
    "evaluator-requests",
)
MAX_LIMIT: Final = 10_000


@dataclass(frozen=True)
class ReadQuery:
    """One view's arguments, as flags give them and as the read API carries them."""

    view: str
    since: str = "24h"
    service: str = ""
    unscored: bool = False
    limit: int = 50
    include_resolved: bool = False
    html: bool = False
    rule: str = ""
    """A rules preview: the one rule to show (empty: every rule)."""
    rules: str = ""
    """A rules preview: the caller's rules (``rules_document``), so a rule is previewed before it runs."""
    trace: str = ""
    """Evaluator requests: only this trace's."""
    reads: str = ""
    """Evaluator requests: what the evaluator reads (:func:`reads_document`), so rows come as a tick's."""
    pin: str = ""
    """Assembly templates: the version whose pinning mapping to print."""

    def params(self) -> dict[str, str]:
        return {
            "trace": self.trace,
            "reads": self.reads,
            "pin": self.pin,
            "rule": self.rule,
            "rules": self.rules,
            "since": self.since,
            "service": self.service,
            "unscored": str(int(self.unscored)),
            "limit": str(self.limit),
            "all": str(int(self.include_resolved)),
            "html": str(int(self.html)),
        }

    @classmethod
    def from_params(cls, view: str, params: Mapping[str, str]) -> ReadQuery:
        """The query a request names; ValueError (saying which parameter) for anything else."""
        if view not in VIEWS:
            raise ValueError(f"no view {view!r}: the read API serves {', '.join(VIEWS)}")
        since = params.get("since", "24h")
        parse_since(since)
        try:
            limit = int(params.get("limit", "50"))
        except ValueError:
            raise ValueError("limit must be a whole number") from None
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must lie in [1, {MAX_LIMIT}]")
        flags = {name: params.get(name, "0") for name in ("unscored", "all", "html")}
        if any(value not in ("0", "1") for value in flags.values()):
            raise ValueError("unscored, all and html are 0 or 1")
        return cls(
            view,
            since,
            params.get("service", ""),
            flags["unscored"] == "1",
            limit,
            flags["all"] == "1",
            flags["html"] == "1",
            params.get("rule", ""),
            params.get("rules", ""),
            params.get("trace", ""),
            params.get("reads", ""),
            params.get("pin", ""),
        )


@dataclass(frozen=True)
class Shown:
    """A view's exit status, and the HTML page when the report was asked for one."""

    code: int
    html: str | None = None
