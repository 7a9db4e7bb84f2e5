"""Template versions in ``ragpulse_templates``: written as they are learnt and as they read requests (one row
per version and batch, counts added up by the table's merges), and read back when a process starts, so a
restart or another worker reads prompts with the same versions at once."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ragpulse_assembly.learnt.template import Template
from ragpulse_core.store import Store

logger = logging.getLogger(__name__)
TABLE: Final = "ragpulse_templates"
COLUMNS: Final = (
    "ServiceName", "Place", "Version", "LearntFrom", "Skeleton", "Definition", "FirstSeen", "LastSeen",
    "Requests", "Refused",
)  # fmt: skip


@dataclass(frozen=True)
class TemplateUse:
    """Requests one version read in a batch, and how many of them could not be scored."""

    template: Template
    requests: int
    refused: int


@dataclass(frozen=True)
class StoredTemplate:
    template: Template
    first_seen: datetime
    last_seen: datetime
    requests: int
    refused: int


def record(store: Store, uses: Iterable[TemplateUse], when: datetime) -> None:
    rows = [
        [
            use.template.service, use.template.place, use.template.version, use.template.learnt_from,
            use.template.skeleton(), json.dumps(use.template.definition(), ensure_ascii=False), when, when,
            use.requests, use.refused,
        ]
        for use in uses
    ]  # fmt: skip
    if rows:
        store.insert(TABLE, rows, COLUMNS)


def stored_templates(store: Store, since: datetime, service: str | None = None) -> list[StoredTemplate]:
    """The versions that read requests since ``since`` (of ``service``, or all), newest first; a stored
    definition this version cannot read is left out with a warning."""
    rows = store.query(
        f"""
        SELECT ServiceName, Place, Version, max(LearntFrom), any(Definition), min(FirstSeen), max(LastSeen),
               sum(Requests), sum(Refused)
        FROM {store.table(TABLE)}
        WHERE {{service:String}} = '' OR ServiceName = {{service:String}}
        GROUP BY ServiceName, Place, Version
        HAVING max(LastSeen) >= {{since:DateTime64(6)}}
        ORDER BY ServiceName, Place, max(LastSeen) DESC, Version
        """,
        {"service": service or "", "since": since},
    )
    found = []
    for name, place, version, learnt_from, definition, first, last, requests, refused in rows:
        template = _template(str(name), str(place), int(learnt_from), str(definition), str(version))
        if template is not None:
            found.append(StoredTemplate(template, first, last, int(requests), int(refused)))
    return found


def _template(service: str, place: str, learnt_from: int, definition: str, version: str) -> Template | None:
    try:
        value: Any = json.loads(definition)
        template = Template.from_definition(service, place, learnt_from, value)
    except ValueError as exc:
        logger.warning(
            "stored template %s of %s cannot be read (%s); it is learnt again", version, service, exc
        )
        return None
    if template.version != version:
        logger.warning(
            "stored template %s of %s reads as another version; it is learnt again", version, service
        )
        return None
    return template
