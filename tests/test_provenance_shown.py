"""Provenance shown (issue 47): every report, summary and profile row says its data check.

A run's data check is the worst of its files' (differs > unverified > same content >
pinned; ``unverified (not recorded)`` where the source records none), and the weights
hash is the one its model name records. The slow test runs each benchmark's chance
answerer once (the reliability table's runs), sets the log's recorded checks, and reads
the check back from the report text, the summary JSON and the profile row.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from test_data_provenance import CONST, copy_coglm, shared_data  # noqa: F401 (a fixture)
from test_reliability_table import CHANCE_RUNS, run

from cog_tasks.commands.profile_views import render_html, render_markdown
from cog_tasks.common.provenance import DATA_PROVENANCE, data_verdict, recording_reads
from cog_tasks.common.results import Coverage, RunResults, UnitRecord, check_run
from cog_tasks.common.runs import UNRECORDED, RunIdentity
from cog_tasks.common.settings import DATA_ENV, hub_env
from cog_tasks.common.sources import DataHashWarning

BENCHMARKS = ("coglm", "cogeval", "cogbench", "egosocial")
WEIGHTS = "llamacpp:cc324af070c2ecbf"
"""The weights hash a llama.cpp run's model name records."""
STORED = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "profile"


def files(*checks: str) -> dict[str, Any]:
    """Recorded data provenance of one file per check, named ``f0``, ``f1``..."""
    return {"files": [{"path": f"f{n}", "check": check} for n, check in enumerate(checks)]}


@pytest.mark.parametrize(
    ("recorded", "verdict"),
    [
        (None, UNRECORDED),
        ({"sha256": "a" * 64}, UNRECORDED),
        (files(), "unverified (no data file read)"),
        (files("pinned", "pinned"), "pinned"),
        (files("pinned", "same content"), "same content"),
        (files("pinned", "unverified", "same content"), "unverified (file f1)"),
        (files("unverified", "differs", "pinned", "differs"), "differs (file f1 and 1 more)"),
        (files("pinned", "banana"), "unverified (file f1)"),
        # One name read twice (a local copy and a Hub file): the worse read counts.
        (
            {"files": [{"path": "a.json", "check": c} for c in ("differs", "pinned")]},
            "differs (file a.json)",
        ),
    ],
)
def test_the_verdict_is_the_worst_check_naming_its_file(recorded: object, verdict: str) -> None:
    assert data_verdict(recorded) == verdict


def test_a_checked_run_carries_the_check_and_the_weights_hash() -> None:
    model = f"llamacpp/qwen2.5-coder-1.5b@{WEIGHTS}"
    identity = RunIdentity.of("t@1", model, data="differs (file f0)")
    run = RunResults("b", identity, "item", (UnitRecord("u", {"m": 1.0}),), {"u": ""}, "log")
    coverage = check_run(run).coverage
    assert coverage.provenance() == f"data: differs (file f0); weights: {WEIGHTS}"
    assert coverage.note().endswith(coverage.provenance())
    assert coverage.note(provenance=False) == ""
    restored = Coverage.from_dict(coverage.as_dict())
    assert (restored.data, restored.weights) == ("differs (file f0)", WEIGHTS)
    # The check is no part of the measurement: runs on the same data pair, whatever it says.
    assert identity == RunIdentity.of("t@1", model) and "data" not in identity.as_dict()
    bare = check_run(replace(run, identity=RunIdentity.of("t@1", "hf/smollm2"))).coverage.as_dict()
    assert (bare["data"], bare["weights"]) == (UNRECORDED, None)


@pytest.mark.parametrize("name", sorted(path.name for path in STORED.iterdir() if path.is_dir()))
def test_rows_of_older_profiles_render_as_not_recorded(name: str) -> None:
    """A profile written before the field (it taken out), and a row without coverage at all."""
    profile = json.loads((STORED / name / "profile.json").read_text(encoding="utf-8"))
    assert all("data" in (row.get("coverage") or {}) for row in profile["rows"])  # stored now
    for row in profile["rows"]:
        for key in ("data", "weights"):
            row["coverage"].pop(key)
    profile["rows"][0]["coverage"] = None
    for page in (render_markdown(profile), render_html(profile)):
        assert page.count(f"data: {UNRECORDED}") == len(profile["rows"])


def test_data_build_card_records_each_file_read_with_its_check(
    shared_data: Path,  # noqa: F811 (the fixture)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cog_tasks.coglm.records import load_records

    copy = copy_coglm(shared_data, tmp_path / "data")
    items = json.loads(copy.read_text(encoding="utf-8"))
    items[0]["answer"] = (items[0]["answer"] + 1) % len(items[0]["candidates"])
    copy.write_text(json.dumps(items), encoding="utf-8")
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    with recording_reads() as reads, pytest.warns(DataHashWarning):
        load_records([CONST.code])
    (file,) = reads.files
    assert reads.card().splitlines()[1:] == [
        "## Provenance",
        "",
        "Each file read, checked against its pinned upstream file:",
        "",
        f"- `{CONST.relative_path}`: differs, from local, SHA-256 `{file.sha256}`",
    ]


def test_data_build_writes_the_provenance_into_the_card(tmp_path: Path) -> None:
    code, _, err = run(["data", "build", "egosocial", "--out", str(tmp_path / "out")])
    assert code == 0, err
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "\n## Provenance\n" in card
    assert "- `socialfirst.jsonl`: pinned, from local, SHA-256 `" in card


# ----------------------------------------------------------------- reports of real logs


@pytest.fixture(scope="module")
def chance_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One chance run of each benchmark on ``$COG_TASKS_DATA``: its log file."""
    tmp = tmp_path_factory.mktemp("chance")
    for command in CHANCE_RUNS:
        code, _, err = run(command.format(tmp=tmp).split())
        assert code == 0, err
    return {name: next((tmp / name).glob("*.eval")) for name in BENCHMARKS}


def with_verdict(log: Any, verdict: str) -> str:
    """Set the log's recorded checks to give ``verdict``; return the data check it shows."""
    metadata = log.eval.metadata
    if verdict == "unverified":  # a log written before data provenance was recorded
        del metadata[DATA_PROVENANCE]
        return UNRECORDED
    recorded = metadata[DATA_PROVENANCE]["files"]
    for file in recorded:
        file["check"] = "pinned"
    if verdict == "pinned":
        return "pinned"
    recorded[-1]["check"] = "differs"
    return f"differs (file {recorded[-1]['path']})"


def report(bench: str, logs: Path, out: Path) -> tuple[str, list[dict[str, Any]]]:
    """The benchmark's report text of the logs in ``logs``, and its summary's coverage entries."""
    folder = str(logs)
    if bench == "egosocial":
        assert run(["egosocial", "report", folder, "--out", str(out)])[0] == 0
        cells = json.loads((out / "summary.json").read_text(encoding="utf-8"))["cells"]
        return (out / "summary.md").read_text(encoding="utf-8"), [c["coverage"] for c in cells]
    if bench == "cogbench":
        code, text, _ = run(["cogbench", "report", folder, "--out", str(out)])
        curves = json.loads((out / "cogbench_curves.json").read_text(encoding="utf-8"))
        summary = [curve["coverage"] for curve in curves]
    elif bench == "cogeval":
        code, text, _ = run(["cogeval", "report", "--log", folder, "--out", str(out / "text")])
        rows = run(["cogeval", "report", "--log", folder, "--json", "--out", str(out)])[1]
        summary = [row["coverage"] for row in json.loads(rows)["rows"]]
    else:
        code, text, _ = run(["coglm", "report", folder])
        runs = run(["coglm", "report", folder, "--json"])[1]
        summary = [entry["coverage"] for entry in json.loads(runs).values()]
    assert code == 0
    return text, summary


def shown_everywhere(bench: str, log_file: Path, out: Path, data: str, weights: str) -> None:
    """``data: <data>; weights: <weights>`` in the report text, summary JSON and profile row."""
    from inspect_ai.log import read_eval_log

    line = f"data: {data}" + (f"; weights: {weights}" if weights else "")
    text, coverages = report(bench, log_file.parent, out)
    assert line in text
    counted = [coverage for coverage in coverages if coverage]  # references have none
    assert counted and all(c["data"] == data for c in counted)
    assert all(c["weights"] == (weights or None) for c in counted)
    headlines = import_module(f"cog_tasks.{bench}.inspect.headlines").headlines
    rows = [headline.as_row() for headline in headlines(read_eval_log(str(log_file)))]
    assert rows and all(row["coverage"]["data"] == data for row in rows)
    profile = {"model": "m", "preset": "smoke", "rows": rows, "paper": [], "versions": {}}
    table = [row for row in render_markdown(profile).splitlines() if row.startswith(f"| {bench}")]
    assert len(table) == len(rows) and all(line in row for row in table)
    assert render_html(profile).count(line) >= len(rows)  # a note may repeat it


@pytest.mark.slow
@pytest.mark.parametrize("verdict", ["pinned", "differs", "unverified"])
@pytest.mark.parametrize("bench", BENCHMARKS)
def test_the_data_check_reaches_report_summary_and_profile_row(
    bench: str, verdict: str, chance_logs: dict[str, Path], tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    log = read_eval_log(str(chance_logs[bench]))
    data = with_verdict(log, verdict)
    log.eval.model = f"llamacpp/qwen2.5-coder-1.5b@{WEIGHTS}"
    log_file = tmp_path / "logs" / chance_logs[bench].name
    write_eval_log(log, str(log_file))
    shown_everywhere(bench, log_file, tmp_path / "out", data, WEIGHTS)


@pytest.mark.slow
def test_a_run_on_tampered_shared_data_shows_differs(
    shared_data: Path,  # noqa: F811 (the fixture)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A copy of ``$COG_TASKS_DATA`` with one CogLM answer edited: the run says ``differs``."""
    shutil.copytree(shared_data / "coglm", tmp_path / "data" / "coglm")
    copy = tmp_path / "data" / "coglm" / CONST.relative_path
    items = json.loads(copy.read_text(encoding="utf-8"))
    items[0]["answer"] = (items[0]["answer"] + 1) % len(items[0]["candidates"])
    copy.write_text(json.dumps(items), encoding="utf-8")
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    command = f"coglm chance -T abilities=const --limit 2 --log-dir {tmp_path / 'logs'}"
    with pytest.warns(DataHashWarning, match=str(copy)):
        code, _, err = run(command.split())
    assert code == 0, err
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    data = f"differs (file {CONST.relative_path})"
    shown_everywhere("coglm", log_file, tmp_path / "out", data, "")


def lm_eval_data_shown(runs: Path) -> str:
    """The data check ``coglm report`` shows for the one run at ``runs``, in text and JSON."""
    code, text, err = run(["coglm", "report", str(runs)])
    assert code == 0, err
    (entry,) = json.loads(run(["coglm", "report", str(runs), "--json"])[1]).values()
    assert f"data: {entry['coverage']['data']}" in text and entry["coverage"]["weights"] is None
    return entry["coverage"]["data"]


def test_lm_eval_outputs_are_checked_against_the_data_as_loaded(
    shared_data: Path,  # noqa: F811 (the fixture)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """lm-eval records no data check: its documents are compared with the data as loaded."""
    from coglm_lm_eval_files import lm_eval_hash, write_lm_eval_run

    from cog_tasks.coglm.lm_eval.results import results_of_file
    from cog_tasks.coglm.records import load_records

    runs = tmp_path / "runs"
    records = load_records(["const"])
    write_lm_eval_run(runs / "m", {"const": [True, False, True]}, records=records)
    assert lm_eval_data_shown(runs) == "pinned"
    # One document edited (its doc_hash too, so the file's own check passes): it differs.
    (samples,) = (runs / "m").glob("samples_*.jsonl")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[1]["doc"]["question"] += " Or not?"
    rows[1]["doc_hash"] = lm_eval_hash(rows[1]["doc"])
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    shown = "differs (1 document not in the pinned data, e.g. const-0001)"
    assert lm_eval_data_shown(runs) == shown
    # The tokenizer's fields are not the item's data: other token counts still read pinned.
    write_lm_eval_run(runs / "m", {"const": [True, False, True]}, records=records)
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    for row in rows:
        row["doc"]["context_tokens"] = 12
        row["doc_hash"] = lm_eval_hash(row["doc"])
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert lm_eval_data_shown(runs) == "pinned"
    # Data that cannot be loaded (offline, no data folder, nothing cached): unverified. (The
    # report itself needs CogLM's data for the items it declares, so its reader is asked.)
    monkeypatch.delenv(DATA_ENV)
    monkeypatch.delenv(hub_env("coglm"), raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    (results,) = (runs / "m").glob("results_*.json")
    (found,) = results_of_file(results, declared={})
    assert found[0].identity.data == UNRECORDED
    # Made-up documents are not the benchmark's.
    monkeypatch.setenv(DATA_ENV, str(shared_data))
    write_lm_eval_run(runs / "m", {"const": [True, False]})
    assert lm_eval_data_shown(runs) == (
        "differs (2 documents not in the pinned data, e.g. const-0000)"
    )
