"""The results model: every reading path refuses or flags each case the same way.

The cases: a unit recorded twice, a missing unit, an errored sample, three
epochs, an unparseable reply, a truncated reply, and two identities. The
paths: the model itself (:func:`check_run`), lm-eval output folders, the
predictions files ``coglm score`` reads, Inspect logs, and the profile's
comparison. CogLM reads through all of them today; the other benchmarks add
their paths to these tables as they move onto the model.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from coglm_lm_eval_files import write_lm_eval_run

from cog_tasks.cli import main
from cog_tasks.coglm.lm_eval.results import load_lm_eval_runs
from cog_tasks.common.results import (
    ResultsError,
    RunResults,
    UnitRecord,
    check_run,
    compare_units,
    distinct_runs,
    identity_differences,
)
from cog_tasks.common.runs import RunIdentity

RUN = RunIdentity.of("t@1", "m")
DECLARED = {"a": "g1", "b": "g1", "c": "g2"}


def _run(*records: UnitRecord, declared: dict[str, str] = DECLARED) -> RunResults:
    return RunResults("b", RUN, "item", records, declared, "src")


def _record(unit: str, value: float = 1.0, epoch: int = 1, status: str = "valid") -> UnitRecord:
    return UnitRecord(unit, {"x": value}, epoch, status, DECLARED.get(unit, ""))


# --- the model's own checks ------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ((_record("a"), _record("a")), "1 item(s) recorded twice in one epoch: a (epoch 1)"),
        ((_record("a"), _record("z")), "1 item(s) not in the run's declared set: z"),
        ((_record("a", status="odd"),), "unknown status(es) ['odd']"),
        ((), "no scored items"),
    ],
    ids=["duplicate", "outside", "status", "empty"],
)
def test_check_run_refuses_naming_the_units(records: tuple, message: str) -> None:
    with pytest.raises(ResultsError, match=re.escape(message)):
        check_run(_run(*records))


def test_check_run_flags_missing_statuses_and_averages_epochs() -> None:
    records = (
        *(_record("a", value, epoch) for epoch, value in enumerate((1.0, 0.0, 1.0), start=1)),
        _record("b", 0.0, 1, "error"),
        _record("b", 0.0, 2, "truncated"),
        _record("b", 0.0, 3, "invalid"),
    )
    checked = check_run(_run(*records))
    # Three epochs of two items: two units, each the mean of its epochs.
    assert checked.values == {"a": {"x": pytest.approx(2 / 3)}, "b": {"x": 0.0}}
    coverage = checked.coverage
    assert (coverage.units, coverage.declared, coverage.missing, coverage.epochs) == (2, 3, 1, 3)
    assert coverage.missing_named == ("c",) and coverage.missing_groups == ("g2",)
    assert dict(coverage.counts) == {"invalid": 1, "error": 1, "truncated": 1, "judge_invalid": 0}
    assert coverage.named["error"] == ("b",)
    assert checked.note() == (
        "PARTIAL: 1 of 3 items missing; no record for g2; replies 1 invalid, 1 error, 1 truncated"
    )


def test_one_source_twice_is_refused_and_two_identities_stay_apart() -> None:
    run = _run(_record("a"))
    with pytest.raises(ResultsError, match="src: given twice"):
        distinct_runs([run, run])
    other = RunResults("b", RunIdentity.of("t@1", "m", arguments={"k": 2}), "item", (), {}, "src")
    assert distinct_runs([run, other]) == [run, other]
    differences = identity_differences(run.identity, other.identity, ignore=("model",))
    assert differences == ["k: - vs 2"]
    refused = compare_units({"a": 1.0}, {"a": 0.0}, unit="item", differences=differences)
    assert refused.difference is None and refused.reason == "runs differ in k: - vs 2"


# --- lm-eval output folders ------------------------------------------------------------


def _lm_eval_case(folder: Path, case: str) -> Path:
    outcomes = {"const": [True, False, True], "early": [True, True, False]}
    results = write_lm_eval_run(
        folder, outcomes, without_samples=("early",) if case == "missing" else ()
    )
    if case == "duplicate":
        samples = next(folder.glob("samples_coglm_const_*.jsonl"))
        first = samples.read_text().splitlines()[0]
        samples.write_text(samples.read_text() + first + "\n")
        data = json.loads(results.read_text())
        data["n-samples"]["coglm_const"]["effective"] = 4
        results.write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("duplicate", "document(s) 0 appear twice"),
        ("missing", "no record for early"),
        ("complete", "PARTIAL: 1214 of 1220 items missing"),
    ],
)
def test_lm_eval_reader(tmp_path: Path, case: str, expected: str) -> None:
    folder = _lm_eval_case(tmp_path / "m", case)
    if case == "duplicate":
        with pytest.raises(ResultsError, match=re.escape(expected)):
            load_lm_eval_runs(folder)
        return
    ((checked, _, _),) = load_lm_eval_runs(folder)
    assert expected in checked.note()
    # The log-likelihood path has no unreadable replies: none counted, none invented.
    assert checked.coverage.counts["invalid"] == 0


def test_lm_eval_reader_keeps_two_identities_apart(tmp_path: Path) -> None:
    write_lm_eval_run(tmp_path / "a", {"const": [True]}, model="/m/a")
    write_lm_eval_run(tmp_path / "b", {"const": [False]}, model="/m/b", date=2.0)
    runs = load_lm_eval_runs(tmp_path)
    assert [label for _, _, label in runs] == ["a", "b"]
    assert [checked.coverage.units for checked, _, _ in runs] == [1, 1]


# --- predictions files (coglm score) ---------------------------------------------------

ROW = {"ability": "const", "choices": ["yes", "no"], "answer": 0}


@pytest.mark.parametrize(
    ("predictions", "field", "expected"),
    [
        (["A", "A"], None, "recorded twice in one epoch: const-0000"),
        (["A", "maybe"], "invalid", 1),
        (["A", "B"], "missing", 1218),
    ],
    ids=["duplicate", "unparseable", "missing"],
)
def test_predictions_reader(
    tmp_path: Path, capsys, predictions: list[str], field: str | None, expected: object
) -> None:
    ids = ["const-0000"] * 2 if field is None else ["const-0000", "const-0001"]
    path = tmp_path / "p.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({**ROW, "id": id_, "prediction": text})
            for id_, text in zip(ids, predictions, strict=True)
        )
    )
    code = main(["coglm", "score", str(path), "--json"])
    captured = capsys.readouterr()
    if field is None:
        assert code == 2 and str(expected) in captured.err
        return
    assert code == 0
    assert json.loads(captured.out)["coverage"][field] == expected


# --- Inspect logs ------------------------------------------------------------------------


@pytest.mark.slow
def test_inspect_reader_counts_errors_truncation_and_invalid_over_epochs(
    tmp_path: Path, capsys, shared_data: Path
) -> None:
    """Three epochs of four items, one erroring once, one cut at the token limit, one unreadable.

    The log's own metric and the report agree: both average epochs within items.
    """
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.coglm.inspect import coglm_chat
    from cog_tasks.coglm.inspect.report import load_inspect_runs
    from cog_tasks.coglm.records import load_records
    from cog_tasks.common.scripted import scripted_output

    questions = {r.id: r.question for r in load_records(["const"], data_dir=shared_data)}
    calls: dict[str, int] = {}

    def generate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = next(m.text for m in reversed(messages) if m.role == "user")
        item = next(i for i, q in questions.items() if text.startswith(q + "\n"))
        calls[item] = calls.get(item, 0) + 1
        if item == "const-0001" and calls[item] == 1:
            raise RuntimeError("provider fault")
        reply = "I cannot tell." if item == "const-0002" else "The answer is option A."
        output = scripted_output(reply, messages)
        if item == "const-0003":
            output.choices[0].stop_reason = "max_tokens"
        return output

    model = get_model("mockllm/model", custom_outputs=generate, memoize=False)
    (log,) = inspect_eval(
        coglm_chat(abilities="const", per_ability=4),
        model=model,
        log_dir=str(tmp_path),
        epochs=3,
        fail_on_error=False,
        display="none",
    )
    assert log.status == "success"
    runs, _ = load_inspect_runs([tmp_path])
    (run,) = runs
    coverage = run.coverage
    assert coverage.units == 4 and coverage.epochs == 3  # items, not epochs
    assert dict(coverage.counts) == {"invalid": 3, "error": 1, "truncated": 3, "judge_invalid": 0}
    assert run.summary["abilities"]["const"]["n"] == 4
    # The errored epoch is scored as wrong, never dropped: item 0001 averages 0, 1, 1 over
    # its epochs (Inspect's own metric leaves the errored epoch out instead).
    assert coverage.named["error"] == ("const-0001",)


@pytest.mark.slow
def test_log_metrics_equal_the_report_for_a_run_with_epochs(tmp_path: Path) -> None:
    """Twelve items, three epochs, replies varying by epoch: log and report agree."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.coglm.inspect import coglm_chat
    from cog_tasks.coglm.inspect.report import load_inspect_runs
    from cog_tasks.common.scripted import scripted_output

    calls: list[int] = []

    def generate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        calls.append(1)
        return scripted_output(f"The answer is option {'AB'[len(calls) % 2]}.", messages)

    (log,) = inspect_eval(
        coglm_chat(abilities="const", per_ability=12),
        model=get_model("mockllm/model", custom_outputs=generate, memoize=False),
        log_dir=str(tmp_path),
        epochs=3,
        display="none",
    )
    ((run,), _) = load_inspect_runs([tmp_path])
    metrics = {name: metric.value for name, metric in log.results.scores[0].metrics.items()}
    const = run.summary["abilities"]["const"]
    assert run.coverage.units == 12 and run.coverage.epochs == 3
    assert metrics["const_calibrated_acc"] == pytest.approx(const["calibrated_accuracy"])
    low, high = const["calibrated_accuracy_ci"]
    assert (metrics["const_calibrated_acc_ci_low"], metrics["const_calibrated_acc_ci_high"]) == (
        pytest.approx(low),
        pytest.approx(high),
    )


@pytest.mark.slow
def test_a_killed_run_read_with_status_started_is_flagged(tmp_path: Path, capsys) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    arguments = ["coglm", "chance", "-T", "abilities=plan", "--limit", "3"]
    assert main([*arguments, "--log-dir", str(tmp_path / "done")]) == 0
    (finished,) = (tmp_path / "done").glob("*.eval")
    log = read_eval_log(str(finished))
    log.status, log.samples = "started", log.samples[:2]  # as a killed run leaves it
    write_eval_log(log, str(tmp_path / "killed" / finished.name))
    capsys.readouterr()
    assert main(["coglm", "report", str(tmp_path / "killed"), "--status", "started"]) == 0
    text = capsys.readouterr().out
    assert "LOG STATUS started: the run did not finish" in text
    assert "PARTIAL: 1218 of 1220 items missing" in text
