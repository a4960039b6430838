"""Issue 38's smaller faults: error bars, the word-count label, unstripped options, Eq. 1 docs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from coglm_lm_eval_files import lm_eval_hash, write_lm_eval_run

from cog_tasks.cli import main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.completion import completion_text
from cog_tasks.coglm.prompts import lettered_options
from cog_tasks.coglm.records import load_records
from cog_tasks.coglm.reference import TABLE5
from cog_tasks.coglm.report import CogLMRun, write_chart, write_settings_chart
from cog_tasks.common.results import Coverage

COGLM = Path(__file__).resolve().parents[2] / "cog_tasks" / "coglm"


def _rounded_past_its_bound() -> CogLMRun:
    """A run whose every interval has a bound a float-rounding hair past its value."""
    value = 0.1
    rows = {
        a.code: {
            "n": 4,
            "accuracy": 0.5,
            "calibrated_accuracy": value,
            "calibrated_accuracy_per_item": value,
            "invalid": 0,
            "calibrated_accuracy_ci": [value + 1e-15, value + 0.2],
        }
        for a in ABILITIES
    }
    summary = {
        "abilities": rows,
        "stages": {str(s): value for s in (1, 2, 3, 4)},
        "overall": value,
        "cognitive_age": 8.0,
        "cognitive_age_ci": [8.0 + 1e-15, 9.0],
        "cognitive_age_flag": None,
    }
    return CogLMRun("m", Path("m"), summary, Coverage(units=40, declared=40, missing=0))


def test_charts_draw_intervals_rounded_past_their_value(tmp_path: Path) -> None:
    run = _rounded_past_its_bound()
    assert write_chart([run], tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    chart = write_settings_chart([run], TABLE5, tmp_path / "t5.png", "Table 5")
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_word_counted_runs_are_not_labelled_the_authors_rule(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "dummy"
    write_lm_eval_run(folder, {a.code: [True, False] for a in ABILITIES})
    for samples in folder.glob("samples_*.jsonl"):
        rows = [json.loads(line) for line in samples.read_text().splitlines()]
        for row in rows:
            row["doc"]["length_unit"] = "word"
            row["doc_hash"] = lm_eval_hash(row["doc"])  # lm-eval wrote it so
        samples.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    assert main(["coglm", "report", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "choice rule authors counting words, not tokens (no tokenizer" in text
    assert main(["coglm", "report", str(folder), "--rule", "sum"]) == 0
    assert "choice rule sum, chance listed" in capsys.readouterr().out  # sums count nothing


def test_options_are_kept_as_the_authors_append_them(shared_data: Path) -> None:
    (record,) = [r for r in load_records(["empat"], data_dir=shared_data) if r.id == "empat-0045"]
    raw = json.loads((shared_data / "coglm/second_stage/self_center.json").read_text())[45]
    assert record.choices == tuple(raw["candidates"])
    assert record.choices[1].startswith(" Find")
    # the authors' scored string: the stripped question, a newline, the cue, the option as is
    authors = raw["question"].strip() + "\nThe answer is: " + raw["candidates"][1]
    assert completion_text(record.question, record.choices[1]) == authors
    assert (
        lettered_options(record.choices).splitlines()[1] == "B. Find alternative options "
        "such as train travel or closer destinations."
    )


def test_docs_call_the_headline_pooled_and_eq1_per_item() -> None:
    for path in [COGLM / "README.md", *sorted((COGLM / "docs").glob("*.md"))]:
        for paragraph in re.split(r"\n\s*\n|\n- |\n\| ", path.read_text()):
            if "Eq. 1" in paragraph and "pooled form" in paragraph:
                assert "Eq. 1 itself is written item by item" in paragraph, (path, paragraph)
