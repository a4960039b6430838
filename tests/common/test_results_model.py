"""The results model: every reading path refuses or flags each case the same way.

The cases: a unit recorded twice, a missing unit, an errored sample, three
epochs, an unparseable reply, a truncated reply, and two identities. The
paths: the model itself (:func:`check_run`), lm-eval output folders, the
predictions files ``coglm score`` reads, Inspect logs, and the profile's
comparison. CogLM reads through all of them today; the other benchmarks add
their paths to these tables as they move onto the model.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import replace
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
        "PARTIAL: 1 of 3 items missing; no record for g2; 1 item with fewer than 3 epochs; "
        "replies 1 invalid, 1 error, 1 truncated; data: unverified (not recorded)"
    )


def test_one_content_twice_counts_once_and_two_identities_stay_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = _run(_record("a"))
    copy = replace(run, source="elsewhere/src")
    assert distinct_runs([run, copy]) == [run]
    warning = capsys.readouterr().err.strip().splitlines()
    assert len(warning) == 1 and "elsewhere/src" in warning[0] and " src " in warning[0]
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


def _edit_first_doc(folder: Path, change: dict) -> None:
    """Change the first document of every samples file in ``folder`` (as other data would).

    Its ``doc_hash``, where it has one, is lm-eval's hash of the changed document:
    a run on other data, not an edited file.
    """
    for samples in folder.glob("samples_*.jsonl"):
        rows = [json.loads(line) for line in samples.read_text().splitlines()]
        rows[0]["doc"] |= change
        if "doc_hash" in rows[0]:
            text = json.dumps(rows[0]["doc"], indent=2, ensure_ascii=False)
            rows[0]["doc_hash"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        samples.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_lm_eval_runs_on_other_data_are_never_one_row(tmp_path: Path) -> None:
    """Runs alike but for one item's answer differ in data_sha256; a tokenizer's counts do not."""
    from cog_tasks.common.logs import DATA_ARGUMENT
    from cog_tasks.common.runs import group_runs

    outcomes = {"const": [True, False], "early": [True]}
    write_lm_eval_run(tmp_path / "clean", outcomes)
    write_lm_eval_run(tmp_path / "flipped", outcomes, date=2.0, stamp="2026-01-02T00-00-00.0")
    write_lm_eval_run(tmp_path / "tokens", outcomes, date=3.0, stamp="2026-01-03T00-00-00.0")
    _edit_first_doc(tmp_path / "flipped", {"answer": 1})
    _edit_first_doc(tmp_path / "tokens", {"choice_lengths": [4, 7], "context_tokens": 12})
    runs = load_lm_eval_runs(tmp_path)
    hashes = [dict(checked.run.identity.arguments)[DATA_ARGUMENT] for checked, _, _ in runs]
    assert len(hashes[0]) == 12 and hashes[0] != hashes[1] and hashes[0] == hashes[2]
    identities = [checked.run.identity for checked, _, _ in runs]
    rows = group_runs(identities, lambda identity: identity, pool_seeds=True)
    assert [len(row.runs) for row in rows] == [2, 1]  # clean and tokens pool; flipped stays apart
    assert f"{DATA_ARGUMENT}={hashes[1]}" in runs[1][2]


def test_cogeval_lm_eval_runs_on_other_data_are_never_one_row(tmp_path: Path) -> None:
    from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs
    from cog_tasks.common.logs import DATA_ARGUMENT

    right = _cogeval_docs(1)[0]["expected"][0]
    _write_cogeval_lm_eval(tmp_path / "a", [[right]])
    _write_cogeval_lm_eval(tmp_path / "b", [[right]])
    first, same = read_lm_eval_runs([tmp_path / "a", tmp_path / "b"])
    assert first[0].identity == same[0].identity
    _edit_first_doc(tmp_path / "b", {"expected": ["Answer: 7"]})
    first, other = read_lm_eval_runs([tmp_path / "a", tmp_path / "b"])
    assert first[0].identity.without_seed() != other[0].identity.without_seed()
    assert DATA_ARGUMENT in dict(first[0].identity.arguments)


# --- predictions files (coglm score) ---------------------------------------------------

ROW = {"ability": "const", "choices": ["yes", "no"], "answer": 0}


@pytest.mark.parametrize(
    ("predictions", "field", "expected"),
    [
        (["A", "A"], None, "item ('id', 'const-0000') repeats"),
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


# --- CogEval: Inspect logs, lm-eval folders, score files, score tables ---------------------
#
# The unit is the paper's task; each dialog (item at a temperature) is a record of it, each
# repeat an epoch. Paths that cannot hold a case say so: lm-eval records neither errors nor
# stop reasons; a score file or table declares only the tasks it holds (nothing can miss).


def _cogeval_docs(count: int) -> list[dict]:
    """The first published n7line documents, as lm-eval's dataset hook gives them."""
    from cog_tasks.cogeval.lm_eval.utils import load_cogeval

    return list(load_cogeval(graphs="n7line")["test"])[:count]


def _write_cogeval_lm_eval(
    folder: Path, replies: list[list[str]], *, model: str = "m", repeat_doc: bool = False
) -> Path:
    """One lm-eval run of ``cogeval_n7line`` (or ``cogeval_sampled`` with several replies)."""
    from cog_tasks.cogeval.lm_eval.utils import process_results

    task = "cogeval_sampled" if len(replies[0]) > 1 else "cogeval_n7line"
    docs = _cogeval_docs(len(replies))
    rows = [
        {"doc_id": number, "doc": doc, "filtered_resps": [texts if len(texts) > 1 else texts[0]]}
        | process_results(doc, [texts if len(texts) > 1 else texts[0]])
        for number, (doc, texts) in enumerate(zip(docs, replies, strict=True))
    ]
    rows += rows[:1] if repeat_doc else []
    data = {
        "results": {task: {}},
        "configs": {
            task: {
                "dataset_kwargs": {"graphs": "n7line"} if task == "cogeval_n7line" else {},
                "generation_kwargs": {"temperature": 0.0 if task == "cogeval_n7line" else 1.0},
                "repeats": len(replies[0]),
            }
        },
        "versions": {task: 4.0},
        "n-samples": {task: {"original": 63, "effective": len(rows)}},
        "config": {"model": "hf", "model_args": f"pretrained={model}", "random_seed": 0},
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results_2026-01-01T00-00-00.json").write_text(json.dumps(data))
    samples = folder / f"samples_{task}_2026-01-01T00-00-00.jsonl"
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return folder


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("duplicate", "document(s) 0 appear twice"),
        ("missing", "PARTIAL: 28 of 29 tasks missing, 1 task incomplete (3 of their"),
        ("unparseable", "replies 1 invalid"),
        ("epochs", "replies 1 invalid"),
    ],
)
def test_cogeval_lm_eval_reader(tmp_path: Path, case: str, expected: str) -> None:
    from cog_tasks.cogeval.headlines import checked_runs
    from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs

    docs = _cogeval_docs(2)
    right = [doc["expected"][0] for doc in docs]
    replies = {
        "duplicate": [[right[0]], [right[1]]],
        "missing": [[right[0]], [right[1]]],
        "unparseable": [[right[0]], ["I cannot tell."]],
        "epochs": [[right[0], right[0], "I cannot tell."], [right[1]] * 3],
    }[case]
    folder = _write_cogeval_lm_eval(tmp_path, replies, repeat_doc=case == "duplicate")
    if case == "duplicate":
        with pytest.raises(ResultsError, match=re.escape(expected)):
            read_lm_eval_runs(folder)
        return
    (run,) = checked_runs(read_lm_eval_runs(folder))
    assert expected in run.note()
    assert run.coverage.counts["error"] == run.coverage.counts["truncated"] == 0
    if case == "epochs":
        # two dialogs of one task, three repeats each: one unit, epochs averaged per dialog
        assert (run.coverage.units, run.coverage.epochs) == (1, 3)
        assert run.rate().value == pytest.approx((2 / 3 + 1) / 2)


def test_cogeval_lm_eval_reader_keeps_two_identities_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cog_tasks.cogeval.headlines import checked_runs
    from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs

    right = _cogeval_docs(1)[0]["expected"][0]
    _write_cogeval_lm_eval(tmp_path / "a", [[right]], model="a")
    _write_cogeval_lm_eval(tmp_path / "b", [["I cannot tell."]], model="b")
    runs = checked_runs(read_lm_eval_runs([tmp_path / "a", tmp_path / "b"]))
    assert [run.rate().value for run in runs] == [1.0, 0.0]
    assert runs[0].label != runs[1].label
    capsys.readouterr()
    # Folder a, and a again below tmp_path: one run, counted once, with one warning line.
    again = checked_runs(read_lm_eval_runs([tmp_path / "a", tmp_path]))
    assert [run.rate().value for run in again] == [1.0, 0.0]
    [warning] = capsys.readouterr().err.splitlines()
    assert "counted once" in warning and str(tmp_path / "a") in warning


_SCORED = {"condition": "valuePath", "expected": ["Answer: 2"], "task": "t1", "id": "i1"}


@pytest.mark.parametrize(
    ("lines", "field", "expected"),
    [
        ([{"response": "Answer: 2"}] * 2, None, "recorded twice in one epoch: t1 i1.t0"),
        (  # an errored epoch is counted, and out of the number
            [{"response": "Answer: 2", "error": "provider fault", "epoch": 1}]
            + [{"response": "Answer: 2", "epoch": 2}],
            "error",
            1,
        ),
        ([{"response": "Answer: 2", "epoch": epoch} for epoch in (1, 2, 3)], "epochs", 3),
        ([{"response": "I cannot tell."}], "invalid", 1),
        ([{"response": "Answer: 2", "stop_reason": "max_tokens"}], "truncated", 1),
    ],
    ids=["duplicate", "error", "epochs", "unparseable", "truncated"],
)
def test_cogeval_score_file_reader(
    tmp_path: Path, capsys, lines: list[dict], field: str | None, expected: object
) -> None:
    source = tmp_path / "replies.jsonl"
    source.write_text("".join(json.dumps(_SCORED | line) + "\n" for line in lines))
    code = main(["cogeval", "score", str(source), "--out", str(tmp_path / "o.jsonl"), "--json"])
    captured = capsys.readouterr()
    if field is None:
        assert code == 2 and str(expected) in captured.err
        assert not (tmp_path / "o.jsonl").exists()  # refused before writing
        return
    result = json.loads(captured.out)
    assert code == 0 and result["coverage"][field] == expected
    assert result["tasks"] == 1 and result["coverage"]["missing"] == 0


def _score_table(path: Path, rows: list[dict]) -> Path:
    base = {"graph": "n7line", "domain": "ordRooms", "condition": "valuePath"}
    base |= {"temperature": 0.0, "max_score": 1, "id": "i1"}
    path.write_text("".join(json.dumps(base | row) + "\n" for row in rows))
    return path


@pytest.mark.parametrize(
    ("rows", "field", "expected"),
    [
        ([{"model": "m", "score": 1, "epoch": 1}] * 2, None, "recorded twice in one epoch"),
        (  # an errored epoch is counted, and out of the number
            [{"model": "m", "score": 0, "status": "error", "epoch": 1}]
            + [{"model": "m", "score": 1, "epoch": 2}],
            "error",
            1,
        ),
        (
            [{"model": "m", "score": s, "epoch": e} for e, s in ((1, 1), (2, 0), (3, 1))],
            "epochs",
            3,
        ),
        ([{"model": "m", "score": 0, "failure_mode": "unparseable"}], "invalid", 1),
        ([{"model": "m", "score": 1, "status": "truncated"}], "truncated", 1),
    ],
    ids=["duplicate", "error", "epochs", "unparseable", "truncated"],
)
def test_cogeval_score_table_reader(
    tmp_path: Path, capsys, rows: list[dict], field: str | None, expected: object
) -> None:
    path = _score_table(tmp_path / "scores.jsonl", rows)
    code = main(["cogeval", "report", str(path), "--out", str(tmp_path), "--json"])
    captured = capsys.readouterr()
    if field is None:
        assert code == 2 and expected in captured.err
        return
    (row,) = json.loads(captured.out)["rows"]
    assert code == 0 and row["coverage"][field] == expected and row["tasks"] == 1
    if field == "epochs":
        assert row["success"] == pytest.approx(2 / 3) and row["dialogs"] == 3
    if field == "error":  # the errored epoch is out of the number, counted beside it
        assert row["success"] == 1.0


def test_cogeval_score_table_keeps_two_identities_apart(tmp_path: Path, capsys) -> None:
    rows = [{"model": "a", "score": 1}, {"model": "b", "score": 0}]
    path = _score_table(tmp_path / "scores.jsonl", rows)
    assert main(["cogeval", "report", str(path), "--out", str(tmp_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["rows"]
    assert [(row["run"], row["success"]) for row in shown] == [("a", 1.0), ("b", 0.0)]


@pytest.mark.slow
def test_cogeval_inspect_reader_flags_every_case_and_the_log_metric_equals_the_report(
    tmp_path: Path, capsys
) -> None:
    """A --limit run with three epochs, an errored, a truncated and an unreadable dialog.

    Then the same log twice (refused), and a second run at another temperature: two rows,
    and the log's own metric equals the report's for a run with epochs.
    """
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.cogeval.inspect import cogeval
    from cog_tasks.common.scripted import scripted_output

    arguments = {"graphs": "n7line", "domains": "ordRooms"}
    dataset = list(cogeval(**arguments, temperatures="0").dataset)[:3]
    last = [(s.metadata["followups"] or [s.input[-1].text])[-1] for s in dataset]
    failed: list[str] = []
    calls: list[int] = []

    def generate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = next(m.text for m in reversed(messages) if m.role == "user")
        calls.append(1)
        if text == last[0] and not failed:
            failed.append(text)
            raise RuntimeError("provider fault")
        output = scripted_output(
            "I cannot tell." if text == last[2] else f"Answer: {len(calls) % 3 + 1}", messages
        )
        if text == last[1]:
            output.choices[0].stop_reason = "max_tokens"
        return output

    model = get_model("mockllm/model", custom_outputs=generate, memoize=False)
    logs = {}
    for temperature, limit in (("0", 6), ("1", 12)):
        (logs[temperature],) = inspect_eval(
            cogeval(**arguments, temperatures=temperature),
            model=model,
            log_dir=str(tmp_path / temperature),
            epochs=3,
            limit=limit,
            fail_on_error=False,
            display="none",
        )
    report = ["cogeval", "report", "--out", str(tmp_path / "png"), "--json", "--force"]
    assert main([*report, "--log", str(tmp_path / "0")]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    coverage = row["coverage"]
    # six dialogs of two tasks, three epochs: tasks are the units, never the epochs
    assert (coverage["units"], coverage["epochs"], row["dialogs"]) == (2, 3, 18)
    assert (coverage["error"], coverage["truncated"], coverage["invalid"]) == (1, 3, 3)
    assert row["note"].startswith("PARTIAL: 7 of 9 tasks missing, 1 task incomplete")
    # the same log twice is refused, not doubled
    analyze = ["cogeval", "analyze", "--log", str(tmp_path / "0"), "--log", str(tmp_path / "0")]
    assert main(analyze) == 2 and "give each log folder once" in capsys.readouterr().err
    # two identities: two rows, labelled by what differs; the log's metric is the report's
    assert main([*report, "--log", str(tmp_path)]) == 0
    rows = {row["run"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert sorted(rows) == ["mockllm/model temperatures=0", "mockllm/model temperatures=1"]
    metrics = {k: m.value for k, m in logs["1"].results.scores[0].metrics.items()}
    sampled = rows["mockllm/model temperatures=1"]
    assert sampled["coverage"]["error"] == 0 and sampled["coverage"]["epochs"] == 3
    assert metrics["success"] == pytest.approx(sampled["success"])
    # below 10 units neither the log nor the report has an interval
    assert metrics["success_n"] == sampled["coverage"]["units"] < 10
    assert "success_ci_low" not in metrics and sampled["success_ci"] == [None, None]


# --- EgoSocialArena's Inspect logs -------------------------------------------------------


def _egosocial_static_log(tmp_path: Path, **task_args: object):  # noqa: ANN202
    """Five authors' items, three epochs: item 0 errors once, 1 is unreadable, 2 is cut."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.common.scripted import scripted_output
    from cog_tasks.egosocial.inspect import egosocial_static

    asked = {str(s.id): s.input[-1].text for s in egosocial_static().dataset[:5]}
    calls: dict[str, int] = {}

    def generate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = messages[-1].text
        item = next(i for i, prompt in asked.items() if text.startswith(prompt))
        calls[item] = calls.get(item, 0) + 1
        if item == list(asked)[0] and calls[item] == 1:
            raise RuntimeError("provider fault")
        output = scripted_output("I cannot tell." if item == list(asked)[1] else "ANSWER: C")
        if item == list(asked)[2]:
            output.choices[0].stop_reason = "max_tokens"
        return output

    (log,) = inspect_eval(
        egosocial_static(**task_args),
        model=get_model("mockllm/model", custom_outputs=generate, memoize=False),
        log_dir=str(tmp_path),
        limit=5,
        epochs=3,
        fail_on_error=False,
        display="none",
    )
    return log, list(asked)


@pytest.mark.slow
def test_egosocial_static_log_flags_each_case_over_items_not_epochs(
    tmp_path: Path, shared_data: Path
) -> None:
    from cog_tasks.egosocial.inspect.headlines import headlines
    from cog_tasks.egosocial.inspect.report import build_report, checked_runs

    log, items = _egosocial_static_log(tmp_path)
    (run,) = checked_runs([log])
    coverage = run.checked.coverage
    assert (coverage.units, coverage.epochs) == (5, 3)  # items, not items x epochs
    assert dict(coverage.counts) == {"invalid": 3, "error": 1, "truncated": 3, "judge_invalid": 0}
    assert coverage.named["error"] == (items[0],) and coverage.named["invalid"] == (items[1],)
    # the --limit run is partial against the 59 items its arguments declare
    assert coverage.missing == 54 and "PARTIAL: 54 of 59 items missing" in run.note()
    # the errored epoch is out of the numbers (as Inspect's metrics leave it out) and
    # counted beside them: item 0 is the mean of its two answered epochs, never 2/3
    assert run.checked.values[items[0]]["all"] == run.checked.values[items[3]]["all"] == 1.0
    assert "1 item with fewer than 3 epochs" in run.note()
    (headline,) = headlines(log)
    assert headline.interval.n == 5 and headline.coverage == coverage
    cells = {(c.row, c.column): c for c in build_report([log]).cells}
    always_c = cells[(f"{run.label} · always C", "all")].interval()
    assert always_c.n == 5  # three identical copies of an item are one unit
    # the log's own metric averages epochs within items too: the same invalid share
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    invalid = cells[(run.label, "invalid")].interval()
    assert metrics["invalid"] == pytest.approx(invalid.value) == pytest.approx(1 / 5)
    flagged = cells[(run.label, "all")].flagged()
    assert "replies 3 invalid, 1 error, 3 truncated" in flagged


@pytest.mark.slow
def test_egosocial_refuses_a_unit_twice_and_keeps_two_identities_apart(
    tmp_path: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cog_tasks.egosocial.inspect.report import build_report, checked_runs, log_results

    log, items = _egosocial_static_log(tmp_path / "single")
    # one content given twice is read once, with one warning line, never doubled
    capsys.readouterr()
    assert build_report([log, log]) == build_report([log])
    (warning,) = capsys.readouterr().err.strip().splitlines()
    assert "holds the same run as" in warning and warning.endswith("counted once")
    doubled = log.model_copy(update={"samples": [*log.samples, log.samples[0]]})
    with pytest.raises(ResultsError, match=re.escape(f"recorded twice in one epoch: {items[0]}")):
        check_run(log_results(doubled)[0])
    other, _ = _egosocial_static_log(tmp_path / "circular", circular=True)
    first, second = checked_runs([log, other])
    assert first.label != second.label  # two rows, never pooled
    differences = identity_differences(first.checked.identity, second.checked.identity)
    assert differences == ["circular: false vs true"]
    pairing = compare_units(
        first.checked.unit_values("all"),
        second.checked.unit_values("all"),
        unit="item",
        differences=differences,
    )
    assert pairing.difference is None and "circular" in pairing.reason


@pytest.mark.slow
def test_egosocial_games_are_units_and_unread_grades_judge_invalid(
    tmp_path: Path, shared_data: Path
) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.common.scripted import scripted_output
    from cog_tasks.egosocial.inspect import egosocial_blackjack_beliefs, egosocial_number_guessing
    from cog_tasks.egosocial.inspect.report import checked_runs

    def player(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = "Prediction: 50; Choice: 1" if len(messages) % 4 else "Prediction: 40 or 45"
        return scripted_output(text)

    (guessing,) = inspect_eval(
        egosocial_number_guessing(level=1, rounds=2, games=2),
        model=get_model("mockllm/model", custom_outputs=player, memoize=False),
        log_dir=str(tmp_path),
        epochs=3,
        display="none",
    )
    (run,) = checked_runs([guessing])
    assert (run.checked.coverage.units, run.checked.coverage.epochs) == (2, 3)
    assert run.checked.coverage.counts["invalid"] > 0  # a hedged prediction is unread
    believer = scripted_output("Self-Belief is {I hold 20}. External-Belief is {a ten}.")
    (beliefs,) = inspect_eval(
        egosocial_blackjack_beliefs(),
        model=get_model("mockllm/model", custom_outputs=[believer] * 2),
        model_roles={
            "judge": get_model("mockllm/judge", custom_outputs=[scripted_output("GRADE: ?")] * 8)
        },
        log_dir=str(tmp_path),
        limit=2,
        display="none",
    )
    (run,) = checked_runs([beliefs])
    assert run.checked.coverage.counts["judge_invalid"] == 2
    assert run.checked.coverage.missing == 48


# --- CogBench's Inspect logs ---------------------------------------------------------------


def _cogbench_log(tmp_path: Path, epochs: int = 3):  # noqa: ANN202
    """The four sample trajectories of subset a, iterations 0-1, three epochs, self-judged.

    Trajectory 0 errors in its first epoch, 1 gives a rating it hedges (``3 or
    4``), 2 is cut at the token limit, and the judge's replies on 3 have no
    readable score; every other reply is the chance rater's.
    """
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.cogbench.inspect import cogbench
    from cog_tasks.cogbench.inspect.chance import _JUDGE_MARK, ChanceRater
    from cog_tasks.cogbench.records import Trajectory
    from cog_tasks.common.scripted import scripted_output

    task = cogbench(agent="cot", source="sample", subset="a", iterations=1, self_judge=True)
    trajectories = [Trajectory.from_metadata(sample.metadata) for sample in task.dataset]
    chance = ChanceRater(seed=0)
    failed: list[str] = []

    def whose(text: str) -> int:
        return next(
            index
            for index, trajectory in enumerate(trajectories)
            if trajectory.profile_name in text
            and any(question in text for question in trajectory.steps[0].questions)
        )

    def generate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = messages[-1].text
        index = whose(text)
        if index == 0 and not failed:
            failed.append(text)
            raise RuntimeError("provider fault")
        reply = chance.reply(text)
        if index == 1 and not text.endswith(_JUDGE_MARK):
            reply = "Thoughts: hard to say.\nRating: 3 or 4"
        if index == 3 and text.endswith(_JUDGE_MARK):
            reply = "Score: 3 or 4"
        output = scripted_output(reply)
        if index == 2:
            output.choices[0].stop_reason = "max_tokens"
        return output

    (log,) = inspect_eval(
        task,
        model=get_model("mockllm/model", custom_outputs=generate, memoize=False),
        log_dir=str(tmp_path),
        epochs=epochs,
        fail_on_error=False,
        display="none",
    )
    return log, [trajectory.id for trajectory in trajectories]


@pytest.mark.slow
def test_cogbench_log_flags_each_case_over_trajectories_not_epochs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cog_tasks.cogbench.inspect.headlines import headlines
    from cog_tasks.cogbench.inspect.logs import checked_runs, log_results, report_rows

    log, ids = _cogbench_log(tmp_path)
    (run,) = checked_runs([log])
    coverage = run.checked.coverage
    assert (coverage.units, coverage.epochs, coverage.missing) == (4, 3, 0)  # not 12 units
    assert dict(coverage.counts) == {"invalid": 3, "error": 1, "truncated": 3, "judge_invalid": 3}
    assert [coverage.named[status] for status in ("error", "invalid", "truncated")] == [
        (ids[0],),
        (ids[1],),
        (ids[2],),
    ]
    assert coverage.named["judge_invalid"] == (ids[3],)
    agent, *followers = report_rows([log])
    # the errored epoch is out of the means and the reply counts, counted beside as error
    assert agent.authenticity_avg.n == 4 and all(row.authenticity_avg.n == 4 for row in followers)
    assert agent.counts["invalid"] == 2 * 5 * 3  # the hedged trajectory's three epochs
    assert agent.counts["judge_invalid"] == 2 * 5 * 3 and agent.counts["truncated_replies"] > 0
    assert agent.rationality_readable_avg is not None
    assert agent.rationality_readable_avg > agent.rationality_avg.value  # the floor pulls it down
    found = {headline.measure: headline for headline in headlines(log)}
    assert all(headline.coverage == coverage for headline in found.values())
    assert found["authenticity_avg_a"].scale == "kappa" and found["invalid_rate_a"].scale == "raw"
    assert "30 of" in found["rationality_avg_a"].note and "readable-only avg" in (
        found["rationality_avg_a"].note
    )
    assert found["judge_invalid_rate_a"].interval.value > 0
    # a missing trajectory makes the run partial; a trajectory twice is refused
    fewer = log.model_copy(update={"samples": [s for s in log.samples if s.id != ids[3]]})
    partial = check_run(log_results(fewer)[0])
    assert partial.coverage.missing_named == (ids[3],) and "PARTIAL: 1 of 4" in (partial.note())
    doubled = log.model_copy(update={"samples": [*log.samples, log.samples[0]]})
    with pytest.raises(ResultsError, match=re.escape(f"recorded twice in one epoch: {ids[0]}")):
        check_run(log_results(doubled)[0])
    assert main(["cogbench", "report", str(tmp_path), "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "records flagged: invalid 3, error 1, truncated 3, judge_invalid 3" in printed
    assert "counting 30 unreadable judge replies" in printed
    curves = json.loads((tmp_path / "out" / "cogbench_curves.json").read_text())
    assert curves[0]["coverage"]["error"] == 1 and curves[0]["counts"]["judge_invalid"] == 30


@pytest.mark.slow
def test_cogbench_reads_a_log_twice_once_and_keeps_two_identities_apart(
    tmp_path: Path, capsys
) -> None:
    from cog_tasks.cogbench.inspect import cogbench
    from cog_tasks.cogbench.inspect.chance import ChanceRater
    from cog_tasks.cogbench.inspect.logs import checked_runs
    from cog_tasks.common.scripted import run_chance_model

    logs = [
        run_chance_model(
            cogbench(agent="cot", source="sample", iterations=1, judge=False, weights=weights),
            ChanceRater(seed=0),
            str(tmp_path / str(weights)),
        )
        for weights in (None, "linear")
    ]
    capsys.readouterr()
    # one run given twice is read once (never counted twice), with one warning line
    [once] = checked_runs([logs[0], logs[0]])
    [warning] = capsys.readouterr().err.splitlines()
    assert "holds the same run as" in warning and "counted once" in warning
    [single] = checked_runs([logs[0]])
    assert once.label == single.label
    assert once.checked.unit_values("t1_disagreement") == single.checked.unit_values(
        "t1_disagreement"
    )
    first, second = checked_runs(logs)
    assert first.label != second.label  # two rows, never pooled
    differences = identity_differences(first.checked.identity, second.checked.identity)
    assert differences == ["weights: - vs linear"]
    pairing = compare_units(
        first.checked.unit_values("t1_disagreement"),
        second.checked.unit_values("t1_disagreement"),
        unit="trajectory",
        differences=differences,
    )
    assert pairing.difference is None and "weights" in pairing.reason


def test_a_paired_difference_over_few_units_has_no_interval_and_stays_within_its_scale() -> None:
    """Two shares differ by at most 1, two calibrated accuracies by at most 2."""
    from cog_tasks.common.results import compare_units, difference_bounds

    first, second = {"a": 0.8, "b": 1.0}, {"a": 1.0, "b": 0.0}
    assert difference_bounds("raw", first, second) == (-1.0, 1.0)
    difference = compare_units(first, second, unit="trajectory").difference
    assert difference is not None
    assert difference.format() == "0.400 [no interval: 2 trajectories]"
    wide = compare_units(
        first | dict.fromkeys("cdefghijkl", 1.0),
        second | dict.fromkeys("cdefghijkl", 0.0),
        unit="trajectory",
    ).difference
    assert wide is not None and -1.0 <= wide.low < wide.high <= 1.0
    assert difference_bounds("calibrated", first, second) == (-2.0, 2.0)
    ratings = {"a": 3.5, "b": 1.0}
    assert difference_bounds("raw", ratings, first) == (-math.inf, math.inf)
    assert difference_bounds("raw", {"a": (2.0, 3.0)}, {"a": (0.0, 1.0)}) == (-1.0, 1.0)


def test_two_runs_alike_on_every_shared_unit_get_no_zero_width_interval() -> None:
    """Few non-binary units that agree exactly: no interval, never [0, 0]."""
    from cog_tasks.common.results import compare_units

    first = {"a": 0.8, "b": 1.0}
    difference = compare_units(first, dict(first), unit="trajectory").difference
    assert difference is not None and difference.value == 0.0
    assert difference.method == "none" and math.isnan(difference.low)
    assert difference.format() == "0.000 [no interval: 2 trajectories]"


def test_cogeval_lm_eval_documents_are_checked_against_the_data_as_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs

    folder = _write_cogeval_lm_eval(tmp_path, [["I cannot tell."]] * 2)
    ((run, _),) = read_lm_eval_runs(folder)
    # CogEval's upstream files have no pin: the check is the loaded files' "unverified".
    assert run.identity.data.startswith("unverified (file conversations/n7line/")
    (samples,) = folder.glob("samples_*.jsonl")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[1]["doc"]["prompt"] += " Hurry."
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    ((run, _),) = read_lm_eval_runs(folder)
    assert run.identity.data == (
        f"differs (1 document not in the pinned data, e.g. {rows[1]['doc']['id']})"
    )
    # Data that cannot be loaded (offline, no data folder, nothing cached): not recorded.
    monkeypatch.delenv("COG_TASKS_DATA", raising=False)
    monkeypatch.delenv("COG_TASKS_COGEVAL_HUB", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    ((run, _),) = read_lm_eval_runs(folder)
    assert run.identity.data == "unverified (not recorded)"
