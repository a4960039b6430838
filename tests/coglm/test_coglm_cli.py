"""``cog-tasks coglm report`` and ``cog-tasks coglm score``."""

import json
import re
from pathlib import Path

import pytest
from coglm_lm_eval_files import write_lm_eval_run

from cog_tasks.cli import main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.metrics import AGE_MAPPING

TWO = ["True", "False"]
FOUR = ["the red box", "the box", "a green ball", "nothing"]


def test_report_prints_abilities_stages_overall_and_age(tmp_path: Path, capsys) -> None:
    # Every ability: 3 of 4 two-option items right, calibrated 0.5; the dummy: 2 of 4, 0.0.
    write_lm_eval_run(tmp_path / "tiny-lm", {a.code: [True, True, True, False] for a in ABILITIES})
    dummy_config = {"model": "dummy", "model_args": {}, "limit": None}
    write_lm_eval_run(
        tmp_path / "dummy",
        {a.code: [True, False, True, False] for a in ABILITIES},
        config=dummy_config,
    )

    assert main(["coglm", "report", str(tmp_path), "--json", "--out", str(tmp_path / "c.png")]) == 0
    reports = json.loads(capsys.readouterr().out)
    # lm-eval's dummy model has no model_args: the backend name labels it.
    assert set(reports) == {"tiny", "dummy"}
    tiny = reports["tiny"]
    assert tiny["stages"] == {str(s): pytest.approx(0.5) for s in (1, 2, 3, 4)}
    assert tiny["overall"] == pytest.approx(0.5)
    assert tiny["cognitive_age"] == pytest.approx(AGE_MAPPING({s: 0.5 for s in (1, 2, 3, 4)}))
    plan = tiny["abilities"]["plan"]
    assert {k: plan[k] for k in ("n", "accuracy", "calibrated_accuracy", "invalid")} == {
        "n": 4,
        "accuracy": 0.75,
        "calibrated_accuracy": pytest.approx(0.5),
        "invalid": 0,
    }
    low, high = tiny["overall_ci"]
    assert low < 0.5 < high
    assert reports["dummy"]["overall"] == pytest.approx(0.0)

    # The chart exists now: written over only with --force.
    assert main(["coglm", "report", str(tmp_path), "--out", str(tmp_path / "c.png")]) == 2
    assert "c.png: already exists; pass --force" in capsys.readouterr().err
    assert (
        main(["coglm", "report", str(tmp_path), "--out", str(tmp_path / "c.png"), "--force"]) == 0
    )
    text = capsys.readouterr().out
    assert "CogLM report: tiny" in text
    # 4 of each ability's items: partial against the 1,220 declared, said on the run.
    assert "PARTIAL: 1180 of 1220 items missing" in text
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_report_keeps_every_run_of_a_model_and_flags_limits(tmp_path: Path, capsys) -> None:
    write_lm_eval_run(tmp_path / "m", {"const": [True] * 5}, model="m", stamp="2025", date=1.0)
    limited = {"model": "hf", "model_args": "pretrained=m,dtype=auto", "limit": 4}
    write_lm_eval_run(
        tmp_path / "m", {"const": [True, False, False, False]}, config=limited, date=2.0
    )
    chart = tmp_path / "elsewhere" / "chart.png"
    assert main(["coglm", "report", str(tmp_path), "--out", str(chart)]) == 0
    text = capsys.readouterr().out
    # Each partial run is flagged once, by its coverage line.
    assert text.count("PARTIAL: ") == 2 and "PARTIAL RUN" not in text
    assert "no record for early, semio" in text
    assert "n/a (needs all four stages)" in text
    # Two runs of one model: two rows, labelled by what differs, none dropped.
    assert "100.0" in text and "-50.0" in text
    # Fewer documents scored: the data's hash differs too.
    limited_label = (
        r"CogLM report: m data_sha256=[0-9a-f]{12} model_args=pretrained=m,dtype=auto limit=4"
    )
    assert re.search(limited_label, text)
    assert chart.is_file()


def test_report_names_a_missing_samples_file_and_refuses_a_short_one(
    tmp_path: Path, capsys
) -> None:
    outcomes = {"const": [True, True], "early": [True, False], "semio": [False, False]}
    results = write_lm_eval_run(tmp_path / "m", outcomes, without_samples=("early",))
    assert main(["coglm", "report", str(tmp_path), "--json", "--out", str(tmp_path / "c.png")]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)["tiny"]
    # The stage is not averaged silently over what is left: the ability is named missing.
    assert set(report["abilities"]) == {"const", "semio"}
    assert "early" in report["coverage"]["missing_groups"]
    samples = results.parent / f"samples_coglm_semio_{results.stem.removeprefix('results_')}.jsonl"
    samples.write_text(samples.read_text().splitlines()[0] + "\n")
    assert main(["coglm", "report", str(tmp_path)]) == 2
    assert "1 documents, but results_" in capsys.readouterr().err


def test_report_errors_are_one_clear_line(tmp_path: Path, capsys) -> None:
    assert main(["coglm", "report", str(tmp_path)]) == 2
    assert "no lm-eval results_*.json" in capsys.readouterr().err

    path = write_lm_eval_run(tmp_path / "m", {"const": [True]}, without_samples=("const",))
    assert main(["coglm", "report", str(path)]) == 2
    assert "no samples_coglm_*.jsonl beside it (run lm-eval with --log_samples" in (
        capsys.readouterr().err
    )

    data = json.loads(path.read_text())
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
        "cognitive_age_flag",
        "cognitive_age_fitted_range",
        "cognitive_age_ci_covers",
        "coverage",
        "ci_reasons",
    }
    # Each missing interval keeps the statistics entry's reason, for every view to print.
    assert (
        summary["ci_reasons"]["early"] == "4 items" and summary["ci_reasons"]["const"] == "2 items"
    )
    # Rows without ids: the file's own six items, none missing, two unreadable.
    assert summary["coverage"] | {"missing_groups": []} == {
        "units": 6,
        "declared": 6,
        "missing": 0,
        "missing_groups": [],
        "epochs": 1,
        "uneven": 0,
        "records": 6,
        "data": "unverified (not recorded)",  # a bare score file records no data check
        "weights": None,
        "invalid": 2,
        "error": 0,
        "truncated": 0,
        "judge_invalid": 0,
    }
    assert summary["cognitive_age_ci"] is None  # two abilities: no age, no age interval
    # two items of an ability: no interval (below 10 units), never a point
    assert summary["abilities"]["early"]["calibrated_accuracy_ci"] == [None, None]
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
