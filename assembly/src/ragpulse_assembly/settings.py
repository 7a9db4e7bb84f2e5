"""The ``[assembly]`` settings: how often and how much of the foreign traces become requests."""

from __future__ import annotations

from pydantic import Field
from ragpulse_core.settings import SettingsSection


class AssemblySettings(SettingsSection):
    enabled: bool = Field(True, description="Assemble requests from OpenInference and GenAI traces each tick")
    batch_size: int = Field(200, ge=1, description="Traces read and assembled per query")
    max_traces_per_tick: int = Field(5000, ge=1, description="Most traces assembled per tick")
