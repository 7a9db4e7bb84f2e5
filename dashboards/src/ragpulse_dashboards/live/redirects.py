"""Where a sign-in leads: back to the view that asked for it, and never to another site.

The target comes from the request (``?token=`` on any path) or from the sign-in form's ``next`` field, so an
attacker chooses it. Browsers resolve a ``Location`` by the WHATWG URL rules, which are lenient: they drop
tabs and newlines anywhere, strip leading control characters and spaces, read ``\\`` as ``/``, and take a
leading ``//`` as another host. Filtering bad inputs misses some family of these; instead the target is
rebuilt from parts that cannot leave the origin: a single ``/``, the path with every character outside a
plain set percent-encoded (so no slash, backslash or control character can follow that first ``/``), and
the query re-encoded pair by pair.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, unquote, urlencode

# Path characters kept as they are: unreserved and sub-delimiters, ':' and '@' (RFC 3986 pchar) and '/'.
_PATH_SAFE = "/-._~!$&'()*+,;=:@"
# What may precede the path proper: browsers skip or fold all of it (C0 controls, space, slashes).
_LEADING = "".join(chr(code) for code in range(0x21)) + "/\\"


def same_site_target(path: str, query: Iterable[tuple[str, str]]) -> str:
    """``/`` + the decoded ``path`` made inert + the ``query`` pairs, minus any ``token``."""
    rest = quote(path.lstrip(_LEADING), safe=_PATH_SAFE)
    pairs = [(name, value) for name, value in query if name != "token"]
    return f"/{rest}" + (f"?{urlencode(pairs)}" if pairs else "")


def form_target(next_value: str) -> str:
    """The target a sign-in form's ``next`` field names (``/path?query``, as the page wrote it)."""
    before_fragment = next_value.partition("#")[0]
    path, _, query = before_fragment.partition("?")
    return same_site_target(unquote(path), parse_qsl(query, keep_blank_values=True))
