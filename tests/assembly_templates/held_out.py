"""Templates held out while the parser was written: measured apart (see :mod:`templates`)."""

from __future__ import annotations

from templates import Template

HELD_OUT: list[Template] = []
