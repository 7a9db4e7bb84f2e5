"""Untrusted text written into a TOML snippet a person pastes into their config: one basic string that
reads back as exactly that text, whatever it holds, and shows no character a terminal would obey."""

from __future__ import annotations

import unicodedata

from ragpulse_core.printable import needs_escape


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string. A quote or a line break in a service name would otherwise end the
    string and let the name write keys of its own (another judge URL, a mapping for every service).

    Raises ValueError for a lone surrogate, which no TOML file (UTF-8) can hold.
    """
    return '"' + "".join(_escaped(character) for character in text) + '"'


def _escaped(character: str) -> str:
    if character in '"\\':
        return "\\" + character
    if unicodedata.category(character) == "Cs":
        raise ValueError(f"a lone surrogate (U+{ord(character):04X}) cannot be written in a TOML file")
    if needs_escape(character):
        code = ord(character)
        return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"
    return character
