import json
from collections import Counter
from pathlib import Path

import pytest

from cog_tasks.coglm.abilities import ABILITIES, resolve_codes
from cog_tasks.coglm.extract import coerce_prediction, extract_choice
from cog_tasks.coglm.metrics import (
    AGE_MAPPING,
    ScoredItem,
    calibrated_accuracy,
    calibrated_accuracy_per_item,
    cognitive_age,
    fit_age_mapping,
    stage_fractions,
    stage_scores,
    summarize,
)
from cog_tasks.coglm.records import CogLMDataError, load_records, parse_file_content
from cog_tasks.coglm.reference import TABLE9, fit_rows

FOUR = ["the red box", "the box", "a green ball", "nothing"]


# --- calibrated accuracy -------------------------------------------------------------


def test_pooled_calibrated_accuracy_hand_worked() -> None:
    # 3 of 4 right; chance c = mean(1/2, 1/4, 1/4, 1/4) = 0.3125
    # (0.75 - 0.3125) / (1 - 0.3125) = 0.4375 / 0.6875 = 0.636363...
    value = calibrated_accuracy([True, True, True, False], [2, 4, 4, 4])
    assert value == pytest.approx(0.4375 / 0.6875)


def test_per_item_calibrated_accuracy_hand_worked() -> None:
    # items: (1-1/2)/(1/2)=1, (1-1/4)/(3/4)=1, 1, (0-1/4)/(3/4)=-1/3 -> mean = (3 - 1/3)/4
    value = calibrated_accuracy_per_item([True, True, True, False], [2, 4, 4, 4])
    assert value == pytest.approx((3 - 1 / 3) / 4)


def test_forms_agree_with_equal_choice_counts_and_bounds() -> None:
    outcomes, counts = [True, False, False, True, False], [3] * 5
    assert calibrated_accuracy(outcomes, counts) == pytest.approx(
        calibrated_accuracy_per_item(outcomes, counts)
    )
    assert calibrated_accuracy([True] * 4, [4] * 4) == pytest.approx(1.0)
    assert calibrated_accuracy([False] * 4, [4] * 4) == pytest.approx(-1 / 3)
    assert calibrated_accuracy([True, False], [2, 2]) == pytest.approx(0.0)


def test_calibrated_accuracy_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="empty"):
        calibrated_accuracy([], [])
    with pytest.raises(ValueError, match="2 choice counts"):
        calibrated_accuracy([True], [2, 2])


# --- stages and age ------------------------------------------------------------------


def test_stage_scores_are_macro_averages() -> None:
    scores = {"const": 0.2, "early": 0.6, "rever": 0.3, "conse": 0.0, "induc": 0.6}
    assert stage_scores(scores) == {1: pytest.approx(0.4), 3: pytest.approx(0.3)}
    assert cognitive_age(stage_scores(scores)) is None


def test_age_fit_reproduces_published_coefficients() -> None:
    assert len(fit_rows()) == 12
    fitted = fit_age_mapping()
    assert fitted == AGE_MAPPING
    ratios = [w / fitted.stage_weights[0] for w in fitted.stage_weights]
    assert ratios == pytest.approx([1.0, 2.61, 1.42, 2.48], abs=0.01)


@pytest.mark.parametrize("row", TABLE9, ids=lambda row: row.model)
def test_age_mapping_predicts_table9_age_column(row) -> None:
    assert AGE_MAPPING(stage_fractions(row)) == pytest.approx(row.age, abs=0.1)


def test_table9_overall_column_is_the_macro_average() -> None:
    for row in TABLE9:
        assert sum(row.abilities.values()) / 10 == pytest.approx(row.overall, abs=0.1)


def test_summarize_counts_invalid_as_wrong() -> None:
    items = [
        ScoredItem("const", 2, correct=True),
        ScoredItem("const", 2, correct=False, valid=False),
        ScoredItem("early", 4, correct=True),
        ScoredItem("early", 4, correct=False),
    ]
    summary = summarize(items)
    const = summary["abilities"]["const"]
    assert const.pop("calibrated_accuracy_ci") == [None, None]  # two items: no interval
    assert const == {
        "n": 2,
        "accuracy": 0.5,
        "calibrated_accuracy": 0.0,
        "calibrated_accuracy_per_item": 0.0,
        "invalid": 1,
    }
    assert summary["abilities"]["early"]["calibrated_accuracy"] == pytest.approx(1 / 3)
    assert summary["stages"] == {"1": pytest.approx(1 / 6)}
    assert summary["overall"] == pytest.approx(1 / 6)
    assert summary["cognitive_age"] is None


# --- extractor -----------------------------------------------------------------------

EXTRACTION_CASES = [
    ("The answer is option B", FOUR, 1),
    ("The answer is option B.", FOUR, 1),
    ("\\boxed{C}", FOUR, 2),
    ("(D)", FOUR, 3),
    ("B. the box", FOUR, 1),
    ("Answer: C", FOUR, 2),
    ("C", FOUR, 2),
    ("**B**", FOUR, 1),
    ("The answer is: **C**", FOUR, 2),
    ("The correct answer is (B) because the ball was moved.", FOUR, 1),
    ("Option A is tempting, but the answer is option D.", FOUR, 3),
    ("The answer is option B, not A.", FOUR, 1),
    ("I choose C.", FOUR, 2),
    # "A:" as a speaker tag, not as the answer
    ("A: The answer is option C.", FOUR, 2),
    ("A: I think it is false.", ["True", "False"], 1),
    # exact choice text, and choice text inside another choice
    ("the red box", FOUR, 0),
    ("the box", FOUR, 1),
    ("It must be in the red box.", FOUR, 0),
    ("Not true", ["True", "Not true"], 1),
    ("a green ball, obviously", FOUR, 2),
    ("False", ["True", "False"], 1),
    # two letters mentioned without a final word: ambiguous
    ("It is either A or B.", FOUR, None),
    ("(A) or (C)", FOUR, None),
    ("B. I would say so.", FOUR, 1),
    # a letter beyond the options, and no answer at all
    ("The answer is option E", FOUR, None),
    ("I'm not sure.", FOUR, None),
    ("", FOUR, None),
]


@pytest.mark.parametrize(("text", "choices", "expected"), EXTRACTION_CASES)
def test_extract_choice(text: str, choices: list[str], expected: int | None) -> None:
    assert extract_choice(text, choices) == expected


def test_coerce_prediction_forms() -> None:
    assert coerce_prediction(2, FOUR) == 2
    assert coerce_prediction(7, FOUR) is None
    assert coerce_prediction("B", FOUR) == 1
    assert coerce_prediction(True, FOUR) is None
    assert coerce_prediction("The answer is option D", FOUR) == 3


# --- records and resolver ------------------------------------------------------------


def test_resolver_reads_shared_data(shared_data: Path) -> None:
    records = load_records(data_dir=shared_data)
    assert len(records) == 1220
    sizes = {a.code: sum(r.ability == a.code for r in records) for a in ABILITIES}
    assert list(sizes.values()) == [50, 100, 100, 100, 100, 110, 100, 250, 100, 210]
    assert len({r.id for r in records}) == 1220
    first = records[0]
    assert (first.id, first.ability, first.stage, first.num_choices) == (
        "const-0000",
        "const",
        1,
        2,
    )
    assert all(0 <= r.answer < r.num_choices for r in records)


def test_resolver_uses_environment_and_subsets(shared_data: Path, monkeypatch) -> None:
    monkeypatch.setenv("COG_TASKS_DATA", str(shared_data))
    records = load_records("plan,propo")
    assert {r.ability for r in records} == {"propo", "plan"}
    assert [r.stage for r in records] == [4] * 310
    with pytest.raises(ValueError, match="unknown CogLM ability"):
        load_records("planning")


def test_ability_tables() -> None:
    assert [a.code for a in ABILITIES if a.stage == 3] == ["rever", "conse", "induc"]
    assert [a.code for a in resolve_codes("plan, const")] == ["const", "plan"]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"question": "Q?", "answer": 0}, r"item 1: missing field\(s\) \['candidates'\]"),
        ({"question": "Q?", "candidates": ["a", "b"], "answer": 2}, "item 1: answer index 2 out"),
        ({"question": "Q?", "candidates": ["a"], "answer": 0}, "item 1: needs at least 2"),
        ({"question": "Q?", "candidates": ["a", "b"], "answer": "0"}, "item 1: 'answer' must be"),
        ({"question": "", "candidates": ["a", "b"], "answer": 0}, "item 1: 'question' must be"),
        (
            {"question": "Q?", "candidates": ["a", "b", " \t"], "answer": 0},
            r"item 1: candidates \[2\] are blank",
        ),
    ],
)
def test_malformed_records_name_file_and_item(item: dict, message: str) -> None:
    good = {"question": "Fine?", "candidates": ["yes", "no"], "answer": 0}
    with pytest.raises(CogLMDataError, match=rf"bad\.json, {message}"):
        parse_file_content([good, item], resolve_codes("const")[0], "bad.json")


def test_malformed_file_on_disk(tmp_path: Path) -> None:
    folder = tmp_path / "coglm" / "first_stage"
    folder.mkdir(parents=True)
    (folder / "exist.json").write_text(json.dumps([{"question": "Q", "answer": 0}]))
    with pytest.raises(CogLMDataError, match=r"exist\.json, item 0: missing field"):
        load_records("const", data_dir=tmp_path)
    (folder / "exist.json").write_text("{not json")
    with pytest.raises(CogLMDataError, match=r"exist\.json:1: not valid JSON"):
        load_records("const", data_dir=tmp_path)
    (folder / "exist.json").write_bytes(b'[{"question": "caf\xe9"}]')  # Latin-1, not UTF-8
    with pytest.raises(CogLMDataError, match=r"exist\.json: not UTF-8 text \(byte 18"):
        load_records("const", data_dir=tmp_path)
    (folder / "exist.json").write_text("[]")
    with pytest.raises(CogLMDataError, match=r"exist\.json: holds no items"):
        load_records("const", data_dir=tmp_path)
    with pytest.raises(FileNotFoundError, match="ability 'early'"):
        load_records("early", data_dir=tmp_path)


def test_duplicated_distractors_are_counted_once(shared_data: Path) -> None:
    records = load_records(data_dir=shared_data)
    duplicated = [r for r in records if r.num_distinct_choices < r.num_choices]
    assert len(duplicated) == 39
    assert Counter(r.ability for r in duplicated) == {"plan": 38, "induc": 1}
    assert Counter((r.num_choices, r.num_distinct_choices) for r in duplicated) == {
        (4, 3): 32,
        (4, 2): 7,
    }
    assert all(r.choices.count(r.choices[r.answer]) == 1 for r in duplicated)
    row = duplicated[0].to_dict()
    assert (row["num_choices"], row["num_distinct_choices"]) == (
        4,
        duplicated[0].num_distinct_choices,
    )


def test_chance_correction_uses_distinct_options() -> None:
    record = parse_file_content(
        [{"question": "Q?", "candidates": ["a", "b", "c", "c "], "answer": 0}],
        resolve_codes("plan")[0],
        "dup.json",
    )[0]
    assert (record.num_choices, record.num_distinct_choices) == (4, 3)
    # one wrong answer: distinct form (0 - 1/3) / (2/3) = -0.5; listed form -1/3
    assert calibrated_accuracy([False], [record.num_distinct_choices]) == pytest.approx(-0.5)
    assert calibrated_accuracy([False], [record.num_choices]) == pytest.approx(-1 / 3)


def test_a_missing_interval_says_why_in_every_view() -> None:
    """All items right: every interval is zero-wide, and the report and summary say "all alike"."""
    from cog_tasks.coglm.lm_eval.summary import format_summary
    from cog_tasks.coglm.report import CogLMRun, format_report
    from cog_tasks.common.results import Coverage

    items = [ScoredItem(ability.code, 4, correct=True) for ability in ABILITIES for _ in range(12)]
    summary = summarize(items)
    assert summary["overall_ci"] == [None, None]
    assert summary["ci_reasons"]["overall"] == f"{12 * len(ABILITIES)} items, all alike"
    # A stage's reason counts its own items, as its n does.
    stages = {s: 12 * sum(a.stage == int(s) for a in ABILITIES) for s in summary["stages"]}
    assert all(
        summary["ci_reasons"][f"stage {s}"] == f"{n} items, all alike" for s, n in stages.items()
    )
    report = format_report(summary, "all right")
    assert report.count("items, all alike]") == len(stages) + 2  # the stages, overall and age
    assert f"[no interval: {12 * len(ABILITIES)} items, all alike]" in report
    coverage = Coverage(units=len(items), declared=len(items), missing=0)
    run = CogLMRun("m", Path("r.json"), {**summary, "cognitive_age_flag": "above"}, coverage)
    lines = "\n".join(format_summary(run))
    assert f"overall 100.0 [no interval: {12 * len(ABILITIES)} items, all alike]" in lines
    for stage, n in stages.items():
        assert f"stage {stage} 100.0 [no interval: {n} items, all alike]" in lines
