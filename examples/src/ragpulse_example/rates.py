"""Per-variant rates from the command line: ``0.2`` for every variant, or ``A=0.05,B=0.25`` per variant."""

from __future__ import annotations

import math
from collections.abc import Sequence

NO_RATES = "none"


def parse_rates(text: str, variants: Sequence[str], option: str = "--inject") -> dict[str, float]:
    """A rate in [0, 1] per variant; variants a per-variant list leaves out get 0, ``none`` gives all 0.

    Errors name the option and the offending piece, so one bad entry is easy to find and fix.
    """
    stripped = text.strip()
    if stripped.lower() == NO_RATES:
        return dict.fromkeys(variants, 0.0)
    if "=" not in stripped:
        rate = _rate(stripped, option, stripped)
        return dict.fromkeys(variants, rate)
    rates = dict.fromkeys(variants, 0.0)
    named: set[str] = set()
    for piece in stripped.split(","):
        name, separator, value = (part.strip() for part in piece.partition("="))
        if not separator or not name:
            raise ValueError(f"{option}: expected VARIANT=RATE, got {piece.strip()!r} in {text!r}")
        if name not in rates:
            raise ValueError(
                f"{option}: unknown variant {name!r} in {text!r}; variants: {', '.join(variants)}"
            )
        if name in named:
            raise ValueError(f"{option}: variant {name!r} is given twice in {text!r}")
        named.add(name)
        rates[name] = _rate(value, option, piece.strip())
    return rates


def _rate(value: str, option: str, piece: str) -> float:
    try:
        rate = float(value)
    except ValueError:
        raise ValueError(f"{option}: {piece!r} is not a rate; write 0.2 or A=0.05,B=0.25") from None
    if not (math.isfinite(rate) and 0.0 <= rate <= 1.0):
        raise ValueError(f"{option}: rate {value!r} in {piece!r} must lie in [0, 1]")
    return rate
