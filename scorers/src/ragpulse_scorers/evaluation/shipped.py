"""``--data`` of ``ragpulse eval``: a path, or the name of a labelled set that ships with ragpulse.

Only sets whose licence allows passing them on ship (``data/README.md`` says where each comes from); a set
``ragpulse eval`` reads but cannot ship is named with where to get it, instead of a bare "no such file".
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ragpulse_scorers.evaluation.datasets import DatasetError

SHIPPED = ("ragtruth_qa_dev",)
NOT_SHIPPED = {
    "lfqa_sentences": "timchen0618/LFQA-Verification on GitHub",
    "subq_types": "SalesforceAIResearch/answer-engine-eval on GitHub (Xie.et.al.2024)",
    "subq_coverage": "SalesforceAIResearch/answer-engine-eval on GitHub (Xie.et.al.2024)",
}


def shipped_path(name: str) -> Path:
    return Path(str(files("ragpulse_scorers.evaluation") / "data" / f"{name}.jsonl"))


def resolve_data(data: Path) -> Path:
    """The file ``--data`` names: an existing path as given, else a shipped set by its name (with or without
    ``.jsonl``). Raises ``DatasetError`` for a known set that does not ship; any other missing path is left
    for the loader to report."""
    if data.exists() or data.parent != Path("."):
        return data
    name = data.name.removesuffix(".jsonl")
    if name in SHIPPED:
        return shipped_path(name)
    if name in NOT_SHIPPED:
        raise DatasetError(
            f"{name} does not ship with ragpulse (its source states no licence that allows it): get it from"
            f" {NOT_SHIPPED[name]} and pass its path; shipped: {', '.join(SHIPPED)}"
        )
    return data
