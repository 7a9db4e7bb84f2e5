"""Random traffic in which a known slice was made worse, or nothing was, or everything was a little.

Each scenario draws a service's requests over a baseline and a window. Every request has the dimensions
ragpulse slices by: a model version, a prompt template version, a question topic, the documents it retrieved
and their sources, and the attributes a team names (customer tier, region, deployment). Dimensions are drawn
correlated at random (a tier mostly on one model version, a region mostly on one deployment, a topic's
questions retrieving that topic's documents), and each topic has its own difficulty, so slices differ
before anything changes. Then, in the window, one of:

- ``none``: nothing changes;
- ``spread``: every request's chance of an unsupported answer rises by the same points, or the same factor;
- ``slice``: the requests of one slice (a model version, a template version, a topic, a document, a source,
  a tier, a region...) get worse;
- ``new``: a new model or template version takes part of the window's traffic, and answers worse.

``expected`` is the slice that must be named first (None: none may be named).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from ragpulse_dashboards.rootcause.ranking import SliceCounts, SliceKey
from ragpulse_scorers.stats import WeightedCount
from rootcause_data import SERVICE, StoredRequest

MODEL = "model version"
TEMPLATE = "template version"
TOPIC = "topic"
DOCUMENT = "document"
SOURCE = "source"
TIER = "customer.tier"
REGION = "cloud.region"
DEPLOYMENT = "deployment.environment"
KINDS = ("none", "spread", "slice", "new")
TOPICS = ("billing", "login", "export", "api limits", "invoices", "sso", "webhooks", "search", "pricing")
SOURCES = ("handbook", "api-reference", "faq", "release-notes", "status-page")


@dataclass(frozen=True)
class Request:
    in_window: bool
    values: Mapping[str, tuple[str, ...]]
    """Per dimension, the request's values (one, or several for documents and sources)."""
    hallucinated: bool

    def has(self, key: SliceKey) -> bool:
        return key.value in self.values.get(key.dimension, ())


@dataclass(frozen=True)
class Scenario:
    kind: str
    requests: list[Request]
    expected: SliceKey | None
    description: str
    source_of: Mapping[str, str]
    """Each document's source."""

    def totals(self) -> tuple[WeightedCount, WeightedCount]:
        return _count(self.requests, True), _count(self.requests, False)

    def slices(self) -> list[SliceCounts]:
        keys = sorted({SliceKey(d, v) for r in self.requests for d, vs in r.values.items() for v in vs})
        counts = {key: [0, 0, 0, 0] for key in keys}
        for request in self.requests:
            offset = 0 if request.in_window else 2
            for dimension, values in request.values.items():
                for value in values:
                    cell = counts[SliceKey(dimension, value)]
                    cell[offset] += 1
                    cell[offset + 1] += request.hallucinated
        return [
            SliceCounts(key, WeightedCount.unweighted(c[1], c[0]), WeightedCount.unweighted(c[3], c[2]))
            for key, c in counts.items()
        ]

    def residuals(self, keys: Sequence[SliceKey]) -> dict[tuple[SliceKey, SliceKey], SliceCounts]:
        """Each slice's requests outside each other slice, counted as :meth:`slices` counts them."""
        members = {key: {i for i, r in enumerate(self.requests) if r.has(key)} for key in keys}
        found = {}
        for first in keys:
            for second in keys:
                if first != second:
                    part = [self.requests[i] for i in members[first] - members[second]]
                    found[(first, second)] = SliceCounts(first, _count(part, True), _count(part, False))
        return found


def _count(requests: Sequence[Request], in_window: bool) -> WeightedCount:
    chosen = [request for request in requests if request.in_window == in_window]
    return WeightedCount.unweighted(sum(r.hallucinated for r in chosen), len(chosen))


def planted(kind: str, dimension: str | None = None, seed: int = 0, window: int = 1000) -> Scenario:
    """A clear case of ``kind``: the slice made worse is of ``dimension``, by 30 points, in a window of
    ``window`` judged requests against 3,000."""
    return scenario(seed, kind, window, 3000, dimension=dimension, points=0.3)


def scenario(
    seed: int,
    kind: str | None = None,
    window: int | None = None,
    baseline: int | None = None,
    *,
    dimension: str | None = None,
    points: float | None = None,
) -> Scenario:
    """One random scenario; ``kind``, ``window`` and ``baseline`` (judged requests), the planted slice's
    ``dimension`` and its rise in ``points`` fix those draws."""
    rng = random.Random(seed)
    kind = kind or rng.choice(KINDS)
    window_n = window or rng.choice((150, 300, 600, 1500, 4000))
    baseline_n = rng.choice((1500, 4000, 12000))
    baseline_n = baseline or baseline_n
    world = _World(rng)
    base = rng.uniform(0.03, 0.15)
    change = _Change.draw(rng, kind, world, dimension, points)
    requests = [world.request(rng, False, base, None) for _ in range(baseline_n)]
    requests += [world.request(rng, True, base, change) for _ in range(window_n)]
    expected = change.target if kind in ("slice", "new") else None
    description = f"{change.description}; n={window_n} vs {baseline_n}"
    return Scenario(kind, requests, expected, description, world.source_of)


class _World:
    """The dimensions' values and how they go together in this scenario."""

    def __init__(self, rng: random.Random) -> None:
        self.models = [f"m-2024-{month:02d}" for month in rng.sample(range(1, 13), rng.randint(2, 4))]
        self.templates = [f"v{n}" for n in range(1, rng.randint(3, 5))]
        self.topics = list(TOPICS[: rng.randint(4, len(TOPICS))])
        self.difficulty = {topic: rng.uniform(0.5, 2.0) for topic in self.topics}
        self.topic_weights = [rng.uniform(0.5, 2.0) for _ in self.topics]
        self.documents = {
            topic: [f"{topic.replace(' ', '-')}-{i}.md" for i in range(rng.randint(3, 6))]
            for topic in self.topics
        }
        self.source_of = {
            document: rng.choice(SOURCES) for documents in self.documents.values() for document in documents
        }
        self.tiers = ["free", "pro", "enterprise"]
        self.regions = ["eu", "us", "apac"][: rng.randint(2, 3)]
        self.deployments = ["blue", "green"]
        # Correlations: tier -> model, region -> deployment, template -> model, each of random strength.
        self.tier_model = {tier: rng.choice(self.models) for tier in self.tiers}
        self.tier_model_strength = rng.uniform(0.0, 0.95)
        self.region_deployment = {region: rng.choice(self.deployments) for region in self.regions}
        self.region_strength = rng.uniform(0.0, 0.95)
        self.template_strength = rng.uniform(0.0, 0.8)
        self.template_model = {template: rng.choice(self.models) for template in self.templates}
        self.new_model = "m-2025-01"
        self.new_template = f"v{len(self.templates) + 1}"

    def request(self, rng: random.Random, in_window: bool, base: float, change: _Change | None) -> Request:
        tier = rng.choices(self.tiers, (0.5, 0.3, 0.2))[0]
        template = rng.choice(self.templates)
        if rng.random() < self.tier_model_strength:
            model = self.tier_model[tier]
        elif rng.random() < self.template_strength:
            model = self.template_model[template]
        else:
            model = rng.choice(self.models)
        region = rng.choice(self.regions)
        deployment = (
            self.region_deployment[region]
            if rng.random() < self.region_strength
            else rng.choice(self.deployments)
        )
        topic = rng.choices(self.topics, self.topic_weights)[0]
        own = rng.sample(self.documents[topic], min(2, len(self.documents[topic])))
        other = rng.choice([d for t in self.topics if t != topic for d in self.documents[t]])
        documents = tuple(sorted({*own, other}))
        if in_window and change is not None and change.new_share and rng.random() < change.new_share:
            if change.target is not None and change.target.dimension == MODEL:
                model = self.new_model
            else:
                template = self.new_template
        values = {
            MODEL: (model,),
            TEMPLATE: (template,),
            TOPIC: (topic,),
            DOCUMENT: documents,
            SOURCE: tuple(sorted({self.source_of[d] for d in documents})),
            TIER: (tier,),
            REGION: (region,),
            DEPLOYMENT: (deployment,),
        }
        p = min(0.95, base * self.difficulty[topic])
        if in_window and change is not None:
            p = change.applied(p, values)
        return Request(in_window, values, rng.random() < p)


@dataclass(frozen=True)
class _Change:
    target: SliceKey | None
    points: float
    factor: float
    new_share: float
    description: str

    @classmethod
    def draw(
        cls, rng: random.Random, kind: str, world: _World, dimension: str | None, points: float | None
    ) -> _Change:
        if kind == "none":
            return cls(None, 0.0, 1.0, 0.0, "no change")
        if kind == "spread":
            if rng.random() < 0.5:
                points = rng.uniform(0.05, 0.2)
                return cls(None, points, 1.0, 0.0, f"every request +{points:.2f}")
            factor = rng.uniform(1.5, 3.0)
            return cls(None, 0.0, factor, 0.0, f"every request x{factor:.2f}")
        drawn = rng.uniform(0.15, 0.4)
        points = drawn if points is None else points
        if kind == "new":
            dimension = dimension or rng.choice((MODEL, TEMPLATE))
            value = world.new_model if dimension == MODEL else world.new_template
            share = rng.uniform(0.15, 0.6)
            return cls(
                SliceKey(dimension, value), points, 1.0, share, f"new {dimension} {value} +{points:.2f}"
            )
        dimension, value = cls._slice(rng, world, dimension)
        return cls(SliceKey(dimension, value), points, 1.0, 0.0, f"{dimension} {value} +{points:.2f}")

    @staticmethod
    def _slice(rng: random.Random, world: _World, dimension: str | None) -> tuple[str, str]:
        drawn = rng.choice((MODEL, TEMPLATE, TOPIC, DOCUMENT, SOURCE, TIER, REGION, DEPLOYMENT))
        dimension = dimension or drawn
        choices = {
            MODEL: world.models,
            TEMPLATE: world.templates,
            TOPIC: world.topics,
            DOCUMENT: sorted(world.source_of),
            SOURCE: sorted(set(world.source_of.values())),
            TIER: world.tiers,
            REGION: world.regions,
            DEPLOYMENT: world.deployments,
        }[dimension]
        return dimension, rng.choice(choices)

    def applied(self, p: float, values: Mapping[str, tuple[str, ...]]) -> float:
        if self.target is None:
            return min(0.95, p * self.factor + self.points)
        if self.target.value in values.get(self.target.dimension, ()):
            return min(0.95, p + self.points)
        return p


# Each topic's words: a topic's questions are drawn from them, so topics must be learnt from the words alone.
TOPIC_WORDS = {
    "billing": ("bill", "billing", "charge", "charged", "card", "payment", "refund"),
    "login": ("login", "password", "reset", "locked", "account", "sign"),
    "export": ("export", "csv", "download", "spreadsheet", "columns", "file"),
    "api limits": ("api", "rate", "limit", "quota", "requests", "throttled"),
    "invoices": ("invoice", "invoices", "vat", "receipt", "tax", "address"),
    "sso": ("sso", "saml", "okta", "provider", "identity", "federation"),
    "webhooks": ("webhook", "webhooks", "endpoint", "retries", "signature", "delivery"),
    "search": ("search", "index", "query", "results", "ranking", "filters"),
    "pricing": ("pricing", "plan", "upgrade", "seats", "discount", "annual"),
}
_OPENERS = ("How do I", "Why does my", "Can I change the", "What happens to the", "Where is the", "Help with")


def question_of(topic: str, rng: random.Random) -> str:
    words = rng.sample(TOPIC_WORDS[topic], 3)
    return f"{rng.choice(_OPENERS)} {' '.join(words)}?"


def stored_requests(
    scenario: Scenario, now: datetime, window: timedelta, baseline: timedelta, service: str = SERVICE
) -> list[StoredRequest]:
    """The scenario's requests as ragpulse stores them, from ``service``: window requests in the ``window``
    before ``now``, baseline ones in the ``baseline`` before that; each topic's questions in its words; three
    consecutive requests share a session."""
    rng = random.Random(len(scenario.requests))
    stored = []
    for index, request in enumerate(scenario.requests):
        span = window if request.in_window else baseline
        end = now if request.in_window else now - window
        values = request.values
        stored.append(
            StoredRequest(
                end - span * rng.uniform(0.01, 0.99),
                request.hallucinated,
                question=question_of(values[TOPIC][0], rng),
                model="gpt-4o",
                model_version=values[MODEL][0],
                template_version=values[TEMPLATE][0],
                documents=[(document, scenario.source_of[document]) for document in values[DOCUMENT]],
                attributes={name: values[name][0] for name in (TIER, REGION, DEPLOYMENT)},
                service=service,
                session=f"{service}-{'w' if request.in_window else 'b'}-{index // 3}",
            )
        )
    return stored
