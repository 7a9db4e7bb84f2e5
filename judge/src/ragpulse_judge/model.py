"""The learnt model: a logistic regression over the claim features, read from a small JSON file.

A claim's probability of being unsupported is ``sigmoid(bias + sum(weight * (feature - mean) / scale))``.
An answer is as unsupported as its weakest claim: its probability is ``sigmoid(answer_intercept +
answer_slope * max claim logit)``, the slope and intercept fitted on out-of-fold predictions so the answer's
probability is calibrated too (a long answer has more chances to hold one bad claim than a claim has). A
claim is marked unsupported, and the answer hallucinated, where that answer-scale probability reaches
``threshold``.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from ragpulse_judge.features import FEATURE_NAMES

MODEL_FILE = "model.json"


class ModelError(ValueError):
    """A model file that cannot be used: the message says which field and why."""


@dataclass(frozen=True)
class LearntModel:
    features: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    answer_slope: float
    answer_intercept: float
    threshold: float
    version: str
    trained_on: dict[str, Any]

    def claim_logit(self, values: list[float]) -> float:
        total = self.bias
        for value, mean, scale, weight in zip(values, self.means, self.scales, self.weights, strict=True):
            total += weight * (value - mean) / scale
        return total

    def answer_probability(self, worst_logit: float) -> float:
        return sigmoid(self.answer_intercept + self.answer_slope * worst_logit)

    def as_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "means": list(self.means),
            "scales": list(self.scales),
            "weights": list(self.weights),
            "bias": self.bias,
            "answer_slope": self.answer_slope,
            "answer_intercept": self.answer_intercept,
            "threshold": self.threshold,
            "trained_on": self.trained_on,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], version: str) -> LearntModel:
        try:
            features = tuple(str(name) for name in data["features"])
            columns = [tuple(float(v) for v in data[key]) for key in ("means", "scales", "weights")]
            numbers = [float(data[key]) for key in ("bias", "answer_slope", "answer_intercept", "threshold")]
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"model file: missing or malformed field ({exc})") from exc
        if features != FEATURE_NAMES:
            raise ModelError(
                "model file: its features are not the ones this version computes; retrain it "
                f"(file: {', '.join(features)})"
            )
        if any(len(column) != len(features) for column in columns):
            raise ModelError("model file: means, scales and weights need one value per feature")
        values = [v for column in columns for v in column] + numbers
        if not all(math.isfinite(v) for v in values) or any(s <= 0 for s in columns[1]):
            raise ModelError("model file: every number must be finite and every scale positive")
        if not 0.0 < numbers[3] < 1.0:
            raise ModelError("model file: threshold must lie strictly between 0 and 1")
        trained_on = data.get("trained_on", {})
        means, scales, weights = columns
        bias, slope, intercept, threshold = numbers
        return cls(
            features,
            means,
            scales,
            weights,
            bias,
            slope,
            intercept,
            threshold,
            version,
            trained_on if isinstance(trained_on, dict) else {},
        )


def sigmoid(logit: float) -> float:
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    odds = math.exp(logit)
    return odds / (1.0 + odds)


def logit_of(probability: float) -> float:
    return math.log(probability / (1.0 - probability))


def serialise(model_data: dict[str, Any]) -> str:
    """The file's text: sorted keys, fixed layout, so the same training writes the same bytes."""
    return json.dumps(model_data, indent=1, sort_keys=True) + "\n"


def model_version(text: str) -> str:
    """A version that changes whenever the model does: the first 8 hex digits of its file's SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def load_model(path: Path | None = None) -> LearntModel:
    """The model at ``path``, or the one that ships in the package."""
    text = (
        path.read_text(encoding="utf-8")
        if path
        else (files("ragpulse_judge") / MODEL_FILE).read_text("utf-8")
    )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"model file: invalid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ModelError("model file: expected a JSON object")
    return LearntModel.from_dict(data, model_version(text))
