"""The free judge by the name the scorers' config and the guard use, and the version its verdicts carry.

The version names how the judge decides, so a change re-judges recent requests and a verdict can be matched
to the judge that gave it: the rules are version 3; the learnt judge is 4 followed by its model file's hash.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, get_args

from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.rules import LexicalJudge

FreeJudgeName = Literal["rules", "learnt"]
FREE_JUDGE_NAMES: tuple[str, ...] = get_args(FreeJudgeName)
RULES_VERSION = "3"
LEARNT_VERSION = "4"

FreeJudge = LexicalJudge | LearntJudge


def version_of(judge: FreeJudge) -> str:
    return f"{LEARNT_VERSION}-{judge.version}" if isinstance(judge, LearntJudge) else RULES_VERSION


def name_of(judge: FreeJudge) -> FreeJudgeName:
    return "learnt" if isinstance(judge, LearntJudge) else "rules"


@lru_cache(maxsize=len(FREE_JUDGE_NAMES))
def shared_free_judge(name: FreeJudgeName) -> FreeJudge:
    """The judge named ``name`` with its defaults (the shipped model), built once per process."""
    if name == "learnt":
        return LearntJudge()
    if name == "rules":
        return LexicalJudge()
    raise ValueError(f"no free judge named {name!r} (choose from {', '.join(FREE_JUDGE_NAMES)})")
