"""Headlines for the cross-benchmark profile: units that reproduce each number, paper rows."""

from pathlib import Path

import pytest
from coglm_lm_eval_files import write_lm_eval_run

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.headlines import chance_items, item_headlines
from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.lm_eval.results import chance_headlines, headlines_from_lm_eval
from cog_tasks.coglm.metrics import AGE_MAPPING, ScoredItem, summarize
from cog_tasks.coglm.paper import PAPER_ROWS
from cog_tasks.common.results import sum_statistic
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import headline_of, paired_difference

RUN = RunIdentity.of("coglm@2.0", "m")


def _ratio(units: dict) -> float:
    return sum(top for top, _ in units.values()) / sum(bottom for _, bottom in units.values())


def _items() -> list[ScoredItem]:
    return [
        ScoredItem(
            ability.code,
            2 + index % 3,
            (index * 7 + number) % 3 == 0,
            True,
            f"{ability.code}-{number}",
        )
        for index, ability in enumerate(ABILITIES)
        for number in range(12)
    ]


def test_each_headline_is_the_ratio_of_its_units_sums() -> None:
    items = _items()
    summary = summarize(items)
    found = {
        h.measure: h for h in item_headlines(items, RUN, pooled_measure="calibrated_acc_authors")
    }
    assert list(found) == [
        "calibrated_acc_authors",
        "overall",
        *[f"stage{s}" for s in range(1, 5)],
        "cognitive_age",
    ]
    assert _ratio(found["calibrated_acc_authors"].units) == pytest.approx(
        found["calibrated_acc_authors"].interval.value
    )
    assert "pooled over items" in found["calibrated_acc_authors"].note
    assert found["overall"].interval.value == pytest.approx(summary["overall"])
    assert _ratio(found["overall"].units) == pytest.approx(summary["overall"])
    for stage in range(1, 5):
        headline = found[f"stage{stage}"]
        assert headline.interval.value == pytest.approx(summary["stages"][str(stage)])
        assert _ratio(headline.units) == pytest.approx(summary["stages"][str(stage)])
        stage_items = [i for i in items if ABILITY_BY_CODE[i.ability].stage == stage]
        assert headline.interval.n == len(stage_items) < len(items)
    age = found["cognitive_age"].interval
    assert age.value == pytest.approx(
        AGE_MAPPING({s: summary["stages"][str(s)] for s in range(1, 5)})
    )
    assert age.low < age.value < age.high
    # Its units are per-item payloads; its statistic of their sums is the same age.
    statistic = sum_statistic(found["cognitive_age"].statistic)
    assert headline_of(list(found["cognitive_age"].units.values()), statistic) == pytest.approx(
        summary["cognitive_age"]
    )
    # The same intervals as the report's JSON.
    assert summary["cognitive_age_ci"] == [age.low, age.high]


def test_chance_headlines_sit_on_lm_evals_items(shared_data: Path) -> None:
    first = chance_headlines(seed=1, limit=3)
    second = chance_headlines(seed=2, limit=3)
    assert first[0].run.model == "chance" and first[0].run.seed == "1"
    assert first[0].run.task.startswith("coglm@")
    assert sorted(first[0].units) == sorted(
        f"{a.code}-{n:04d}" for a in ABILITIES for n in range(3)
    )
    assert first == chance_headlines(seed=1, limit=3)  # seeded
    difference = paired_difference(first[0].units, second[0].units, unit="item")
    assert difference.n == 30


def test_chance_guesses_every_listed_option() -> None:
    from cog_tasks.coglm.records import CogLMRecord

    record = CogLMRecord("plan-0001", "plan", 4, "Q?", ("a", "b", "b", "c"), 0)
    picks = {chance_items([record], seed)[0].correct for seed in range(40)}
    assert picks == {True, False}
    assert chance_items([record])[0].num_choices == 4  # listed
    assert chance_items([record], chance="distinct")[0].num_choices == 3


def test_headlines_from_lm_eval_read_the_samples(tmp_path: Path) -> None:
    write_lm_eval_run(tmp_path / "a", {"const": [True, True]}, limit=2)
    (pooled, overall, stage1) = headlines_from_lm_eval(tmp_path / "a")
    assert pooled.measure == "calibrated_acc_authors" and pooled.interval.value == 1.0
    assert pooled.units == {"const-0000": (0.5, 0.5), "const-0001": (0.5, 0.5)}
    assert pooled.run.task == "coglm@2.1" and pooled.run.model == "tiny"
    assert dict(pooled.run.arguments)["limit"] == "2" and pooled.run.seed == "0"
    # Partial against the declared 1,220 items, on every row, in text and as counts.
    assert stage1.measure == "stage1" and stage1.coverage is not None
    assert "PARTIAL: 1218 of 1220 items missing" in stage1.coverage.note("item")
    assert stage1.coverage.missing == 1218 and pooled.coverage == stage1.coverage
    assert stage1.as_row()["coverage"]["missing_groups"][:2] == ["early", "semio"]
    # With the per-token rule the same samples give the same picks here.
    assert (
        headlines_from_lm_eval(tmp_path / "a", rule="per-token")[0].measure
        == "calibrated_acc_per_token"
    )


def test_paper_rows_are_table9() -> None:
    gpt4 = {row.measure: row for row in PAPER_ROWS if row.model == "GPT-4"}
    assert gpt4["overall"].value == pytest.approx(0.847)
    assert gpt4["cognitive_age"].value == 20.0
    assert gpt4["stage1"].value == pytest.approx((0.96 + 0.973) / 2)
    assert "prompt=boxed" in gpt4["overall"].differs  # their GPT protocol, in our words
    assert "boxed" in gpt4["overall"].protocol
    chat7 = {row.measure: row for row in PAPER_ROWS if row.model == "LLaMA2-chat 7B"}
    assert "no chat template" in chat7["overall"].protocol  # their test_llama.py text
    assert "prompt=llama-text" in chat7["overall"].differs
    opt = {row.measure: row for row in PAPER_ROWS if row.model == "OPT 125M"}
    assert opt["overall"].differs == "" and opt["cognitive_age"].value == 4.8
    assert len(PAPER_ROWS) == 12 * 6


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"per_ability": 0}, "per_ability must be an integer >= 1"),
        ({"sc_samples": "x"}, "sc_samples must be an integer >= 1, got 'x'"),
        ({"sc_temperature": -1}, "sc_temperature must be a number from 0 to 2"),
        ({"chance": "both"}, "chance must be one of listed, distinct"),
        ({"erase": "nope"}, "erase must be one of const, early"),
        ({"extractor": "mine"}, "extractor must be one of ours"),
    ],
)
def test_task_parameters_are_checked_when_built(arguments: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        coglm_chat(**arguments)


def test_the_main_job_summary_names_intervals_flags_and_the_report(tmp_path: Path) -> None:
    from cog_tasks.coglm.lm_eval.summary import summary_text

    write_lm_eval_run(tmp_path / "run", {"const": [True, True]}, limit=2)
    arguments = ["--model", "hf", "--tasks", "coglm_const", "--output_path", str(tmp_path)]
    text = summary_text([*arguments, "--log_samples"])
    # Two items: no percentile bootstrap; every item right gives Wilson's interval.
    assert "stage 1 100.0" in text
    assert "FLAG: PARTIAL: 1218 of 1220 items missing" in text
    assert text.endswith(f"cog-tasks coglm report {tmp_path}")
    assert "--output_path DIR --log_samples" in summary_text(["--tasks", "coglm"])
    assert summary_text(["--tasks", "hellaswag", "--output_path", str(tmp_path)]) is None


@pytest.mark.parametrize(
    ("correct", "note"),
    [
        (lambda i: False, "below the fitted range (the map was fitted on ages 6-20)"),
        (lambda i: True, "above the fitted range (the map was fitted on ages 6-20)"),
    ],
)
def test_an_age_off_the_fitted_range_says_so_in_its_headline(correct, note: str) -> None:
    """The profile, compare and the board show the note: never a bare age of -2 or 25 years."""
    items = [
        ScoredItem(ability.code, 4, correct(number), True, f"{ability.code}-{number}")
        for ability in ABILITIES
        for number in range(12)
    ]
    (age,) = [h for h in item_headlines(items, RUN, pooled_measure="p") if h.scale == "years"]
    assert age.note == note
