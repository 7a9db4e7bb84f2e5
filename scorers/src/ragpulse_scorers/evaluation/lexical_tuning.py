"""Choosing the lexical judge's weights and threshold by grid search on labelled responses.

``python -m ragpulse_scorers.evaluation.lexical_tuning --data ragtruth_qa_dev.jsonl --split tune`` prints the
parameters that maximise balanced accuracy on the chosen split (ties go to the larger AUROC, then to the
grid's first point). The evidence for each claim is gathered once; only the cheap weighting is repeated per
grid point.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ragpulse_judge.rules import ClaimEvidence, ContextIndex, LexicalParams, gather_evidence
from ragpulse_judge.text import text_segments
from ragpulse_judge.tokens import sentence_features

from ragpulse_scorers.evaluation.datasets import Split, SupportExample, load_support_dataset
from ragpulse_scorers.evaluation.metrics import Confusion, auroc

WEIGHTS = tuple(round(0.1 * i, 1) for i in range(11))
PENALTIES = tuple(round(0.1 * i, 1) for i in range(3, 11))
THRESHOLDS = tuple(round(0.01 * i, 2) for i in range(30, 91))


@dataclass(frozen=True)
class TuningResult:
    params: LexicalParams
    balanced_accuracy: float
    auroc: float


def claim_evidence(example: SupportExample) -> list[ClaimEvidence]:
    """The evidence of every real claim of a response (hedges and questions carry none)."""
    index = ContextIndex.build(example.question, example.context)
    question = sentence_features(example.question)
    gathered = (gather_evidence(sentence, index, question) for sentence in text_segments(example.response))
    return [evidence for evidence in gathered if isinstance(evidence, ClaimEvidence)]


def grid_search(examples: Sequence[SupportExample]) -> TuningResult:
    evidence = [claim_evidence(example) for example in examples]
    truth = [example.hallucinated for example in examples]
    best: TuningResult | None = None
    for weight, numbers, names in itertools.product(WEIGHTS, PENALTIES, PENALTIES):
        params = LexicalParams(weight, numbers, names)
        support = [min((params.score(claim) for claim in claims), default=1.0) for claims in evidence]
        area = auroc(truth, [1 - s for s in support]) or 0.0
        for threshold in THRESHOLDS:
            accuracy = Confusion.of(truth, [s < threshold for s in support]).balanced_accuracy or 0.0
            if best is None or (accuracy, area) > (best.balanced_accuracy, best.auroc):
                best = TuningResult(LexicalParams(weight, numbers, names, threshold), accuracy, area)
    if best is None:
        raise ValueError("nothing to tune on")
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--split", type=Split, choices=list(Split), default=Split.TUNE)
    args = parser.parse_args(argv)
    result = grid_search(load_support_dataset(args.data, args.split).examples)
    print(f"{result.params}\nbalanced accuracy {result.balanced_accuracy:.4f}, AUROC {result.auroc:.4f}")


if __name__ == "__main__":
    main()
