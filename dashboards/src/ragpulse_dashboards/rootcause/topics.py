"""Topics of questions, learnt without a model: TF-IDF over the lexical judge's content stems, grouped by
spherical k-means (cosine similarity), each topic named by its heaviest words.

Deterministic: the questions are put in a canonical order (by a hash of their text) before anything is
drawn, the fit sample is the questions with the smallest hashes (a bottom-k sample, which changes little as
traffic grows), and k-means++ starts from a fixed seed. The same questions, in any order, give the same
topics. Fitting reads at most ``sample`` distinct questions; assigning a question afterwards costs a
tokenisation and a few dictionary lookups, so a million questions are assigned in seconds.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from ragpulse_judge.tokens import sentence_features, stem

NO_TOPIC = 0
# A term in more than this share of the sample's questions says nothing of their topic ("how", "configure").
MAX_DOCUMENT_SHARE = 0.5
# A question closer than this (cosine) to every topic belongs to none.
MIN_SIMILARITY = 0.2
# Terms kept per topic centroid, and words in its name.
CENTROID_TERMS = 30
NAME_WORDS = 3
# k-means is run with more clusters than topics are expected, then clusters whose centroids are at least this
# similar (cosine) are merged, most similar first: a topic asked about in several wordings is one topic.
MERGE_SIMILARITY = 0.3
# A refit's topic takes an earlier topic's id when their centroids are at least this similar.
SAME_TOPIC = 0.5
ITERATIONS = 30
_SEED = 20140402
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclass(frozen=True)
class Topic:
    id: int
    name: str
    terms: tuple[str, ...]
    weights: tuple[float, ...]
    questions: int
    """Distinct questions of the fit sample in this topic."""


@dataclass(frozen=True)
class TopicModel:
    topics: tuple[Topic, ...]
    vocabulary: tuple[str, ...]
    idf: tuple[float, ...]

    def assign(self, questions: Iterable[str]) -> list[int]:
        """Each question's topic id, or :data:`NO_TOPIC` when it is close to none."""
        idf = dict(zip(self.vocabulary, self.idf, strict=True))
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for topic in self.topics:
            for term, weight in zip(topic.terms, topic.weights, strict=True):
                postings[term].append((topic.id, weight))
        assigned = []
        for question in questions:
            terms = [term for term in question_terms(question) if term in idf]
            norm = math.sqrt(sum(idf[term] ** 2 for term in terms))
            scores: dict[int, float] = defaultdict(float)
            for term in terms:
                for topic_id, weight in postings.get(term, ()):
                    scores[topic_id] += idf[term] / norm * weight
            best = max(scores.items(), key=lambda item: (item[1], -item[0]), default=(NO_TOPIC, 0.0))
            assigned.append(best[0] if best[1] >= MIN_SIMILARITY else NO_TOPIC)
        return assigned


def question_terms(question: str) -> frozenset[str]:
    """The content stems the lexical judge compares, of a question."""
    return sentence_features(question, claim=False).content


def fit_topics(
    questions: Sequence[tuple[str, int]],
    *,
    max_topics: int = 40,
    sample: int = 20_000,
    previous: TopicModel | None = None,
) -> TopicModel:
    """Topics of ``questions`` (each distinct question with how often it was asked); ``previous`` lends its
    ids to the topics found again."""
    chosen = _canonical_sample(questions, sample)
    terms = [question_terms(text) for text, _ in chosen]
    vocabulary, idf = _vocabulary(terms)
    index = {term: column for column, term in enumerate(vocabulary)}
    rows = [(position, sorted(index[t] for t in found if t in index)) for position, found in enumerate(terms)]
    rows = [(position, columns) for position, columns in rows if columns]
    if not rows or not vocabulary:
        return TopicModel((), vocabulary, tuple(idf.tolist()))
    matrix = _Rows.build([columns for _, columns in rows], idf)
    weights = np.array([math.log1p(chosen[position][1]) + 1 for position, _ in rows])
    k = min(2 * max_topics, max(2, round(math.sqrt(len(rows)))), len(rows))
    labels, centroids = _merged(*_spherical_kmeans(matrix, weights, k), matrix, weights, max_topics)
    words = _surface_words(text for text, _ in chosen)
    found = []
    for cluster in range(len(centroids)):
        members = int(np.sum(labels == cluster))
        if members == 0:
            continue
        order = np.argsort(-centroids[cluster], kind="stable")[:CENTROID_TERMS]
        kept = [column for column in order if centroids[cluster][column] > 0]
        term_weights = centroids[cluster][kept]
        term_weights = term_weights / np.linalg.norm(term_weights)
        named = [words.get(vocabulary[column], vocabulary[column]) for column in kept[:NAME_WORDS]]
        found.append(
            (members, " · ".join(named), tuple(vocabulary[c] for c in kept), tuple(term_weights.tolist()))
        )
    return TopicModel(_with_ids(found, previous), vocabulary, tuple(float(x) for x in idf))


def _canonical_sample(questions: Sequence[tuple[str, int]], sample: int) -> list[tuple[str, int]]:
    """Distinct questions (case and spacing folded, counts summed) by the hash of their text, the ``sample``
    smallest: the same set of questions gives the same list whatever order it came in."""
    counts: Counter[str] = Counter()
    for text, count in questions:
        counts[" ".join(text.split()).lower()] += count
    hashed = sorted(
        counts.items(), key=lambda item: (hashlib.blake2b(item[0].encode(), digest_size=8).digest(), item[0])
    )
    return hashed[:sample]


def _vocabulary(terms: Sequence[frozenset[str]]) -> tuple[tuple[str, ...], np.ndarray]:
    """Terms in at least two questions and at most MAX_DOCUMENT_SHARE of them, with their smoothed IDF."""
    frequency: Counter[str] = Counter(term for found in terms for term in found)
    total = len(terms)
    kept = sorted(term for term, df in frequency.items() if 2 <= df <= MAX_DOCUMENT_SHARE * total)
    idf = np.array([math.log((1 + total) / (1 + frequency[term])) + 1 for term in kept], dtype=np.float64)
    return tuple(kept), idf


@dataclass(frozen=True)
class _Rows:
    """L2-normalised TF-IDF rows, sparse: row i's columns are ``columns[starts[i]:starts[i + 1]]``."""

    starts: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    width: int

    @classmethod
    def build(cls, rows: Sequence[Sequence[int]], idf: np.ndarray) -> _Rows:
        starts = np.zeros(len(rows) + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(columns) for columns in rows])
        columns = np.fromiter((c for row in rows for c in row), dtype=np.int64, count=int(starts[-1]))
        values = idf[columns]
        norms = np.sqrt(np.add.reduceat(values * values, starts[:-1]))
        values = values / np.repeat(norms, np.diff(starts))
        return cls(starts, columns, values, len(idf))

    @property
    def owners(self) -> np.ndarray:
        """The row of each stored value."""
        return np.repeat(np.arange(len(self.starts) - 1), np.diff(self.starts))

    def similarities(self, centroids: np.ndarray) -> np.ndarray:
        """Each row's dot product with each centroid (rows x k), in chunks to bound memory."""
        result = np.empty((len(self.starts) - 1, len(centroids)))
        transposed = centroids.T
        chunk = 50_000
        for first in range(0, len(self.starts) - 1, chunk):
            last = min(first + chunk, len(self.starts) - 1)
            begin, end = int(self.starts[first]), int(self.starts[last])
            products = self.values[begin:end, None] * transposed[self.columns[begin:end]]
            result[first:last] = np.add.reduceat(products, self.starts[first:last] - begin, axis=0)
        return result


def _spherical_kmeans(rows: _Rows, weights: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Weighted k-means on the unit sphere, seeded by k-means++ from a fixed seed; labels and centroids."""
    rng = np.random.default_rng(_SEED)
    count = len(rows.starts) - 1
    owners = rows.owners
    chosen = [int(rng.choice(count, p=weights / weights.sum()))]
    centroids = _dense(rows, chosen)
    closest = rows.similarities(centroids)[:, 0]
    while len(chosen) < k:
        distance = np.clip(1 - closest, 0, None) * weights
        if distance.sum() <= 0:
            break
        chosen.append(int(rng.choice(count, p=distance / distance.sum())))
        centroids = _dense(rows, chosen)
        closest = np.maximum(closest, rows.similarities(centroids[-1:])[:, 0])
    labels = np.full(count, -1)
    for _ in range(ITERATIONS):
        new_labels = np.argmax(rows.similarities(centroids), axis=1)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        sums = np.zeros((len(centroids), rows.width))
        np.add.at(sums, (labels[owners], rows.columns), rows.values * weights[owners])
        norms = np.linalg.norm(sums, axis=1)
        centroids = np.where(norms[:, None] > 0, sums / np.where(norms > 0, norms, 1)[:, None], centroids)
    return labels, centroids


def _merged(
    labels: np.ndarray, centroids: np.ndarray, rows: _Rows, weights: np.ndarray, most: int
) -> tuple[np.ndarray, np.ndarray]:
    """Clusters merged while two centroids are MERGE_SIMILARITY similar or more, or more than ``most``
    remain (centroid linkage: a merged cluster's centroid is its members' weighted mean, normalised); labels
    renumbered from 0."""
    owners = rows.owners
    sums = np.zeros((len(centroids), rows.width))
    np.add.at(sums, (labels[owners], rows.columns), rows.values * weights[owners])
    alive = [cluster for cluster in range(len(centroids)) if np.any(sums[cluster])]
    mapping = {cluster: cluster for cluster in range(len(centroids))}
    while len(alive) > 1:
        unit = sums[alive] / np.linalg.norm(sums[alive], axis=1)[:, None]
        similarity = unit @ unit.T
        np.fill_diagonal(similarity, -1.0)
        first, second = np.unravel_index(int(np.argmax(similarity)), similarity.shape)
        if similarity[first, second] < MERGE_SIMILARITY and len(alive) <= most:
            break
        keep, gone = alive[min(first, second)], alive[max(first, second)]
        sums[keep] += sums[gone]
        alive.remove(gone)
        for cluster, target in mapping.items():
            if target == gone:
                mapping[cluster] = keep
    renumbered = {cluster: position for position, cluster in enumerate(alive)}
    new_labels = np.array([renumbered[mapping[int(label)]] for label in labels])
    merged = sums[alive] / np.linalg.norm(sums[alive], axis=1)[:, None]
    return new_labels, merged


def _dense(rows: _Rows, chosen: Sequence[int]) -> np.ndarray:
    centroids = np.zeros((len(chosen), rows.width))
    for position, row in enumerate(chosen):
        begin, end = int(rows.starts[row]), int(rows.starts[row + 1])
        centroids[position, rows.columns[begin:end]] = rows.values[begin:end]
    return centroids


def _surface_words(texts: Iterable[str]) -> dict[str, str]:
    """Each stem's most frequent written form, so a topic is named "invoices", not "invoic"."""
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    for text in texts:
        for word in _WORD.findall(text.lower()):
            forms[stem(word)][word] += 1
    return {root: min(seen.items(), key=lambda item: (-item[1], item[0]))[0] for root, seen in forms.items()}


def _with_ids(
    found: list[tuple[int, str, tuple[str, ...], tuple[float, ...]]], previous: TopicModel | None
) -> tuple[Topic, ...]:
    """Topics with ids: an earlier topic's id where its centroid is SAME_TOPIC similar or more (best pairs
    first), new ids, by size, for the rest."""
    found.sort(key=lambda item: (-item[0], item[1]))
    earlier = previous.topics if previous is not None else ()
    pairs = sorted(
        (
            (-_cosine(terms, weights, old.terms, old.weights), position, old.id)
            for position, (_, _, terms, weights) in enumerate(found)
            for old in earlier
        ),
    )
    ids: dict[int, int] = {}
    taken: set[int] = set()
    for negative, position, old_id in pairs:
        if -negative < SAME_TOPIC:
            break
        if position not in ids and old_id not in taken:
            ids[position] = old_id
            taken.add(old_id)
    next_id = max([topic.id for topic in earlier], default=NO_TOPIC) + 1
    topics = []
    for position, (members, name, terms, weights) in enumerate(found):
        if position not in ids:
            ids[position] = next_id
            next_id += 1
        topics.append(Topic(ids[position], name, terms, weights, members))
    return tuple(sorted(topics, key=lambda topic: topic.id))


def _cosine(
    terms: Sequence[str], weights: Sequence[float], other_terms: Sequence[str], other_weights: Sequence[float]
) -> float:
    other = dict(zip(other_terms, other_weights, strict=True))
    return sum(weight * other.get(term, 0.0) for term, weight in zip(terms, weights, strict=True))
