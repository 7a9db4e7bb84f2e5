"""The JSONPath subset a service mapping needs: ``$``, ``.name``, ``['name']``, ``[n]`` (negative from the
end) and ``[*]``, chained. Enough to reach a field or every element of a list; filters and recursion are left
out so that a path means one thing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

_STEP: Final = re.compile(
    r"""\.(?P<name>[A-Za-z_][\w-]*)|\[(?:(?P<index>-?\d+)|(?P<all>\*)|'(?P<single>[^']*)'|"(?P<double>[^"]*)")\]"""
)


@dataclass(frozen=True)
class Step:
    key: str | int | None
    """A member name, a list index, or None for every element."""


def parse_path(path: str) -> tuple[Step, ...]:
    """The steps of ``path``; a ValueError names what is wrong with it."""
    text = path.strip()
    if not text.startswith("$"):
        raise ValueError(f"a JSONPath starts with $: {path!r}")
    steps: list[Step] = []
    at = 1
    while at < len(text):
        match = _STEP.match(text, at)
        if match is None:
            raise ValueError(
                f"cannot read JSONPath {path!r} at {text[at:]!r} (use .name, ['name'], [0], [*])"
            )
        if match.group("index") is not None:
            steps.append(Step(int(match.group("index"))))
        elif match.group("all") is not None:
            steps.append(Step(None))
        else:
            steps.append(Step(next(g for g in match.group("name", "single", "double") if g is not None)))
        at = match.end()
    return tuple(steps)


def select(value: Any, path: str) -> list[Any]:
    """Every value ``path`` reaches in ``value`` (a list, since ``[*]`` may reach many); missing steps reach
    nothing rather than failing."""
    found = [value]
    for step in parse_path(path):
        found = [reached for current in found for reached in _step(current, step.key)]
    return found


def _step(current: Any, key: str | int | None) -> list[Any]:
    if key is None:
        if isinstance(current, list):
            return list(current)
        return list(current.values()) if isinstance(current, dict) else []
    if isinstance(key, int):
        if isinstance(current, list) and -len(current) <= key < len(current):
            return [current[key]]
        return []
    return [current[key]] if isinstance(current, dict) and key in current else []
