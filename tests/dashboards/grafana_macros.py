"""The ClickHouse data source plugin's query expansion, reimplemented for tests (reference/specs.md §4.4).

Dashboards go through the frontend first (``$__conditionalAll``, then template variables) and then the
backend macros; alert rules get the backend macros only, so anything else left in their SQL is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

FRONTEND_ONLY_MACROS = ("$__conditionalAll", "$__adHocFilters")
ALL = "$__all"


@dataclass(frozen=True)
class TimeRange:
    start: datetime
    end: datetime
    interval_s: int = 60

    @property
    def from_s(self) -> int:
        return int(self.start.timestamp())

    @property
    def to_s(self) -> int:
        return int(self.end.timestamp())


@dataclass(frozen=True)
class Variable:
    """A dashboard variable's current value: ``ALL`` (with the options it stands for) or chosen values."""

    value: str | list[str]
    options: tuple[str, ...] = ()
    multi: bool = False

    def rendered(self) -> str:
        # The plugin quotes and comma-joins multi-value variables and leaves single values raw.
        if self.value == ALL:
            return ",".join(f"'{option}'" for option in self.options)
        if isinstance(self.value, list) or self.multi:
            values = self.value if isinstance(self.value, list) else [self.value]
            return ",".join(f"'{value}'" for value in values)
        return self.value


def _macro_args(sql: str, open_paren: int) -> tuple[list[str], int]:
    """Top-level comma-separated arguments of the call whose "(" is at ``open_paren``, and the ")" index."""
    depth, args, start = 0, [], open_paren + 1
    for index in range(open_paren, len(sql)):
        char = sql[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                args.append(sql[start:index])
                return args, index
        elif char == "," and depth == 1:
            args.append(sql[start:index])
            start = index + 1
    raise ValueError(f"unbalanced macro call at {open_paren}: {sql[open_paren : open_paren + 80]!r}")


def apply_conditional_all(sql: str, variables: dict[str, Variable]) -> str:
    """``$__conditionalAll(cond, $var)`` -> ``cond``, or ``1=1`` when the variable is All or empty."""
    macro = "$__conditionalAll("
    while (index := sql.rfind(macro)) != -1:
        args, end = _macro_args(sql, index + len(macro) - 1)
        if len(args) != 2:
            raise ValueError(f"$__conditionalAll takes 2 arguments, got {args}")
        name = re.search(r"(?<=\$\{)\w+(?=\})|(?<=\$)\w+", args[1].strip())
        phrase = args[0]
        if name is not None:
            variable = variables[name.group(0)]
            if variable.value in (ALL, "", []):
                phrase = "1=1"
        sql = sql[:index] + phrase + sql[end + 1 :]
    return sql


def interpolate_variables(sql: str, variables: dict[str, Variable]) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name.startswith("__"):
            return match.group(0)
        return variables[name].rendered()

    return re.sub(r"\$\{(\w+)\}|\$(\w+)", replace, sql)


def expand_backend_macros(sql: str, time_range: TimeRange) -> str:
    """The backend's macros, with the exact formats of ``pkg/macros/macros.go``."""
    interval = max(time_range.interval_s, 1)
    from_s, to_s = time_range.from_s, time_range.to_s
    from_ms, to_ms = int(time_range.start.timestamp() * 1000), int(time_range.end.timestamp() * 1000)
    functions = {
        "timeFilter": lambda c: f"{c} >= toDateTime({from_s}) AND {c} <= toDateTime({to_s})",
        "timeFilter_ms": lambda c: (
            f"{c} >= fromUnixTimestamp64Milli({from_ms}) AND {c} <= fromUnixTimestamp64Milli({to_ms})"
        ),
        "timeFrom": lambda c: f"{c} >= toDateTime({from_s})",
        "timeTo": lambda c: f"{c} <= toDateTime({to_s})",
        "timeInterval": lambda c: f"toStartOfInterval(toDateTime({c}), INTERVAL {interval} second)",
        "timeInterval_ms": lambda c: (
            f"toStartOfInterval(toDateTime64({c}, 3), INTERVAL {interval * 1000} millisecond)"
        ),
    }

    def call(match: re.Match[str]) -> str:
        name, argument = match.group(1), match.group(2).strip()
        if name not in functions:
            raise ValueError(f"unknown macro $__{name}(...)")
        return functions[name](argument)

    sql = re.sub(r"\$__(\w+)\(([^()]*)\)", call, sql)
    plain = {
        "fromTime_ms": f"fromUnixTimestamp64Milli({from_ms})",
        "toTime_ms": f"fromUnixTimestamp64Milli({to_ms})",
        "fromTime": f"toDateTime({from_s})",
        "toTime": f"toDateTime({to_s})",
        "interval_s": str(interval),
    }
    for name, value in plain.items():
        sql = re.sub(rf"\$__{name}\b", value, sql)
    return sql


def expand_dashboard_query(sql: str, variables: dict[str, Variable], time_range: TimeRange) -> str:
    expanded = expand_backend_macros(
        interpolate_variables(apply_conditional_all(sql, variables), variables), time_range
    )
    leftover = re.findall(r"\$\{?\w+", expanded)
    if leftover:
        raise ValueError(f"unexpanded {leftover} in {expanded}")
    return expanded


def expand_alert_query(sql: str, time_range: TimeRange) -> str:
    """Alert rules run through the backend alone: no frontend macros, no dashboard variables."""
    for macro in FRONTEND_ONLY_MACROS:
        if macro in sql:
            raise ValueError(f"{macro} is expanded by the frontend only; alert rules never see it")
    expanded = expand_backend_macros(sql, time_range)
    leftover = re.findall(r"\$\{?\w+", expanded)
    if leftover:
        raise ValueError(f"alert query keeps {leftover}: dashboard variables do not exist in alerting")
    return expanded
