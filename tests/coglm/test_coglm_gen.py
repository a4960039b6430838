"""The generative lm-eval family ``coglm_gen``: glue functions and a real SmolLM2 run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cog_tasks.cli import tasks_path
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.authors_rule import authors_llama_choice
from cog_tasks.coglm.extract import extract_choice
from cog_tasks.coglm.lm_eval.coglm_gen import utils
from cog_tasks.coglm.records import load_records

FAMILY = tasks_path() / "coglm" / "lm_eval" / "coglm_gen"
DOC = {"choices": ["True", "False"], "answer": 1, "num_choices": 2, "num_distinct_choices": 2}


def test_filter_reads_chat_answers_with_the_shared_extractor() -> None:
    four = {"choices": ["Phone", "Cat", "Cup", "Bag"]}
    responses = [
        ["Sure! The answer is option B, since it is false."],
        ["False. The ball is gone."],
        ["The answer is a hard one."],
        ["I choose (C)."],
    ]
    docs = [DOC, DOC, DOC, four]
    assert utils.extract_letters(responses, docs) == [["B"], ["B"], ["[invalid]"], ["C"]]
    # the authors' rule reads only the "answer is option B" reply here
    assert utils.extract_letters_authors(responses, docs) == [
        ["B"],
        ["[invalid]"],
        ["[invalid]"],
        ["[invalid]"],
    ]


def test_process_results_counts_invalid_as_wrong() -> None:
    right = utils.process_results(DOC, ["B"])
    invalid = utils.process_results(DOC, ["[invalid]"])
    assert (right["acc"], right["invalid"], right["calibrated_acc"]) == (1.0, 0.0, (True, 2))
    assert (invalid["acc"], invalid["invalid"], invalid["calibrated_acc"]) == (0.0, 1.0, (False, 2))
    assert invalid["calibrated_acc_per_item"] == pytest.approx(-1.0)
    # pooled over one right and one invalid 2-option item: chance level
    assert utils.pooled_calibrated_accuracy([(True, 2), (False, 2)]) == pytest.approx(0.0)


def test_prompt_and_target_match_the_chat_protocol(shared_data: Path) -> None:
    record = load_records("plan", data_dir=shared_data)[0]
    doc = record.to_dict()
    text = utils.doc_to_text(doc)
    assert text.startswith(record.question) and "D. " in text
    assert utils.doc_to_target(doc) == "A"


def test_family_yaml_layout() -> None:
    family = yaml.safe_load((FAMILY / "coglm_gen.yaml").read_text())
    assert family["task"] == [f"coglm_gen_stage{stage}" for stage in (1, 2, 3, 4)]
    assert family["include"] == "_coglm_gen_version.yaml" and "metadata" not in family
    members = []
    for stage in (1, 2, 3, 4):
        group = yaml.safe_load((FAMILY / f"coglm_gen_stage{stage}.yaml").read_text())
        assert {m["filter_list"] for m in group["aggregate_metric_list"]} == {
            "extract",
            "authors",
        }
        assert group["include"] == "_coglm_gen_version.yaml" and "metadata" not in group
        members += group["task"]
    assert members == [f"coglm_gen_{ability.code}" for ability in ABILITIES]
    template = (FAMILY / "_coglm_gen_template.yaml").read_text()
    assert "output_type: generate_until" in template and "temperature: 0" in template


@pytest.mark.slow
def test_coglm_gen_with_smollm2(tmp_path: Path, smollm2_path: Path, shared_data: Path) -> None:
    command = [
        str(Path(sys.executable).with_name("cog-tasks")),
        "lm-eval",
        "--model",
        "hf",
        "--model_args",
        f"pretrained={smollm2_path}",
        "--tasks",
        "coglm_gen",
        "--limit",
        "1",
        "--apply_chat_template",
        "--gen_kwargs",
        "max_gen_toks=10",
        "--batch_size",
        "10",
        "--log_samples",
        "--output_path",
        str(tmp_path),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]

    (results_file,) = tmp_path.rglob("results_*.json")
    results = json.loads(results_file.read_text())["results"]
    for task in ["coglm_gen", *(f"coglm_gen_{a.code}" for a in ABILITIES)]:
        assert -1.0 <= results[task]["calibrated_acc,extract"] <= 1.0, task
        assert 0.0 <= results[task]["invalid,extract"] <= 1.0, task
    leaves = [results[f"coglm_gen_{a.code}"]["acc,extract"] for a in ABILITIES]
    assert results["coglm_gen"]["acc,extract"] == pytest.approx(sum(leaves) / len(leaves))

    samples = [
        json.loads(line) for file in tmp_path.rglob("samples_*.jsonl") for line in file.open()
    ]
    # one logged row per document and filter
    filters = sorted(sample["filter"] for sample in samples)
    assert filters == ["authors"] * len(ABILITIES) + ["extract"] * len(ABILITIES)
    readers = {"extract": extract_choice, "authors": authors_llama_choice}
    for sample in samples:
        (generation,) = sample["resps"][0]
        pick = readers[sample["filter"]](generation, sample["doc"]["choices"])
        expected = "[invalid]" if pick is None else "ABCD"[pick]
        assert sample["filtered_resps"] == [expected]

    # The report reads the generative family too, invalid answers included.
    report = subprocess.run(
        [command[0], "coglm", "report", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    reports = json.loads(report.stdout)
    assert len(reports) == 2
    summary = next(value for label, value in reports.items() if label.endswith(" [coglm_gen]"))
    authors = next(value for label, value in reports.items() if "authors' rule" in label)
    for task in ["coglm_gen", *(f"coglm_gen_{a.code}" for a in ABILITIES)]:
        assert -1.0 <= results[task]["calibrated_acc,authors"] <= 1.0, task
    assert authors["overall"] == pytest.approx(results["coglm_gen"]["calibrated_acc,authors"])
    for ability in ABILITIES:
        row = summary["abilities"][ability.code]
        task = results[f"coglm_gen_{ability.code}"]
        assert row["n"] == 1 and row["invalid"] == round(task["invalid,extract"])
        assert row["calibrated_accuracy"] == pytest.approx(task["calibrated_acc,extract"])

    # The text report names the generation protocol, never the log-likelihood choice rule.
    text = subprocess.run(
        [command[0], "coglm", "report", str(tmp_path), "--out", str(tmp_path / "chart.png")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert text.returncode == 0, text.stderr[-3000:]
    assert "generation (extract answer reader)" in text.stdout
    assert "log-likelihood" not in text.stdout and "choice rule" not in text.stdout
