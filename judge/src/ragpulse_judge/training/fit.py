"""Fitting the learnt judge: claim labels from people's spans, logistic regression, grouped cross-validation.

Plain Python, no numeric stack: Newton's method on a model of a few dozen weights converges in a handful of
steps, and the same data gives the same file byte for byte on any machine with the same Python (float
arithmetic in a fixed order; the weights are rounded to 6 decimals before they are written).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragpulse_judge.features import FEATURE_NAMES, AnswerReading, ClaimReading, read_answer
from ragpulse_judge.model import LearntModel, sigmoid
from ragpulse_judge.training.augment import corrupted
from ragpulse_judge.training.data import LabelledAnswer

L2_PENALTY = 1.0
CORRUPTION_SHARE = 0.5
NEWTON_STEPS = 25
RULE_SCORE = FEATURE_NAMES.index("rule_score")
# An answer with no claim to check: as sure as the model can be that it is supported.
NO_CLAIM_LOGIT = -10.0
Progress = Callable[[int], None]


@dataclass(frozen=True)
class ReadAnswer:
    """A labelled answer read by the judge: every claim's features, and the label of those people judged."""

    answer: LabelledAnswer
    claims: list[list[float]]
    labels: list[bool | None]


def read_labelled(answers: Sequence[LabelledAnswer], progress: Progress | None = None) -> list[ReadAnswer]:
    read: list[ReadAnswer] = []
    for number, answer in enumerate(answers, start=1):
        reading = read_answer(answer.question, answer.context, answer.answer)
        scored = [claim for claim in reading.claims if claim.features is not None]
        read.append(
            ReadAnswer(
                answer, [claim.features for claim in scored if claim.features], claim_labels(answer, reading)
            )
        )
        if progress is not None:
            progress(number)
    return read


def claim_labels(answer: LabelledAnswer, reading: AnswerReading) -> list[bool | None]:
    """Per scored claim: unsupported (True), supported (False), or unknown (None: not annotated, or one of
    several clauses of a sentence people marked as a whole, where only the weakest is taken as the false
    one)."""
    offsets = _sentence_offsets(answer.answer, reading.sentences)
    scored = [claim for claim in reading.claims if claim.features is not None]
    labels: list[bool | None] = []
    for claim in scored:
        offset = offsets[claim.sentence_index]
        if offset is None:
            labels.append(None)
            continue
        start, end = offset + claim.claim.start, offset + claim.claim.end
        if answer.annotated is not None and not any(_overlaps((start, end), r) for r in answer.annotated):
            labels.append(None)
            continue
        asides = [
            (offset + other.claim.start, offset + other.claim.end)
            for other in scored
            if other.sentence_index == claim.sentence_index and other.claim.aside and other is not claim
        ]
        labels.append(
            any(
                _overlaps((start, end), span) and not any(_within(span, aside) for aside in asides)
                for span in answer.unsupported
            )
        )
    if answer.sentence_labels:
        _weakest_clause_only(scored, labels)
    return labels


def _weakest_clause_only(scored: list[ClaimReading], labels: list[bool | None]) -> None:
    by_sentence: dict[int, list[int]] = {}
    for position, claim in enumerate(scored):
        if labels[position]:
            by_sentence.setdefault(claim.sentence_index, []).append(position)
    for positions in by_sentence.values():
        weakest = min(positions, key=lambda p: (scored[p].features or [0.0] * len(FEATURE_NAMES))[RULE_SCORE])
        for position in positions:
            if position != weakest:
                labels[position] = None


def _sentence_offsets(answer: str, sentences: list[str]) -> list[int | None]:
    offsets: list[int | None] = []
    cursor = 0
    for sentence in sentences:
        found = answer.find(sentence, cursor) if sentence else -1
        offsets.append(None if found < 0 else found)
        if found >= 0:
            cursor = found + len(sentence)
    return offsets


def _overlaps(first: tuple[int, int], second: tuple[int, int]) -> bool:
    return first[0] < second[1] and second[0] < first[1]


def _within(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


@dataclass(frozen=True)
class ClaimModel:
    means: list[float]
    scales: list[float]
    weights: list[float]
    bias: float

    def logit(self, values: list[float]) -> float:
        total = self.bias
        for value, mean, scale, weight in zip(values, self.means, self.scales, self.weights, strict=True):
            total += weight * (value - mean) / scale
        return total


def fit_claims(
    rows: Sequence[list[float]], labels: Sequence[bool], weights: Sequence[float] | None = None
) -> ClaimModel:
    """L2-penalised, weighted logistic regression on standardised features, by Newton's method."""
    if not rows or all(labels) or not any(labels):
        raise ValueError("fitting needs claims of both labels")
    width = len(rows[0])
    means = [sum(row[j] for row in rows) / len(rows) for j in range(width)]
    scales = []
    for j in range(width):
        variance = sum((row[j] - means[j]) ** 2 for row in rows) / len(rows)
        scales.append(math.sqrt(variance) if variance > 1e-12 else 1.0)
    design = [[1.0, *((row[j] - means[j]) / scales[j] for j in range(width))] for row in rows]
    targets = [1.0 if label else 0.0 for label in labels]
    beta = _newton(design, targets, penalised_from=1, weights=weights)
    return ClaimModel(means, scales, beta[1:], beta[0])


def fit_platt(scores: Sequence[float], labels: Sequence[bool]) -> tuple[float, float]:
    """(slope, intercept) mapping an answer's worst claim logit to a calibrated probability."""
    design = [[1.0, score] for score in scores]
    beta = _newton(design, [1.0 if label else 0.0 for label in labels], penalised_from=2)
    return beta[1], beta[0]


def _newton(
    design: list[list[float]],
    targets: list[float],
    penalised_from: int,
    weights: Sequence[float] | None = None,
) -> list[float]:
    width = len(design[0])
    beta = [0.0] * width
    row_weights = list(weights) if weights is not None else [1.0] * len(design)
    for _ in range(NEWTON_STEPS):
        gradient = [0.0] * width
        hessian = [[0.0] * width for _ in range(width)]
        for row, target, row_weight in zip(design, targets, row_weights, strict=True):
            probability = sigmoid(sum(b * x for b, x in zip(beta, row, strict=True)))
            error = row_weight * (probability - target)
            weight = row_weight * probability * (1.0 - probability)
            for i in range(width):
                gradient[i] += error * row[i]
                scaled = weight * row[i]
                hessian_row = hessian[i]
                for k in range(i + 1):
                    hessian_row[k] += scaled * row[k]
        for i in range(width):
            for k in range(i):
                hessian[k][i] = hessian[i][k]
            if i >= penalised_from:
                gradient[i] += L2_PENALTY * beta[i]
                hessian[i][i] += L2_PENALTY
            hessian[i][i] += 1e-9
        step = _solve(hessian, gradient)
        beta = [b - s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and positive definite)."""
    size = len(vector)
    augmented = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(augmented[r][column]))
        augmented[column], augmented[pivot] = augmented[pivot], augmented[column]
        for row in range(column + 1, size):
            factor = augmented[row][column] / augmented[column][column]
            for k in range(column, size + 1):
                augmented[row][k] -= factor * augmented[column][k]
    solution = [0.0] * size
    for row in range(size - 1, -1, -1):
        known = sum(augmented[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (augmented[row][size] - known) / augmented[row][row]
    return solution


def worst_logit(model: ClaimModel | LearntModel, claims: list[list[float]]) -> float:
    if not claims:
        return NO_CLAIM_LOGIT
    logit = model.claim_logit if isinstance(model, LearntModel) else model.logit
    return max(logit(values) for values in claims)


def best_threshold(probabilities: Sequence[float], labels: Sequence[bool]) -> float:
    """The cut on answer probability with the highest balanced accuracy (ties: the one nearest 0.5)."""
    candidates = sorted(set(probabilities))
    cuts = [(a + b) / 2 for a, b in itertools.pairwise(candidates)] or [0.5]
    return max(
        cuts, key=lambda cut: (balanced_accuracy(labels, [p >= cut for p in probabilities]), -abs(cut - 0.5))
    )


def balanced_accuracy(labels: Sequence[bool], predicted: Sequence[bool]) -> float:
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return math.nan
    hits = sum(p and t for p, t in zip(predicted, labels, strict=True))
    rejections = sum(not p and not t for p, t in zip(predicted, labels, strict=True))
    return (hits / positives + rejections / negatives) / 2


def fold_of(group: str, folds: int, split: int = 0) -> int:
    """A question's fold: fixed by the SHA-256 of its key, so a rerun splits the same way.

    ``split`` 0 is the partition the shipped model's figures come from; each other split partitions the same
    questions anew (the key ``s<split>:<question>``). One partition's figure moves by about 0.01 with the
    luck of which questions share a fold, so a choice between variants is made on other splits than the
    one whose figure is then reported.
    """
    key = group if split == 0 else f"s{split}:{group}"
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") % folds


@dataclass(frozen=True)
class TrainedJudge:
    claims: ClaimModel
    slope: float
    intercept: float
    threshold: float

    def probability(self, claims: list[list[float]]) -> float:
        return sigmoid(self.intercept + self.slope * worst_logit(self.claims, claims))


def read_corrupted(read: Sequence[ReadAnswer]) -> list[ReadAnswer]:
    """Corrupted copies of the supported sentences of ``read``'s answers, read by the judge (once: a copy
    keeps its answer's group, so each fold picks those of its own training questions)."""
    return read_labelled(corrupted([answer.answer for answer in read]))


def train(
    read: Sequence[ReadAnswer],
    calibration: Sequence[tuple[float, bool]] | None = None,
    made: Sequence[ReadAnswer] = (),
    calibrate_on: frozenset[str] | None = None,
) -> TrainedJudge:
    """Fit the claim model on every labelled claim of ``read`` and of ``made`` (corrupted copies, see
    :func:`read_corrupted`), then the answer calibration and threshold on ``calibration`` (out-of-fold worst
    logits with labels) or, without it, on ``read``'s answers of the tasks in ``calibrate_on`` (all tasks
    when None): claims are learnt from every data set, the answer threshold from those like the traffic."""
    rows, labels = _labelled_claims(read)
    weights = [1.0] * len(rows)
    if made:
        made_rows, made_labels = _labelled_claims(made)
        # Made-up errors weigh, all together, CORRUPTION_SHARE of the real unsupported claims.
        made_positives = sum(made_labels) or 1
        weight = CORRUPTION_SHARE * sum(labels) / made_positives
        rows, labels = rows + made_rows, labels + made_labels
        weights += [weight] * len(made_rows)
    claims = fit_claims(rows, labels, weights)
    pairs = (
        list(calibration)
        if calibration is not None
        else [
            (worst_logit(claims, answer.claims), answer.answer.hallucinated)
            for answer in read
            if calibrate_on is None or answer.answer.task in calibrate_on
        ]
    )
    slope, intercept = fit_platt([score for score, _ in pairs], [label for _, label in pairs])
    probabilities = [sigmoid(intercept + slope * score) for score, _ in pairs]
    threshold = best_threshold(probabilities, [label for _, label in pairs])
    return TrainedJudge(claims, slope, intercept, threshold)


def _labelled_claims(read: Sequence[ReadAnswer]) -> tuple[list[list[float]], list[bool]]:
    pairs = [
        (values, label)
        for answer in read
        for values, label in zip(answer.claims, answer.labels, strict=True)
        if label is not None
    ]
    return [values for values, _ in pairs], [label for _, label in pairs]


@dataclass(frozen=True)
class OutOfFold:
    """Each answer's out-of-fold probability and worst claim logit (its fold never saw its question)."""

    answers: list[ReadAnswer]
    probabilities: list[float]
    verdicts: list[bool]
    worst_logits: list[float]


def cross_validate(
    read: Sequence[ReadAnswer],
    folds: int,
    made: Sequence[ReadAnswer] = (),
    calibrate_on: frozenset[str] | None = None,
    split: int = 0,
) -> OutOfFold:
    """Grouped k-fold: each fold's answers are judged by a model trained on the other folds' questions, its
    calibration and threshold chosen on those folds too (on their answers of ``calibrate_on``'s tasks);
    ``split`` picks the partition of the questions into folds (:func:`fold_of`)."""
    if folds < 2:
        raise ValueError("cross-validation needs at least 2 folds")
    assignment = [fold_of(answer.answer.group, folds, split) for answer in read]
    probabilities = [0.0] * len(read)
    verdicts = [False] * len(read)
    logits = [0.0] * len(read)
    for fold in range(folds):
        training = [answer for answer, f in zip(read, assignment, strict=True) if f != fold]
        groups = {answer.answer.group for answer in training}
        trained = train(
            training,
            made=[answer for answer in made if answer.answer.group in groups],
            calibrate_on=calibrate_on,
        )
        for position, (answer, f) in enumerate(zip(read, assignment, strict=True)):
            if f == fold:
                logits[position] = worst_logit(trained.claims, answer.claims)
                probabilities[position] = sigmoid(trained.intercept + trained.slope * logits[position])
                verdicts[position] = probabilities[position] >= trained.threshold
    return OutOfFold(list(read), probabilities, verdicts, logits)
