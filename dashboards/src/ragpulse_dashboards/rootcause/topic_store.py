"""Topic models in ``ragpulse_topics`` and each distinct question's topic in ``ragpulse_question_topics``.

A model is fitted from the distinct questions of the last ``fit_days`` (the ``topic_sample`` ones with the
smallest hashes of their normalised text, so the same traffic gives the same sample) when none exists or the
newest is ``refit_hours`` old, keeping the ids of the topics it finds again. Questions are assigned to the
newest model once each, by the hash ragpulse_request_facts joins on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

from ragpulse_dashboards.rootcause.topics import Topic, TopicModel, fit_topics
from ragpulse_dashboards.settings import RootCauseSettings

logger = logging.getLogger(__name__)

# Distinct questions assigned per read, so memory is bounded by it and not by the backlog.
ASSIGN_BATCH = 100_000
_NORMALISED = "lowerUTF8(trimBoth(replaceRegexpAll(Question, '\\\\s+', ' ')))"


# Before the fit reads a full sample, topics are learnt again once the questions seen have doubled: the first
# fit of a new service sees its first few questions, not the ones that make its topics.
GROWTH = 2


@dataclass(frozen=True)
class FittedModel:
    version: datetime
    model: TopicModel
    questions: int = 0
    """Distinct questions the fit read."""


def latest_model(store: Store) -> FittedModel | None:
    """The newest fitted topic model, or None before the first fit."""
    rows = store.query_dicts(
        "SELECT ModelVersion, Topic, Name, Terms, Weights, Questions, Vocabulary, Idf"
        f" FROM {store.table('ragpulse_topics')} FINAL"
        f" WHERE ModelVersion = (SELECT max(ModelVersion) FROM {store.table('ragpulse_topics')})"
        " ORDER BY Topic"
    )
    if not rows:
        return None
    head = rows[0]
    topics = tuple(
        Topic(
            int(row["Topic"]),
            str(row["Name"]),
            tuple(row["Terms"]),
            tuple(float(weight) for weight in row["Weights"]),
            int(row["Questions"]),
        )
        for row in rows
        if int(row["Topic"]) != 0
    )
    model = TopicModel(topics, tuple(head["Vocabulary"]), tuple(float(x) for x in head["Idf"]))
    return FittedModel(_utc(head["ModelVersion"]), model, int(head["Questions"]))


def topic_names(store: Store) -> dict[int, str]:
    """Every topic id's name in the newest model that has it."""
    rows = store.query(
        f"SELECT Topic, argMax(Name, ModelVersion) FROM {store.table('ragpulse_topics')}"
        " WHERE Topic != 0 GROUP BY Topic"
    )
    return {int(topic): str(name) for topic, name in rows}


def fit_due(store: Store, current: FittedModel | None, settings: RootCauseSettings, now: datetime) -> bool:
    """No model yet, the newest is ``refit_hours`` old, or it read less than a full sample and the distinct
    questions of the fit's days have since grown GROWTH-fold."""
    if current is None or now - current.version >= timedelta(hours=settings.refit_hours):
        return True
    if current.questions >= settings.topic_sample:
        return False
    [(seen,)] = store.query(
        f"SELECT uniq(cityHash64({_NORMALISED})) FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(6)} AND Question != ''",
        {"since": now - timedelta(days=settings.fit_days)},
    )
    return int(seen) >= GROWTH * max(1, current.questions)


def fit_model(
    store: Store, settings: RootCauseSettings, now: datetime, previous: FittedModel | None
) -> FittedModel | None:
    """Fit topics on the last ``fit_days`` of questions and store them; None when there are none."""
    rows = store.query(
        f"SELECT any(Question), count() FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(6)} AND Timestamp <= {now:DateTime64(6)} AND Question != ''"
        f" GROUP BY cityHash64({_NORMALISED}) AS key ORDER BY key LIMIT {{sample:UInt32}}",
        {"since": now - timedelta(days=settings.fit_days), "now": now, "sample": settings.topic_sample},
    )
    if not rows:
        return None
    model = fit_topics(
        [(str(text), int(count)) for text, count in rows],
        max_topics=settings.max_topics,
        sample=settings.topic_sample,
        previous=previous.model if previous is not None else None,
    )
    version = now.astimezone(UTC)
    _save(store, version, model, len(rows))
    logger.info("topics: fitted %d topics on %d distinct questions", len(model.topics), len(rows))
    return FittedModel(version, model, len(rows))


def _save(store: Store, version: datetime, model: TopicModel, questions: int) -> None:
    head: list[Any] = [version, 0, "", [], [], questions, list(model.vocabulary), list(model.idf)]
    rows = [head] + [
        [version, topic.id, topic.name, list(topic.terms), list(topic.weights), topic.questions, [], []]
        for topic in model.topics
    ]
    store.insert(
        "ragpulse_topics",
        rows,
        ["ModelVersion", "Topic", "Name", "Terms", "Weights", "Questions", "Vocabulary", "Idf"],
    )


def assign_questions(store: Store, fitted: FittedModel, start: datetime, end: datetime) -> int:
    """Give every question asked in [start, end) that has no topic under ``fitted`` one; how many."""
    assigned = 0
    while True:
        rows = store.query(
            f"SELECT cityHash64(Question) AS key, any(Question) FROM {store.table('ragpulse_requests')}"
            " WHERE Timestamp >= {start:DateTime64(9)} AND Timestamp < {end:DateTime64(9)}"
            f" AND key NOT IN (SELECT QuestionKey FROM {store.table('ragpulse_question_topics')}"
            "  WHERE ModelVersion = {version:DateTime64(6)})"
            " GROUP BY key LIMIT {batch:UInt32}",
            {"start": start, "end": end, "version": fitted.version, "batch": ASSIGN_BATCH},
        )
        if not rows:
            return assigned
        topics = fitted.model.assign(str(question) for _, question in rows)
        store.insert(
            "ragpulse_question_topics",
            [[fitted.version, int(key), topic] for (key, _), topic in zip(rows, topics, strict=True)],
            ["ModelVersion", "QuestionKey", "Topic"],
        )
        assigned += len(rows)
        if len(rows) < ASSIGN_BATCH:
            return assigned


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
