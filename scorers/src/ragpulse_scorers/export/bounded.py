"""A ``requests`` session whose answers are read to a bound, for the stock OTLP/HTTP exporter.

The exporter posts with ``requests``, which reads a whole answer into memory before the exporter looks at
its status: a receiver answering 500 with hundreds of megabytes would grow the process by as much. Here the
body is streamed and only its start kept (the exporter reads no more than a status and a reason).
"""

from __future__ import annotations

from typing import Any, Final

import requests
from ragpulse_core.secrets import read_prefix

ANSWER_READ_BYTES: Final = 64 * 1024
_CHUNK: Final = 16 * 1024


class BoundedSession(requests.Session):
    def request(self, method: str, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["stream"] = True
        response = super().request(method, url, *args, **kwargs)
        try:
            start, _ = read_prefix(response.iter_content(_CHUNK), ANSWER_READ_BYTES)
        except requests.RequestException:
            start = b""
        finally:
            response.close()
        # What ``response.content`` returns from now on: the kept start, never the rest.
        response._content = start
        response._content_consumed = True
        return response
