"""Text out of Python reprs that instrumentors record instead of values: Haystack's
``ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='...')], ...)`` and
``GeneratedAnswer(data='...', ...)``, LangChain's ``AIMessage(content='...', ...)`` and
``Document(page_content='...', ...)``.

Only string literals Python itself wrote (``repr`` of a ``str``) are read, with :func:`ast.literal_eval`; a
repr whose text was cut or written unquoted (Haystack's ``Document(id=..., content: '...')`` truncates at 100
characters) gives nothing, never a guess.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import Final

_LITERAL: Final = r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
_OBJECT_START: Final = re.compile(r"^\s*[A-Za-z_][\w.]*\(")
_TEXT_PARTS: Final = re.compile(rf"\bTextContent\(\s*text=({_LITERAL})")
_FIELDS: Final = tuple(
    re.compile(rf"(?:\(|,\s*)_?{name}=({_LITERAL})") for name in ("content", "page_content", "text", "data")
)
_ROLE: Final = re.compile(r"_?role=<?(?:ChatRole\.)?(\w+)")


def looks_like_repr(text: str) -> bool:
    """``Name(...)``: the whole value is one object's repr."""
    stripped = text.strip()
    return bool(_OBJECT_START.match(stripped)) and stripped.endswith(")")


def repr_text(text: str) -> str | None:
    """The text a repr carries (its ``TextContent`` parts, else its ``content``/``page_content``/``text``
    field), or None when it carries none that can be read exactly."""
    if not looks_like_repr(text):
        return None
    parts = [_literal(match.group(1)) for match in _TEXT_PARTS.finditer(text)]
    if not parts:
        for pattern in _FIELDS:
            match = pattern.search(text)
            if match:
                parts = [_literal(match.group(1))]
                break
    strings = [part for part in parts if part is not None]
    if not strings or len(strings) != len(parts):
        return None
    return "\n".join(strings)


def repr_role(text: str) -> str:
    """The role a message repr names (``ChatRole.ASSISTANT`` → ``ASSISTANT``), or the class name
    (``AIMessage``), lower-cased; empty when it names none."""
    match = _ROLE.search(text)
    if match:
        return match.group(1).lower()
    name = _OBJECT_START.match(text.strip())
    return name.group(0).strip().rstrip("(").rsplit(".", 1)[-1].lower() if name else ""


def list_items(text: str) -> list[ast.expr] | None:
    """The items of ``text`` when it is one Python list literal (a ``repr``), unevaluated; None when it is
    not (nor any literal nested past what the parser takes)."""
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree.elts if isinstance(tree, ast.List) else None


def literal_end(text: str, start: int) -> int | None:
    """Where the bracketed Python literal opening at ``start`` closes (the offset past its closing bracket),
    its strings' own brackets aside; None when the text there is no such literal."""
    depth = 0
    lines = [0]
    for line in text[start:].splitlines(keepends=True):
        lines.append(lines[-1] + len(line))
    try:
        for token in tokenize.generate_tokens(io.StringIO(text[start:]).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
                if depth == 0:
                    row, column = token.end
                    return start + lines[row - 1] + column
            elif token.type in (tokenize.ERRORTOKEN, tokenize.ENDMARKER) or depth <= 0:
                return None
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _literal(source: str) -> str | None:
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
