"""Training: claim labels from people's spans, grouped folds, a model file reproduced byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ragpulse_judge.features import FEATURE_NAMES, read_answer
from ragpulse_judge.model import MODEL_FILE, sigmoid
from ragpulse_judge.training.__main__ import main
from ragpulse_judge.training.data import LabelledAnswer, load_ragtruth_release
from ragpulse_judge.training.fit import ReadAnswer, claim_labels, fold_of, train, worst_logit

SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SHIPPED = Path(__file__).resolve().parents[2] / "judge" / "src" / "ragpulse_judge" / MODEL_FILE
RAGTRUTH_TRAIN = Path(__file__).resolve().parents[2] / "judge" / "training-data" / "ragtruth_qa_train.jsonl"


def answer(text: str, spans: tuple[tuple[int, int], ...]) -> LabelledAnswer:
    return LabelledAnswer(
        "q1", "QA", "How tall?", ["The tower is 330 metres tall."], text, bool(spans), spans
    )


def test_a_span_marks_the_clause_it_falls_in_not_the_rest_of_the_sentence() -> None:
    text = "The tower is 330 metres tall, and it was painted red by a famous Spanish artist."
    labelled = answer(text, ((text.index("painted"), text.index("artist")),))
    assert claim_labels(labelled, read_answer(labelled.question, labelled.context, text)) == [False, True]


def test_a_span_inside_a_parenthesis_marks_only_the_aside() -> None:
    text = "The tower (painted red by a famous Spanish artist) is 330 metres tall."
    labelled = answer(text, ((text.index("famous"), text.index("artist") + 6),))
    labels = claim_labels(labelled, read_answer(labelled.question, labelled.context, text))
    assert labels == [False, True]


def test_folds_keep_a_question_together_and_do_not_depend_on_the_order() -> None:
    assert fold_of("question 17", 5) == fold_of("question 17", 5)
    assert {fold_of(f"q{i}", 5) for i in range(200)} == set(range(5))


def test_another_split_partitions_the_same_questions_anew() -> None:
    questions = [f"q{i}" for i in range(200)]
    first = [fold_of(q, 5) for q in questions]
    assert first == [fold_of(q, 5, split=0) for q in questions], "split 0 is the reported partition"
    second = [fold_of(q, 5, split=1) for q in questions]
    assert second == [fold_of(q, 5, split=1) for q in questions]
    assert set(second) == set(range(5))
    together = sum(a == b for a, b in zip(first, second, strict=True))
    assert together < 100, "a new split is not the old one relabelled"


def test_the_script_prints_other_splits_and_their_mean_without_changing_the_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not RAGTRUTH_TRAIN.is_file():
        pytest.skip(f"{RAGTRUTH_TRAIN} not present")
    small = tmp_path / "small.jsonl"
    small.write_text("".join(RAGTRUTH_TRAIN.read_text().splitlines(keepends=True)[:60]))
    alone, with_splits = tmp_path / "alone.json", tmp_path / "splits.json"
    assert main(["--data", str(small), "--folds", "2", "--out", str(alone)]) == 0
    capsys.readouterr()
    assert main(["--data", str(small), "--folds", "2", "--splits", "3", "--out", str(with_splits)]) == 0
    printed = capsys.readouterr().out
    assert "split 1" in printed and "split 2" in printed and "split 3" not in printed
    assert "mean of 3 splits QA" in printed
    assert alone.read_bytes() == with_splits.read_bytes(), "the model comes from split 0 alone"


def test_the_release_reader_keeps_the_train_split_and_drops_sources_the_evaluation_set_shares(
    tmp_path: Path,
) -> None:
    sources = [
        {
            "source_id": "1",
            "task_type": "QA",
            "source_info": {"question": "how tall", "passages": "passage 1:A."},
        },
        {
            "source_id": "2",
            "task_type": "QA",
            "source_info": {"question": "how old", "passages": "passage 1:B."},
        },
        {"source_id": "3", "task_type": "Summary", "source_info": "An article."},
        {"source_id": "4", "task_type": "Data2txt", "source_info": {"name": "Cafe", "hours": {"Mon": "9-5"}}},
    ]
    responses = [
        {"id": "a", "source_id": "1", "split": "train", "response": "It is tall.", "labels": []},
        {
            "id": "b",
            "source_id": "2",
            "split": "train",
            "response": "Old.",
            "labels": [{"start": 0, "end": 3}],
        },
        {"id": "c", "source_id": "3", "split": "test", "response": "Summary.", "labels": []},
        {"id": "d", "source_id": "4", "split": "train", "response": "A cafe.", "labels": []},
    ]
    (tmp_path / "source_info.jsonl").write_text("".join(json.dumps(row) + "\n" for row in sources))
    (tmp_path / "response.jsonl").write_text("".join(json.dumps(row) + "\n" for row in responses))
    evaluation = tmp_path / "dev.jsonl"
    evaluation.write_text(
        json.dumps({"question": "How  Old", "context": "passage 1:Z.", "response": "x"}) + "\n"
    )
    loaded = load_ragtruth_release(tmp_path, evaluation)
    assert [(a.group, a.task) for a in loaded] == [("1", "QA"), ("4", "Data2txt")]
    assert loaded[1].context == ["name: Cafe\nhours Mon: 9-5"]


def _read(task: str, group: str, worst: float, hallucinated: bool) -> ReadAnswer:
    labelled = LabelledAnswer(group, task, "q", ["c"], "a", hallucinated, ((0, 1),) if hallucinated else ())
    return ReadAnswer(labelled, [[worst] + [0.0] * (len(FEATURE_NAMES) - 1)], [hallucinated])


def test_the_answer_threshold_is_chosen_on_the_tasks_named_and_claims_are_learnt_from_all() -> None:
    # Task B's answers score higher than task A's: one cut cannot serve both, so the task named decides it.
    read = [
        _read(task, f"{task}{i}", base + (1.0 if bad else 0.0) + i / 100, bad)
        for task, base in (("A", 0.0), ("B", 2.0))
        for i in range(6)
        for bad in (False, True)
    ]
    for task in ("A", "B"):
        trained = train(read, calibrate_on=frozenset({task}))
        for answer in read:
            logit = worst_logit(trained.claims, answer.claims)
            probability = sigmoid(trained.intercept + trained.slope * logit)
            if answer.answer.task == task:
                assert (probability >= trained.threshold) == answer.answer.hallucinated


def test_calibrating_on_a_task_the_data_lacks_is_refused(tmp_path: Path) -> None:
    if not RAGTRUTH_TRAIN.is_file():
        pytest.skip(f"{RAGTRUTH_TRAIN} not present")
    small = tmp_path / "small.jsonl"
    small.write_text("".join(RAGTRUTH_TRAIN.read_text().splitlines(keepends=True)[:40]))
    out = tmp_path / "m.json"
    assert main(["--data", str(small), "--folds", "2", "--calibrate-on", "Summary", "--out", str(out)]) == 2
    assert not out.exists()


@pytest.mark.slow
def test_the_training_script_reproduces_the_shipped_model_byte_for_byte(tmp_path: Path) -> None:
    if not (SHARED_DATA / "lfqa_sentences.jsonl").is_file():
        pytest.skip(f"{SHARED_DATA} not present: the model's training data")
    out = tmp_path / MODEL_FILE
    args = ["--data", str(SHARED_DATA / "lfqa_sentences.jsonl"), "--data", str(RAGTRUTH_TRAIN)]
    assert main([*args, "--folds", "5", "--calibrate-on", "QA", "--out", str(out)]) == 0
    assert out.read_bytes() == SHIPPED.read_bytes()
