"""CogLM studies: bootstrap intervals, the interdependence matrix, protocol agreement."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from coglm_chat_mock import conversation_model, system_text, user_text
from inspect_ai import eval as inspect_eval

from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.inspect.studies import inspect_picks, run_interdependence
from cog_tasks.coglm.lm_eval.results import lm_eval_picks
from cog_tasks.coglm.metrics import calibrated_accuracy, calibrated_interval
from cog_tasks.coglm.prompts import ERASURE_PROMPTS
from cog_tasks.coglm.records import CogLMDataError, load_records
from cog_tasks.coglm.studies import (
    ItemOutcome,
    agreement_by_ability,
    difference_lines,
    matrix_cells,
    write_cells_csv,
)

ERASED_BY_PROMPT = {prompt: code for code, prompt in ERASURE_PROMPTS.items()}


@pytest.fixture(scope="module")
def records(shared_data: Path) -> dict[str, object]:
    return {record.question: record for record in load_records(data_dir=shared_data)}


# --- bootstrap -------------------------------------------------------------------------


def test_calibrated_interval_brackets_the_estimate_and_is_reproducible() -> None:
    correct = [1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 1]
    counts = [4] * 8 + [2] * 8
    interval = calibrated_interval(correct, counts, resamples=400, seed=3)
    assert interval.value == pytest.approx(calibrated_accuracy(correct, counts))
    assert interval.low < interval.value < interval.high
    assert interval == calibrated_interval(correct, counts, resamples=400, seed=3)
    assert interval != calibrated_interval(correct, counts, resamples=400, seed=4)
    # Every item right: Wilson's interval over the items, not a zero-width point.
    assert calibrated_interval([1] * 12, [3] * 12, resamples=50).method == "wilson"
    assert calibrated_interval([1, 1, 1], [3, 3, 3], resamples=50).method == "none"
    with pytest.raises(ValueError, match="empty"):
        calibrated_interval([], [])


# --- interdependence -------------------------------------------------------------------


def test_interdependence_cells_pair_with_their_baseline_over_shared_items(tmp_path: Path) -> None:
    def outcomes(erased: str, ability: str, right: int, first: int = 0) -> list[ItemOutcome]:
        """12 items of 4 options, ``right`` of them answered rightly from item ``first`` on."""
        return [
            ItemOutcome(erased, f"{ability}-{i:04d}", ability, 4, float(0 <= i - first < right), 0)
            for i in range(12)
        ]

    cells = matrix_cells(
        outcomes("none", "plan", 10)
        + outcomes("none", "const", 6)
        + outcomes("empat", "plan", 3)
        + outcomes("empat", "const", 6, first=3)  # as many right, other items
        + outcomes("empat", "deduc", 5),  # no baseline cell for deduc
        resamples=300,
    )
    by_place = {(cell.erased, cell.ability): cell for cell in cells}
    assert by_place[("none", "plan")].paired() is None
    erased_plan = by_place[("empat", "plan")]
    difference = erased_plan.paired()
    assert difference is not None and difference.n == 12
    expected = erased_plan.calibrated_acc - by_place[("none", "plan")].calibrated_acc
    assert difference.value == pytest.approx(expected)  # (3 - 10) / 12 / (3/4)
    assert difference.value == pytest.approx(-7 / 9)
    assert difference.high < 0 and difference.significant(0.0)
    same = by_place[("empat", "const")].paired()
    assert same is not None and same.value == 0.0 and same.low < 0 < same.high
    assert by_place[("empat", "deduc")].paired() is None

    lines = difference_lines(cells)
    assert lines[0].startswith("erased minus (none)")
    assert lines[1].startswith("  erase empat, const: +0.0 [") and lines[1].endswith("n=12 items")
    assert lines[2] == "  erase empat, deduc: not paired (no baseline cell with shared items)"
    assert lines[3].startswith("  erase empat, plan: -77.8 [") and lines[3].endswith(
        "n=12 items  (interval excludes 0)"
    )

    with write_cells_csv(cells, tmp_path / "cells.csv").open() as handle:
        rows = {(row["erased"], row["ability"]): row for row in csv.DictReader(handle)}
    baseline = rows[("none", "plan")]
    assert baseline["difference"] == "" and baseline["difference_n"] == "0"
    assert float(rows[("empat", "plan")]["difference"]) == pytest.approx(-7 / 9, abs=1e-4)
    assert rows[("empat", "plan")]["difference_method"] == "bootstrap"


@pytest.mark.slow
def test_interdependence_matrix_csv_heatmap_and_resume(tmp_path: Path, records) -> None:
    calls: list[str] = []

    def respond(messages, _config) -> str:
        record = next(r for q, r in records.items() if user_text(messages).startswith(q + "\n"))
        erased = ERASED_BY_PROMPT.get(system_text(messages) or "")
        calls.append(erased or "none")
        # The erased ability is always answered wrongly, every other one rightly.
        answer = 1 - record.answer if erased == record.ability else record.answer
        letter = "AB"[answer]
        return f"The answer is option {letter}."

    model = conversation_model(respond)
    progress: list[str] = []
    result = run_interdependence(
        model,
        tmp_path,
        abilities="const,empat",
        per_ability=3,
        resamples=200,
        progress=progress.append,
    )
    assert result.conditions_run == ["none", "const", "empat"]
    assert progress[0] == "[1/3] erase none: running"
    assert progress[-1].startswith("[3/3] erase empat: done in ")
    assert progress[-1].endswith("6 items, acc 0.500")
    assert len(calls) == 3 * 6

    with result.csv_path.open() as handle:
        rows = {(row["erased"], row["ability"]): row for row in csv.DictReader(handle)}
    assert len(rows) == 3 * 2
    for (erased, ability), row in rows.items():
        # the first 3 items of both abilities have 2 options: all wrong is -1
        expected = -1.0 if erased == ability else 1.0
        assert float(row["calibrated_acc"]) == pytest.approx(expected), (erased, ability)
        assert int(row["n"]) == 3 and float(row["invalid"]) == 0.0
        # 3 items are under 10: no interval, its bounds empty (never NaN, never a guess)
        assert row["ci_low"] == row["ci_high"] == ""
        if erased != "none":  # paired with the baseline cell over its 3 items
            assert float(row["difference"]) == pytest.approx(expected - 1.0), (erased, ability)
            assert int(row["difference_n"]) == 3 and row["difference_method"] == "none"
            assert row["difference_low"] == row["difference_high"] == ""
    assert result.png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # A rerun with the same settings resumes: nothing is asked again.
    again = run_interdependence(
        model, tmp_path, abilities="const,empat", per_ability=3, resamples=200
    )
    assert again.conditions_run == [] and len(calls) == 18
    # An interrupted run (last condition missing from the outcomes) finishes that one only.
    outcomes = tmp_path / "outcomes.jsonl"
    lines = outcomes.read_text().splitlines()
    outcomes.write_text("\n".join(line for line in lines if '"erased": "empat"' not in line) + "\n")
    resumed = run_interdependence(
        model, tmp_path, abilities="const,empat", per_ability=3, resamples=200
    )
    assert resumed.conditions_run == ["empat"] and len(calls) == 24
    with pytest.raises(CogLMDataError, match="other settings"):
        run_interdependence(model, tmp_path, abilities="const", per_ability=3)


@pytest.mark.slow
def test_interdependence_cli_with_smollm2(tmp_path: Path, smollm2_path: Path, shared_data) -> None:
    command = [
        str(Path(sys.executable).with_name("cog-tasks")),
        "coglm",
        "interdependence",
        "--model",
        "hf/smollm2",
        "-M",
        f"model_path={smollm2_path}",
        "-M",
        "do_sample=false",
        "--abilities",
        "const,early",
        "--erase",
        "const",
        "--limit",
        "1",
        "--max-tokens",
        "8",
        "--resamples",
        "50",
        "--out",
        str(tmp_path),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "matrix:" in completed.stdout
    assert "[2/2] erase const: running" in completed.stderr  # progress, one line per condition
    with (tmp_path / "interdependence.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["erased"], row["ability"]) for row in rows] == [
        ("none", "const"),
        ("none", "early"),
        ("const", "const"),
        ("const", "early"),
    ]
    assert all(-1.0 <= float(row["calibrated_acc"]) <= 1.0 for row in rows)
    assert len(list((tmp_path / "logs").glob("*.eval"))) == 2


# --- agreement -------------------------------------------------------------------------


@pytest.mark.slow
def test_agreement_between_an_inspect_log_and_lm_eval_samples(tmp_path: Path, records) -> None:
    def respond(messages, _config) -> str:
        record = next(r for q, r in records.items() if user_text(messages).startswith(q + "\n"))
        return {"const-0000": "The answer is option A.", "const-0001": "No idea."}.get(
            record.id, "The answer is option B."
        )

    (log,) = inspect_eval(
        coglm_chat(abilities="const,early", per_ability=2),
        model=conversation_model(respond),
        log_dir=str(tmp_path / "inspect"),
        display="none",
    )
    chat = inspect_picks(log.location)
    assert chat == {"const-0000": 0, "const-0001": None, "early-0000": 1, "early-0001": 1}

    # lm-eval --log_samples rows: [loglikelihood, is_greedy] per option, then the
    # context's own. The scores are chosen so that every choice rule agrees.
    folder = tmp_path / "lm_eval" / "model"
    folder.mkdir(parents=True)
    doc = {"choices": ["True", "False"], "num_choices": 2, "choice_lengths": [1, 1]}
    doc["context_tokens"] = 5
    const = [
        {
            "doc": {**doc, "id": "const-0000"},
            "filtered_resps": [["-1.0", "False"], ["-6.0", "False"], ["-10.0", "False"]],
        },
        {
            "doc": {**doc, "id": "const-0001"},
            "filtered_resps": [["-6.0", "False"], ["-1.0", "True"], ["-10.0", "False"]],
        },
    ]
    (folder / "samples_coglm_const_2026-01-01.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in const)
    )
    loglikelihood = lm_eval_picks(tmp_path / "lm_eval")
    assert loglikelihood == {"const-0000": 0, "const-0001": 1}

    table = agreement_by_ability(chat, loglikelihood)
    assert table == {"const": {"n": 2, "agreement": 0.5}, "all": {"n": 2, "agreement": 0.5}}
    with pytest.raises(FileNotFoundError, match="--log_samples"):
        lm_eval_picks(tmp_path / "inspect")


def _samples_file(folder: Path, stamp: str, record_id: str, best: int) -> None:
    """One const sample whose option ``best`` has the highest log-likelihood."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"choices": ["True", "False"], "num_choices": 2, "choice_lengths": [1, 1]}
    scores = [["-6.0", "False"], ["-6.0", "False"], ["-10.0", "False"]]
    scores[best] = ["-1.0", "True"]
    row = {"doc": {**doc, "id": record_id, "context_tokens": 5}, "filtered_resps": scores}
    (folder / f"samples_coglm_const_{stamp}.jsonl").write_text(json.dumps(row) + "\n")


def test_lm_eval_picks_read_one_run_and_say_which(tmp_path: Path) -> None:
    _samples_file(tmp_path / "one" / "model", "2026-01-01T10", "const-0000", 0)
    _samples_file(tmp_path / "one" / "model", "2026-01-02T10", "const-0000", 1)
    with pytest.warns(UserWarning, match=r"2 runs; reading the newest \(2026-01-02T10\)"):
        assert lm_eval_picks(tmp_path / "one") == {"const-0000": 1}
    _samples_file(tmp_path / "two" / "model_a", "2026-01-01T10", "const-0000", 0)
    _samples_file(tmp_path / "two" / "model_b", "2026-01-01T10", "const-0000", 1)
    with pytest.raises(CogLMDataError, match="2 runs' folders"):
        lm_eval_picks(tmp_path / "two")


def test_calibrated_interval_of_unanimous_items_is_wilsons_mapped() -> None:
    """All wrong (or all right): never the zero-width interval every resample gives."""
    from cog_tasks.common.stats import wilson_interval

    wrong = calibrated_interval([0] * 12, [3] * 12)
    share = wilson_interval(0, 12, unit="item")
    assert wrong.method == "wilson" and wrong.n == 12
    assert wrong.value == pytest.approx(-0.5) and wrong.low == pytest.approx(-0.5)
    assert wrong.high == pytest.approx((share.high - 1 / 3) / (2 / 3)) and wrong.high > wrong.low
    right = calibrated_interval([1] * 20, [4] * 20)
    assert right.value == right.high == 1.0 and 0.7 < right.low < 0.8
    assert calibrated_interval([1, 0, 1], [4, 4, 2]).format() == "0.500 [no interval: 3 items]"
