"""Where a python evaluator's code is, found without running it, so its version follows its source."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

NOT_FOUND = "not-found"


def module_file(module: str, path: Sequence[Path] = ()) -> Path | None:
    """The file ``module`` would be imported from (a plain module or a package's ``__init__``), searched in
    ``path`` then ``sys.path``, without importing anything; None when it is no plain source file there."""
    parts = module.split(".")
    for directory in [*path, *(Path(entry or ".") for entry in sys.path)]:
        base = Path(directory).joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def module_digest(module: str, path: Sequence[Path] = ()) -> str:
    """A digest of the module's source: an edit to it makes the evaluator a new version. The modules it
    imports are not read: bump the evaluator's definition when only they change."""
    found = module_file(module, path)
    if found is None:
        return NOT_FOUND
    return hashlib.sha256(found.read_bytes()).hexdigest()[:16]
