"""A judge client for a command a person waits on: configured and answering, or one line saying why not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeConnectionFailed, JudgeError

if TYPE_CHECKING:
    import httpx

    from ragpulse_scorers.settings import JudgeSettings

NOT_CONFIGURED = (
    "no judge endpoint: set OPENAI_BASE_URL to your model server (llama.cpp: http://127.0.0.1:8080/v1, "
    "Ollama: http://127.0.0.1:11434/v1) or OPENAI_API_KEY for OpenAI"
)


class JudgeEndpointError(JudgeError, ValueError):
    """No judge to call: none is configured, or nothing answers where it is configured. A ``ValueError``,
    so the ``ragpulse`` command prints the message as one line instead of a traceback."""


def ready_client(settings: JudgeSettings, http_client: httpx.Client | None = None) -> JudgeClient:
    """A client whose endpoint answered a quick probe (within the connect timeout)."""
    if not settings.configured:
        raise JudgeEndpointError(NOT_CONFIGURED)
    client = JudgeClient(settings, http_client=http_client)
    try:
        client.check_reachable()
    except JudgeConnectionFailed as exc:
        raise JudgeEndpointError(
            f"{exc}; start the model server or point OPENAI_BASE_URL (or judge.base_url) at it"
        ) from exc
    return client
