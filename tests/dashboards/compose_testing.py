"""``docker/compose_check.py`` (standard library only, outside any package) loaded for the compose tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def compose_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compose_check", ROOT / "docker" / "compose_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
