"""ragpulse: decorators that trace RAG and RAG-Fusion requests as OpenTelemetry spans.

Five decorators mark the steps (``rag`` for the request, ``variations``, ``retrieve``, ``fuse``,
``generate``); the root span collects what the steps saw so one span describes the whole request.
``guard`` runs the free judge on an answer in this process (the ``ragpulse[guard]`` extra).
"""

from ragpulse.calls import use_tracer_provider
from ragpulse.chunks import Chunk, ChunkError, to_chunk
from ragpulse.configure import configure
from ragpulse.decorators import fuse, generate, rag, retrieve, variations
from ragpulse.feedback import feedback
from ragpulse.fusion import FusedChunk, rrf
from ragpulse.guarding import Guard, GuardClaim, GuardVerdict, guard
from ragpulse.internal import internal_error_count
from ragpulse.request import set_attributes, set_reference, set_session, set_user

__version__ = "0.1.0"

__all__ = [
    "Chunk",
    "ChunkError",
    "FusedChunk",
    "Guard",
    "GuardClaim",
    "GuardVerdict",
    "configure",
    "feedback",
    "fuse",
    "generate",
    "guard",
    "internal_error_count",
    "rag",
    "retrieve",
    "rrf",
    "set_attributes",
    "set_reference",
    "set_session",
    "set_user",
    "to_chunk",
    "use_tracer_provider",
    "variations",
]
