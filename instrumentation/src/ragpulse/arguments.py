"""Finding an argument of a decorated call by name or type, with the signature read once per function."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

_MISSING = object()


class ArgumentLocator:
    """Where a function takes the parameter called one of ``names``: its position and its default."""

    __slots__ = ("default", "name", "position")

    def __init__(self, function: Callable[..., Any], names: tuple[str, ...]) -> None:
        self.name: str | None = None
        self.position: int | None = None
        self.default: Any = _MISSING
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            return
        by_name = {parameter.name: (position, parameter) for position, parameter in enumerate(parameters)}
        for name in names:
            if name in by_name:
                position, parameter = by_name[name]
                self.name = name
                if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                    self.position = position
                if parameter.default is not parameter.empty:
                    self.default = parameter.default
                return

    def find(self, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
        """The argument's value in this call (its default when not passed), or ``MISSING``."""
        if self.name is None:
            return _MISSING
        if self.name in kwargs:
            return kwargs[self.name]
        if self.position is not None and self.position < len(args):
            return args[self.position]
        return self.default


MISSING: Any = _MISSING


def first_of_type(args: tuple[Any, ...], kwargs: Mapping[str, Any], kind: type | tuple[type, ...]) -> Any:
    for value in args:
        if isinstance(value, kind):
            return value
    for value in kwargs.values():
        if isinstance(value, kind):
            return value
    return _MISSING


def accepts_keyword(function: Callable[..., Any], name: str) -> bool:
    """Whether ``function`` can be called with the keyword argument ``name`` (True when unknowable)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(
        (parameter.name == name and parameter.kind != parameter.POSITIONAL_ONLY)
        or parameter.kind == parameter.VAR_KEYWORD
        for parameter in parameters
    )


def callable_name(target: Any) -> str:
    """A function's ``__name__``; for a runnable its ``get_name()`` or ``name``, else its class name."""
    name = getattr(target, "__name__", None)
    if isinstance(name, str):
        return name
    get_name = getattr(target, "get_name", None)
    if callable(get_name):
        try:
            named = get_name()
        except Exception:
            named = None
        if isinstance(named, str) and named:
            return named
    name = getattr(target, "name", None)
    return name if isinstance(name, str) and name else type(target).__name__
