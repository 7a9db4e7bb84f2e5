"""``ragpulse eval support`` end to end on small files, bad input, and the real dev file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ragpulse_core.cli import main
from ragpulse_scorers.evaluation.datasets import (
    DatasetError,
    Split,
    in_split,
    load_support_dataset,
    split_passages,
)

CONTEXT = (
    "passage 1:The museum is open on Mondays. Admission is $5.\n\npassage 2:Parking is free on weekends.\n\n"
)


def row(source_id: int, question: str, response: str, hallucinated: int) -> dict[str, Any]:
    return {"source_id": source_id, "question": question, "context": CONTEXT, "response": response,
            "hallucinated": hallucinated}  # fmt: skip


ROWS = [
    row(1, "When?", "It is open on Mondays.", 0),
    row(1, "When?", "Admission is $9.", 1),
    row(2, "Cost?", "Admission is $5.", 0),
    row(2, "Cost?", "Tours run hourly by Zeiss staff.", 1),
]


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["eval", "support", *args, "--json"]) == 0
    out = capsys.readouterr().out
    result: dict[str, Any] = json.loads(out)
    return result


def test_json_output_has_the_metrics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "--data", str(write_jsonl(tmp_path / "d.jsonl", ROWS)), "--judge", "lexical")
    assert {"n", "balanced_accuracy", "precision", "recall", "f1", "auroc"} <= set(result)
    assert result["n"] == 4
    assert result["balanced_accuracy"] == 1.0
    assert result["auroc"] == 1.0


def test_limit_and_table_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    assert run_json(capsys, "--data", str(data), "--limit", "2")["n"] == 2
    assert main(["eval", "support", "--data", str(data)]) == 0
    table = capsys.readouterr().out
    assert "balanced acc." in table and "AUROC" in table


def test_lfqa_format_reports_sentence_agreement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {
        "question_id": 7,
        "question": "When is the museum open?",
        "context": "[1] Museum (example.org)\nThe museum is open on Mondays.\n\n[2] Parking\nIt is free.",
        "answer": "The museum is open on Mondays. It serves 40 kinds of Belgian waffles.",
        "sentences": [
            {"sentence": "The museum is open on Mondays.", "majority_label": "supported"},
            {"sentence": "It serves 40 kinds of Belgian waffles.", "majority_label": "not_supported"},
            {"sentence": "Undecided.", "majority_label": "tie"},
        ],
        "all_sentences_supported": 0,
    }
    result = run_json(capsys, "--data", str(write_jsonl(tmp_path / "lfqa.jsonl", [row])))
    assert result["format"] == "lfqa"
    assert result["n"] == 1 and result["recall"] == 1.0
    sentences = result["sentences"]
    assert {key: sentences[key] for key in ("n", "balanced_accuracy", "accuracy", "f1")} == {
        "n": 2, "balanced_accuracy": 1.0, "accuracy": 1.0, "f1": 1.0,
    }  # fmt: skip
    assert sentences["coverage"] == {"judged": 2, "total": 2}
    # Each sentence is listed with the human label, the judge's verdict and its reason.
    assert [(item["label"], item["verdict"]) for item in sentences["items"]] == [(False, False), (True, True)]
    assert all(item["reasoning"] for item in sentences["items"])


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([ROWS[0], "{not json"], r"d.jsonl:2: invalid JSON"),
        (
            [ROWS[0], {"question": "q", "context": "c", "response": "r"}],
            r"d.jsonl:2: missing field 'hallucinated'",
        ),
        ([ROWS[0], {**ROWS[0], "hallucinated": "yes"}], r"d.jsonl:2: field 'hallucinated' must be 0/1"),
        ([ROWS[0], "[1, 2]"], r"d.jsonl:2: expected a JSON object"),
        ([{"text": "x"}], r"d.jsonl:1: neither a 'response'"),
        ([], "no rows"),
    ],
)
def test_bad_input_names_the_line(tmp_path: Path, lines: list[Any], message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        load_support_dataset(write_jsonl(tmp_path / "d.jsonl", lines))


def test_bad_input_is_a_clear_cli_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_jsonl(tmp_path / "d.jsonl", [ROWS[0], "{oops"])
    assert main(["eval", "support", "--data", str(data), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "d.jsonl:2" in captured.err
    assert main(["eval", "support", "--data", str(tmp_path / "absent.jsonl")]) == 2


def test_passages_are_split_at_their_markers() -> None:
    assert split_passages(CONTEXT) == [
        "The museum is open on Mondays. Admission is $5.",
        "Parking is free on weekends.",
    ]
    assert split_passages("no markers here") == ["no markers here"]


def test_split_is_by_question_and_halves_partition_the_questions() -> None:
    groups = [str(i) for i in range(200)]
    tune = {g for g in groups if in_split(g, Split.TUNE)}
    holdout = {g for g in groups if in_split(g, Split.HOLDOUT)}
    assert tune.isdisjoint(holdout) and tune | holdout == set(groups)
    assert 60 < len(tune) < 140


def test_holdout_half_of_the_dev_file_meets_the_goal(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = shared_data / "ragtruth_qa_dev.jsonl"
    holdout = run_json(capsys, "--data", str(data), "--split", "holdout")
    tune = run_json(capsys, "--data", str(data), "--split", "tune")
    assert holdout["n"] + tune["n"] == 356
    assert holdout["balanced_accuracy"] >= 0.72
    assert holdout["auroc"] >= 0.75


def test_one_class_gets_no_balanced_accuracy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the table on one line per row
    grounded = write_jsonl(tmp_path / "d.jsonl", [r for r in ROWS if not r["hallucinated"]])
    assert run_json(capsys, "--data", str(grounded))["balanced_accuracy"] is None
    assert main(["eval", "support", "--data", str(grounded)]) == 0
    table = capsys.readouterr().out
    assert (
        "undefined (needs both labels)" in table and "1.000" not in table.split("response")[1].split("│")[3]
    )


def test_folds_cross_validate_the_learnt_judge_by_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    responses = [
        ("It is open on Mondays.", 0),
        ("Admission is $5.", 0),
        ("Tours run hourly by Zeiss staff.", 1),
        ("It opens at 3 am daily.", 1),
    ]
    rows = [row(q, "When?", response, hallucinated) for q in range(6) for response, hallucinated in responses]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    assert main(["eval", "support", "--data", str(data), "--judge", "learnt", "--folds", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    learnt, rules = result.values()
    assert learnt["n"] == rules["n"] == 24 and learnt["positives"] == 12
    assert 0.0 <= learnt["low"] <= learnt["balanced_accuracy"] <= learnt["high"] <= 1.0
    assert main(["eval", "support", "--data", str(data), "--folds", "3"]) != 0
    assert "use it with --judge learnt" in capsys.readouterr().err
    assert main(["eval", "support", "--data", str(data), "--judge", "learnt", "--folds", "7"]) != 0
    assert "at least as many questions" in capsys.readouterr().err
