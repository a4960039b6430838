"""``cog-tasks coglm report|table5|table7|chance|score --extractor`` on real Inspect logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from coglm_chat_mock import scripted_model
from inspect_ai import eval as inspect_eval

from cog_tasks.cli import main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.metrics import summary_intervals
from cog_tasks.coglm.predictions import predictions_run, read_predictions
from cog_tasks.coglm.report import FITTED_AGES, age_flag, age_text, checked_run, write_chart
from cog_tasks.common.logs import SUCCESS_ONLY, read_logs
from cog_tasks.common.results import check_run

ALWAYS_A = "The answer is option A."


def _run(log_dir: Path, reply: str = ALWAYS_A, **task_args) -> str:
    (log,) = inspect_eval(
        coglm_chat(per_ability=1, **task_args),
        model=scripted_model(lambda prompt, _config: reply),
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return log.location


def test_ages_say_where_the_fitted_range_ends() -> None:
    assert FITTED_AGES == (6.0, 20.0)
    assert age_text(10.04) == "10.0 years"
    assert age_text(10.04, [8.0, 12.0]) == "10.0 years [8.0, 12.0] (95% CI, item sampling only)"
    assert age_text(4.0, [3.1, 4.9]).startswith(
        "below the fitted range (4.0) [3.1, 4.9] (95% CI, item sampling only)"
    )
    assert age_text(-2.26).startswith("below the fitted range (-2.3)")
    assert age_text(23.0).startswith("above the fitted range (23.0)")
    assert age_text(7.0, [5.2, 8.8]).endswith("; interval reaches below the fitted range (6-20)")
    assert age_flag(19.0, [17.0, 21.0]) == "interval reaches above the fitted range"
    assert age_flag(12.0, [5.0, 21.0]) == "interval reaches past both ends of the fitted range"
    assert age_flag(5.96, [5.96, 5.96]) is None  # 6.0 at a tenth of a year
    assert age_text(None) == "n/a (needs all four stages)"


def _guesses(tmp_path: Path, per_ability: int, right: int) -> Path:
    """Predictions for the first items of every ability: the first ``right`` correct, then wrong."""
    lines = []
    for ability in ABILITIES:
        for index in range(per_ability):
            answer = 1 if index % 2 else 0
            prediction = answer if index < right else 1 - answer
            lines.append(
                {
                    "ability": ability.code,
                    "choices": ["x", "y"],
                    "answer": answer,
                    "prediction": prediction,
                }
            )
    path = tmp_path / "predictions.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return path


def test_age_below_the_fitted_range_in_text_json_and_chart(tmp_path: Path, capsys) -> None:
    predictions = _guesses(tmp_path, per_ability=6, right=3)  # at chance everywhere
    assert main(["coglm", "score", str(predictions), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["cognitive_age_flag"] == "below the fitted range"
    assert summary["cognitive_age_fitted_range"] == [6.0, 20.0]
    assert summary["cognitive_age_ci_covers"] == "item sampling only"
    low, high = summary["cognitive_age_ci"]
    assert 0.0 <= low <= high  # bounds never negative
    assert main(["coglm", "score", str(predictions)]) == 0
    assert f"below the fitted range ({summary['cognitive_age']:.1f})" in capsys.readouterr().out

    run = checked_run(
        check_run(
            predictions_run(
                read_predictions(predictions, "ours", "listed"), predictions, "ours", "listed"
            )
        ),
        "chance",
    )
    chart = write_chart([run], tmp_path / "age.png")
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_an_age_below_zero_years_has_no_interval() -> None:
    # mostly wrong on two-option items: the map far below zero, off the age scale
    codes = [a.code for a in ABILITIES for _ in range(3)]
    correct = [float(k % 7 == 0) for k in range(len(codes))]
    intervals = summary_intervals(codes, correct, [2] * len(codes), resamples=50)
    age = intervals.cognitive_age
    assert age is not None and age.value < 0
    assert age.format() == f"{age.value:.3f} [no interval: off the scale]"


@pytest.mark.slow
def test_report_reads_inspect_logs_and_flags_partial_runs(tmp_path: Path, capsys) -> None:
    _run(tmp_path / "logs", reply="I'd rather not say.")  # every answer invalid
    chart = tmp_path / "report.png"
    assert main(["coglm", "report", str(tmp_path / "logs"), "--chart", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "CogLM report: mockllm/model (Base)" in text
    assert "PARTIAL: 1210 of 1220 items missing" in text and text.count("PARTIAL") == 1
    assert "below the fitted range (" in text  # never a bare negative age
    assert chart.read_bytes()[:4] == b"\x89PNG"

    assert main(["coglm", "report", str(tmp_path / "logs"), "--json"]) == 0
    (summary,) = json.loads(capsys.readouterr().out).values()
    const = summary["abilities"]["const"]
    # one item: no interval (below 10 units), never a zero-width one
    assert const.pop("calibrated_accuracy_ci") == [None, None]
    assert const == {
        "n": 1,
        "accuracy": 0.0,
        "calibrated_accuracy": pytest.approx(-1.0),
        "calibrated_accuracy_per_item": pytest.approx(-1.0),
        "invalid": 1,
    }
    assert summary["cognitive_age"] < FITTED_AGES[0]
    assert summary["cognitive_age_flag"] == "below the fitted range"

    assert main(["coglm", "report", str(tmp_path / "empty")]) == 2
    assert "no lm-eval results_*.json" in capsys.readouterr().err


@pytest.mark.slow
def test_table5_rows_by_setting_with_the_paper_below(tmp_path: Path, capsys) -> None:
    _run(tmp_path / "base")
    _run(tmp_path / "cot", cot=True)
    _run(tmp_path / "sc", sc_samples=2, sc_temperature=0.3)
    chart = tmp_path / "t5.png"
    assert main(["coglm", "table5", str(tmp_path), "--chart", str(chart)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [
        line
        for line in lines
        if " - mockllm/model" in line and not line.startswith(("*", " ", "difference"))
    ]
    labels = [line.split(" - ")[0] for line in rows]
    assert labels == ["Base", "w/ COT", "w/ SC T=0.3 n=2"]
    assert any(line.startswith("  w/ SC T=0.7") and line.endswith("63.1") for line in lines)
    assert any(line.startswith("* PARTIAL RUN") for line in lines)
    # Each setting minus Base, paired over the items both answered.
    assert "difference from the Base run of the same model and arguments" in "\n".join(lines)
    differences = [line for line in lines if line.endswith("n=10 items")]
    assert [line.split(" - ")[0] for line in differences] == ["  w/ COT", "  w/ SC T=0.3 n=2"]
    assert all(" vs Base - mockllm/model: " in line for line in differences)
    assert chart.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_table7_with_and_without_chain_of_cognition(tmp_path: Path, capsys) -> None:
    strong = _run(tmp_path / "strong")
    _run(tmp_path / "weak", reply="The answer is option B.")
    _run(tmp_path / "weak", reply="The answer is option B.", coc_log=strong)
    chart = str(tmp_path / "t.png")
    assert main(["coglm", "table7", str(tmp_path / "weak"), "--chart", chart]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [
        line
        for line in lines
        if " - mockllm/model" in line and not line.startswith(("*", " ", "difference"))
    ]
    assert [row.split(" - ")[0] for row in rows] == ["w/o COC", "w/ COC"]
    assert any(line.startswith("  w/ COC") and line.endswith("38.1") for line in lines)


@pytest.mark.slow
def test_table5_pairs_within_each_model_of_a_folder(tmp_path: Path, capsys) -> None:
    """One folder, two models: each setting pairs with its own model's Base, never another's."""
    _run(tmp_path)  # mockllm/model: Base
    _run(tmp_path, cot=True)  # mockllm/model: w/ COT
    chance = ["coglm", "chance", "-T", "per_ability=1", "--log-dir", str(tmp_path)]
    assert main([*chance, "-T", "cot=true"]) == 0  # mockllm/chance: w/ COT, no Base yet
    capsys.readouterr()
    chart = ["--out", str(tmp_path / "t.png")]
    assert main(["coglm", "table5", str(tmp_path), *chart]) == 0
    lines = capsys.readouterr().out.splitlines()
    paired = [line for line in lines if " vs " in line]
    assert len(paired) == 1
    assert paired[0].startswith("  w/ COT - mockllm/model vs Base - mockllm/model: ")
    unpaired = "  w/ COT - mockllm/chance: not paired (no Base run of the same model and arguments)"
    assert unpaired in lines
    # given its own Base, the chance model's COT run pairs with it, still never across models
    assert main(chance) == 0
    capsys.readouterr()
    # a second chart goes to a new file: an existing one is never written over unasked
    assert main(["coglm", "table5", str(tmp_path), "--out", str(tmp_path / "t2.png")]) == 0
    paired = [line for line in capsys.readouterr().out.splitlines() if " vs " in line]
    assert sorted(line.split(": ")[0].strip() for line in paired) == [
        "w/ COT - mockllm/chance vs Base - mockllm/chance",
        "w/ COT - mockllm/model vs Base - mockllm/model",
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("table", "setting"), [("table5", "Base"), ("table7", "w/o COC")])
def test_tables_keep_two_seeds_apart(tmp_path: Path, capsys, table: str, setting: str) -> None:
    """Two runs labelled alike by setting and model get their seed: two rows, never paired.

    Both are Base runs: a seed is not a setting, so neither is a difference from the other.
    """
    for seed in ("1", "2"):
        chance = ["coglm", "chance", "--limit", "2", "--seed", seed, "--log-dir", str(tmp_path)]
        assert main(chance) == 0
    capsys.readouterr()
    assert main(["coglm", table, str(tmp_path), "--out", str(tmp_path / "t.png")]) == 0
    lines = capsys.readouterr().out.splitlines()
    first, second = (f"{setting} - mockllm/chance seed={seed}" for seed in ("1", "2"))
    assert [line.split(" *")[0] for line in lines if line.startswith(setting)] == [first, second]
    assert not any(" vs " in line for line in lines)


@pytest.mark.slow
def test_chance_command_writes_a_log_of_random_letters(tmp_path: Path, capsys) -> None:
    arguments = ["coglm", "chance", "-T", "abilities=plan", "--limit", "12", "--seed", "3"]
    assert main([*arguments, "--log-dir", str(tmp_path)]) == 0
    (log,) = read_logs(tmp_path, tasks={"coglm_chat"}, statuses=SUCCESS_ONLY).logs
    assert log.eval.model == "mockllm/chance" and len(log.samples) == 12
    letters = {sample.scores["coglm_scorer"].answer for sample in log.samples}
    assert len(letters) > 1 and letters <= set("ABCD")
    assert log.results.scores[0].metrics["invalid"].value == 0.0


def test_score_with_the_authors_extractor(tmp_path: Path, capsys) -> None:
    choices = ["a lion", "a zebra", "an eagle", "a tiger"]
    rows = [
        {"ability": "plan", "choices": choices, "answer": 3, "prediction": "Option D is correct."},
        {"ability": "plan", "choices": choices, "answer": 1, "prediction": "\\boxed{B. a zebra}"},
    ]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    results = {}
    for extractor in ("ours", "authors", "authors-gpt"):
        assert main(["coglm", "score", str(path), "--json", "--extractor", extractor]) == 0
        plan = json.loads(capsys.readouterr().out)["abilities"]["plan"]
        results[extractor] = (plan["accuracy"], plan["invalid"])
    assert results == {"ours": (1.0, 0), "authors": (0.5, 1), "authors-gpt": (0.5, 1)}


def test_score_reads_the_authors_raw_output_layout(tmp_path: Path, capsys) -> None:
    choices = ["a lion", "a zebra", "an eagle", "a tiger"]
    replies = [
        ("B", "A: The striped one is \\boxed{B} a zebra."),
        ("D", "A: Option D is correct, tigers are striped."),  # authors: first character "A"
        ("C", "A: The most reasonable inference is:\nC. an eagle"),
    ]
    items = [{"candidates": choices, "answer": a, "predict": p} for a, p in replies]
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"third_stage": {"inductive": items}}))
    accuracy = {}
    for extractor in ("ours", "authors"):
        arguments = ["coglm", "score", str(path), "--format", "authors", "--json"]
        assert main([*arguments, "--extractor", extractor]) == 0
        accuracy[extractor] = json.loads(capsys.readouterr().out)["abilities"]["induc"]["accuracy"]
    assert accuracy == {"ours": 1.0, "authors": pytest.approx(2 / 3)}
    # the authors' replies are read by the authors' rule unless told otherwise
    assert main(["coglm", "score", str(path), "--format", "authors"]) == 0
    assert "(extractor: authors, chance: listed)" in capsys.readouterr().out
    assert main(["coglm", "score", str(path), "--format", "authors", "--json"]) == 0
    assert (
        json.loads(capsys.readouterr().out)["abilities"]["induc"]["accuracy"] == accuracy["authors"]
    )

    path.write_text(json.dumps({"third_stage": {"recall": items}}))
    assert main(["coglm", "score", str(path), "--format", "authors"]) == 2
    assert "third_stage/recall is not a CogLM ability file" in capsys.readouterr().err
