"""``cog-tasks coglm report`` and ``cog-tasks coglm score``."""

import json
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.metrics import AGE_MAPPING

TWO = ["True", "False"]
FOUR = ["the red box", "the box", "a green ball", "nothing"]


def _task_row(accuracy: float, calibrated: float) -> dict:
    # Tasks version 2.0: the authors' rule and its calibrated accuracy, with the companion.
    return {
        "acc_authors,none": accuracy,
        "calibrated_acc_authors,none": calibrated,
        "calibrated_acc_per_item,none": calibrated,
    }


def _write_results(folder: Path, model: str, calibrated: dict[str, float], **extra) -> Path:
    """A results file shaped like lm-eval 0.4's, with only the fields the report reads."""
    results = {f"coglm_{code}": _task_row(0.5, value) for code, value in calibrated.items()}
    data = {
        "results": results,
        "n-samples": {f"coglm_{code}": {"original": 9, "effective": 4} for code in calibrated},
        "config": {"model": "hf", "model_args": {"pretrained": model}, "limit": None},
        "model_name": model,
        "date": 1.0,
        **extra,
    }
    path = folder / Path(model).name / "results_2026-01-01T00-00-00.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_report_prints_abilities_stages_overall_and_age(tmp_path: Path, capsys) -> None:
    scores = {a.code: 0.1 * a.stage for a in ABILITIES}  # stage s scores s/10
    _write_results(tmp_path, "/models/tiny-lm", scores)
    # lm-eval's dummy model has no model_args: the backend name labels it.
    dummy_config = {"model": "dummy", "model_args": {}, "limit": None}
    _write_results(tmp_path, "x1y2z3", {a.code: 0.0 for a in ABILITIES}, config=dummy_config)

    assert main(["coglm", "report", str(tmp_path), "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert set(reports) == {"tiny-lm", "dummy"}
    tiny = reports["tiny-lm"]
    assert tiny["stages"] == {str(s): pytest.approx(s / 10) for s in (1, 2, 3, 4)}
    assert tiny["overall"] == pytest.approx(sum(scores.values()) / 10)
    expected_age = AGE_MAPPING({s: s / 10 for s in (1, 2, 3, 4)})
    assert tiny["cognitive_age"] == pytest.approx(expected_age)
    assert tiny["abilities"]["plan"] == {
        "n": 4,
        "accuracy": 0.5,
        "calibrated_accuracy": pytest.approx(0.4),
        "calibrated_accuracy_per_item": pytest.approx(0.4),
        "invalid": 0,
    }
    # Without samples files there are no per-item scores, hence no interval keys.
    assert "overall_ci" not in tiny
    assert reports["dummy"]["cognitive_age"] == pytest.approx(AGE_MAPPING.intercept)

    assert main(["coglm", "report", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "CogLM report: tiny-lm" in text
    assert f"{expected_age:.1f} years" in text
    assert (tmp_path / "coglm_report.png").read_bytes()[:4] == b"\x89PNG"


def test_report_keeps_every_run_of_a_model_and_flags_limits(tmp_path: Path, capsys) -> None:
    old = _write_results(tmp_path, "m", {"const": 0.9})
    old.rename(old.with_name("results_2025-01-01T00-00-00.json"))
    limited = {"model": "hf", "model_args": "pretrained=m,dtype=auto", "limit": 4}
    _write_results(tmp_path, "m", {"const": 0.2}, date=2.0, config=limited)
    chart = tmp_path / "elsewhere" / "chart.png"
    assert main(["coglm", "report", str(tmp_path), "--out", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "PARTIAL RUN (lm-eval --limit 4)" in text
    assert "n/a (needs all four stages)" in text
    # Two runs of one model: two rows, labelled by what differs, none dropped.
    assert "20.0" in text and "90.0" in text
    assert "CogLM report: m model_args=pretrained=m,dtype=auto limit=4" in text
    assert chart.is_file()


def test_report_errors_are_one_clear_line(tmp_path: Path, capsys) -> None:
    assert main(["coglm", "report", str(tmp_path)]) == 2
    assert "no lm-eval results_*.json" in capsys.readouterr().err

    path = _write_results(tmp_path, "m", {"const": 0.5})
    data = json.loads(path.read_text())
    del data["results"]["coglm_const"]["calibrated_acc_authors,none"]
    path.write_text(json.dumps(data))
    assert main(["coglm", "report", str(path)]) == 2
    assert "task coglm_const has no 'calibrated_acc_authors,none'" in capsys.readouterr().err

    data["results"] = {"arc_easy": {"acc,none": 0.5}}
    path.write_text(json.dumps(data))
    assert main(["coglm", "report", str(path)]) == 2
    assert "no results file contains coglm or coglm_gen tasks" in capsys.readouterr().err


def _write_predictions(path: Path, rows: list) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


def test_score_json_schema_and_invalid_answers(tmp_path: Path, capsys) -> None:
    rows = [
        {"ability": "const", "choices": TWO, "answer": 0, "prediction": 0},
        {"ability": "const", "choices": TWO, "answer": 0, "prediction": "B"},
        {"ability": "early", "choices": FOUR, "answer": 1, "prediction": "The answer is option B"},
        {"ability": "early", "choices": FOUR, "answer": 2, "prediction": "A: \\boxed{C}"},
        {"ability": "early", "choices": FOUR, "answer": 0, "prediction": "no idea"},
        {"ability": "early", "choices": FOUR, "answer": 3, "prediction": None},
    ]
    path = _write_predictions(tmp_path / "predictions.jsonl", rows)
    assert main(["coglm", "score", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"abilities", "stages", "overall", "cognitive_age"} | {
        "stages_ci",
        "overall_ci",
        "cognitive_age_ci",
    }
    assert summary["cognitive_age_ci"] is None  # two abilities: no age, no age interval
    low, high = summary["abilities"]["early"]["calibrated_accuracy_ci"]
    assert low <= summary["abilities"]["early"]["calibrated_accuracy"] <= high
    const, early = summary["abilities"]["const"], summary["abilities"]["early"]
    assert {k: const[k] for k in ("n", "accuracy", "calibrated_accuracy", "invalid")} == {
        "n": 2,
        "accuracy": 0.5,
        "calibrated_accuracy": 0.0,
        "invalid": 0,
    }
    # early: 2 of 4 right (B, boxed C), 2 invalid counted as wrong; chance 1/4
    assert early["n"] == 4 and early["invalid"] == 2 and early["accuracy"] == 0.5
    assert early["calibrated_accuracy"] == pytest.approx((0.5 - 0.25) / 0.75)
    assert summary["stages"] == {"1": pytest.approx((0.0 + 1 / 3) / 2)}
    assert summary["cognitive_age"] is None

    assert main(["coglm", "score", str(path)]) == 0
    text = capsys.readouterr().out
    assert "early" in text and "n/a (needs all four stages)" in text


def test_score_gives_an_age_when_all_stages_are_present(tmp_path: Path, capsys) -> None:
    rows = [
        {"ability": a.code, "choices": TWO, "answer": 1, "prediction": "False"} for a in ABILITIES
    ]
    path = _write_predictions(tmp_path / "all.jsonl", rows)
    assert main(["coglm", "score", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["overall"] == pytest.approx(1.0)
    assert summary["cognitive_age"] == pytest.approx(AGE_MAPPING({1: 1, 2: 1, 3: 1, 4: 1}))


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("{not json", "invalid JSON"),
        ('["a list"]', "expected a JSON object"),
        ('{"ability": "const", "choices": ["a", "b"], "answer": 0}', "missing field(s)"),
        ('{"ability": "memory", "choices": ["a", "b"], "answer": 0, "prediction": 0}', "unknown"),
        ('{"ability": "const", "choices": ["a"], "answer": 0, "prediction": 0}', "at least 2"),
        ('{"ability": "const", "choices": ["a", "b"], "answer": 2, "prediction": 0}', "out of"),
        ('{"ability": "const", "choices": ["a", "b"], "answer": "A", "prediction": 0}', "integer"),
    ],
)
def test_score_names_the_line_of_a_malformed_row(
    tmp_path: Path, capsys, bad_line: str, message: str
) -> None:
    good = {"ability": "const", "choices": TWO, "answer": 0, "prediction": 0}
    path = _write_predictions(tmp_path / "p.jsonl", [good, "", bad_line])
    assert main(["coglm", "score", str(path)]) == 2
    error = capsys.readouterr().err
    assert f"{path}:3:" in error and message in error


def test_score_rejects_an_empty_or_missing_file(tmp_path: Path, capsys) -> None:
    empty = _write_predictions(tmp_path / "empty.jsonl", [""])
    assert main(["coglm", "score", str(empty)]) == 2
    assert "no predictions" in capsys.readouterr().err
    assert main(["coglm", "score", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
