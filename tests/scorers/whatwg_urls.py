"""Node's WHATWG URL parser (the one browsers implement), as an oracle: where a browser goes on a Location."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

_RESOLVER = r"""
const lines = require('readline').createInterface({input: process.stdin});
lines.on('line', (line) => {
  const [location, base] = JSON.parse(line);
  let origin = null;
  try { origin = new URL(location, base).origin; } catch (e) { origin = null; }
  process.stdout.write(JSON.stringify(origin) + '\n');
});
"""


class Resolver:
    """One node process answering, line by line, the origin a Location resolves to against a base URL."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            pytest.skip("node is not installed: no WHATWG URL parser to check redirects against")
        self._process = subprocess.Popen(
            [node, "-e", _RESOLVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def origin(self, location: str, base: str) -> str | None:
        """The origin a browser reaches, or None when the Location is not a URL at all."""
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps([location, base]) + "\n")
        self._process.stdin.flush()
        answer: str | None = json.loads(self._process.stdout.readline())
        return answer

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=10)
