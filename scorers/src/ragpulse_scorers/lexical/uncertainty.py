"""How unsure the lexical judge is of a request: the calibrated chance that its verdict is wrong.

The learnt judge (scorer version ``4-...``) writes a calibrated probability: its support score is the chance
the answer is supported, so the chance its verdict is wrong is read off directly
(:func:`free_verdict_uncertainty`). The rules (version 3 and before) give a score, calibrated here:

The rules' verdict is "hallucinated" when the support score (the weakest claim's score) is below the
threshold. People's labels turn from "hallucinated" to "grounded" smoothly around it, so the chance that the
request is hallucinated is modelled as a logistic curve in the margin to the threshold,

    p = 1 / (1 + exp(-(INTERCEPT + SLOPE * (threshold - support_score))))

and the uncertainty is the chance the verdict is wrong: ``p`` for a "grounded" verdict, ``1 - p`` for a
"hallucinated" one. It is largest near the threshold and small far from it on either side, and it is a
probability, so "twice as uncertain" means twice as likely to be a free-judge error.

How ``INTERCEPT`` and ``SLOPE`` were chosen (reproduce with ``python benchmarks/bench_directed_sampling.py
--fit``): maximum likelihood on a grid (intercept by 0.25, slope by 0.5) on the *tune* half of
``ragtruth_qa_dev.jsonl`` (152 responses), the half the judge's own parameters came from. A second term for
split sentence verdicts (the share of claims below the threshold) was tried as well: it raised the tune
likelihood (-57.3 against -63.1) and lowered the held-out one (-91.9 against -90.7), so it is not used;
a response's split verdicts already show in its weakest claim, the one that decides.
"""

from __future__ import annotations

import math

INTERCEPT = -0.25
SLOPE = 6.5
# Never certain: every request keeps a positive chance of being directed to, and of being a judge error.
MIN_PROBABILITY = 0.001


def hallucination_probability(support_score: float, threshold: float) -> float:
    """The calibrated chance that a request with this support score is hallucinated."""
    logit = INTERCEPT + SLOPE * (threshold - support_score)
    probability = 1.0 / (1.0 + math.exp(-logit))
    return min(max(probability, MIN_PROBABILITY), 1.0 - MIN_PROBABILITY)


def verdict_uncertainty(support_score: float, threshold: float) -> float:
    """The chance that the judge's verdict on this request is wrong, in (0, 1)."""
    if not math.isfinite(support_score):
        raise ValueError(f"support score must be a finite number, got {support_score}")
    probability = hallucination_probability(support_score, threshold)
    return 1.0 - probability if support_score < threshold else probability


def learnt_verdict_uncertainty(support_score: float, threshold: float) -> float:
    """The chance the learnt judge's verdict is wrong: its support score is 1 - P(hallucinated), and it
    says "hallucinated" where that probability reaches the model's ``threshold``."""
    if not math.isfinite(support_score):
        raise ValueError(f"support score must be a finite number, got {support_score}")
    probability = min(max(1.0 - support_score, MIN_PROBABILITY), 1.0 - MIN_PROBABILITY)
    return 1.0 - probability if probability >= threshold else probability


def free_verdict_uncertainty(support_score: float, version: str) -> float:
    """The chance the free judge's verdict is wrong, read as the judge ``version`` that gave the score."""
    # Imported here: a builtin judge's code loads only once something names it (tests/scorers/test_registry).
    from ragpulse_judge import default_judge
    from ragpulse_judge.rules import LexicalParams

    if _is_learnt(version):
        return learnt_verdict_uncertainty(support_score, default_judge().model.threshold)
    return verdict_uncertainty(support_score, LexicalParams().threshold)


def decision_support(version: str) -> float:
    """The support score where the verdict of the free judge ``version`` turns: the rules' threshold, or for
    the learnt judge (whose support is 1 - its calibrated chance of a hallucination) 1 - its model's."""
    from ragpulse_judge import default_judge
    from ragpulse_judge.rules import LexicalParams

    if _is_learnt(version):
        return 1.0 - default_judge().model.threshold
    return LexicalParams().threshold


def _is_learnt(version: str) -> bool:
    from ragpulse_judge.free import LEARNT_VERSION

    return version.startswith(f"{LEARNT_VERSION}-")
