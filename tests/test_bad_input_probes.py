"""Issue 27's bad-input probes, as one table run through the real entry points.

:data:`PROBES` are rows of issue 47's reliability table
(``tests/test_reliability_table.py``), which runs them; the other probes stay here.

Each probe breaks one input: a data file under a temporary ``COG_TASKS_DATA``
copy, a predictions or score file, a task parameter (``-T`` of a ``chance``
command, which builds the task as ``inspect eval`` does), a log folder, or a
top-level command's argument. Every probe must fail the same way: exit code 2
and one line on stderr naming the file (and its line or record) or the
parameter, no traceback. Argparse's own refusals (an unknown choice, a value
of the wrong type) print their usage lines first; the error is still one line.

The task-construction probes call the ``@task`` functions directly, as
``inspect eval -T`` does, and expect a ``ValueError`` naming the parameter.
The must-not-merge probes run two seeded chance runs that differ in one
identity field and expect two report rows.

Data probes copy the needed files from ``COG_TASKS_DATA`` (the shared data)
into a temporary folder and break the copy; the shared folder is never
written. Downloads are never reached: the cache is an empty temporary folder
and the Hub is offline.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cog_tasks.cli import main
from cog_tasks.cogbench.loader import sample_dir

SHARED = Path(os.environ["COG_TASKS_DATA"])
COGLM_FILE = "first_stage/exist.json"
COGBENCH_EVAL = "english/eval_cogbench_a.json"
HUB_SETTINGS = [f"COG_TASKS_{name}_HUB" for name in ("COGLM", "COGEVAL", "COGBENCH", "EGOSOCIAL")]


# ----------------------------------------------------------------------------- file makers


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (parents created) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def jsonl(rows: list[Any]) -> str:
    """Rows as JSON lines."""
    return "".join(json.dumps(row) + "\n" for row in rows)


def data_copy(tmp: Path, benchmark: str) -> Path:
    """Copy one benchmark's shared data into ``tmp/data`` and return its folder there."""
    target = tmp / "data" / benchmark
    shutil.copytree(SHARED / benchmark, target)
    return target


def edit_json(path: Path, change: Callable[[Any], Any]) -> None:
    """Rewrite a JSON file with ``change`` applied to its content."""
    path.write_text(json.dumps(change(json.loads(path.read_text()))), encoding="utf-8")


def edit_lines(path: Path, change: Callable[[list[str]], list[str]]) -> None:
    """Rewrite a text file with ``change`` applied to its lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("".join(f"{line}\n" for line in change(lines)), encoding="utf-8")


def coglm_data(change: Callable[[list[dict]], Any]) -> Callable[[Path], None]:
    """A setup that copies the CogLM data and changes the items of :data:`COGLM_FILE`."""

    def setup(tmp: Path) -> None:
        edit_json(data_copy(tmp, "coglm") / COGLM_FILE, change)

    return setup


def coglm_text(text: str) -> Callable[[Path], None]:
    """A setup that copies the CogLM data and replaces :data:`COGLM_FILE` with ``text``."""

    def setup(tmp: Path) -> None:
        write(data_copy(tmp, "coglm") / COGLM_FILE, text)

    return setup


def ego_lines(name: str, change: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    """A setup that copies the EgoSocialArena data and changes the lines of one file."""

    def setup(tmp: Path) -> None:
        edit_lines(data_copy(tmp, "egosocial") / name, change)

    return setup


def ego_empty_cached_download(tmp: Path) -> None:
    """An empty data folder and an empty cached download of ``socialfirst.jsonl``."""
    from cog_tasks.egosocial.authors import SOURCE

    (tmp / "data").mkdir()
    write(tmp / "cache" / "egosocial" / SOURCE.pinned() / "socialfirst.jsonl", "")


def cogbench_copy(change: Callable[[list[dict]], Any]) -> Callable[[Path], None]:
    """A setup that copies the bundled CogBench sample set to ``tmp/cb``, changing its eval file."""

    def setup(tmp: Path) -> None:
        shutil.copytree(sample_dir(), tmp / "cb")
        edit_json(tmp / "cb" / COGBENCH_EVAL, change)

    return setup


def eval_records() -> list[dict]:
    """The bundled CogBench eval records (the sample set)."""
    return json.loads((sample_dir() / COGBENCH_EVAL).read_text(encoding="utf-8"))


def eval_file(content: Callable[[], str]) -> Callable[[Path], None]:
    """A setup that writes ``tmp/eval.json``."""
    return lambda tmp: (write(tmp / "eval.json", content()), None)[1]


def file_setup(name: str, text: str) -> Callable[[Path], None]:
    """A setup that writes ``text`` to ``tmp/name``."""
    return lambda tmp: (write(tmp / name, text), None)[1]


COGLM_ROW = {"ability": "const", "choices": ["a", "b", "c"], "answer": 0, "prediction": "A"}
COGEVAL_ROW = {"condition": "valuePath", "expected": ["Answer: 1,2"], "response": "Answer: 1,2"}
SCORES_HEADER = "model,graph,domain,condition,temperature,score,max_score\n"
SCORES_ROW = "m,n7line,ordRooms,valuePath,0,1,1\n"
DEEP_JSON = "[" * 100_000 + "]" * 100_000
"""JSON that ``json`` reads with a ``RecursionError``."""
PROFILE_ROW = {
    "benchmark": "b",
    "measure": "m",
    "value": 0.5,
    "n": 1,
    "unit": "item",
    "units": {"u1": [1.0, 1.0]},
    "run": {"task": "t@1", "model": "m", "roles": {}, "arguments": {}},
}
"""A ``profile.json`` row that ``profile compare`` reads."""


def profile_row(**change: Any) -> Callable[[Path], None]:
    """A setup that writes ``tmp/a.json``: a profile of one :data:`PROFILE_ROW` changed."""
    row = PROFILE_ROW | change
    return file_setup("a.json", json.dumps({"model": "m", "preset": "smoke", "rows": [row]}))


LINE_GRAPH = {"kind": "path", "directed": False, "states": ["1", "2"], "edges": [["1", "2"]]}
"""A CogEval graph context of two rooms, 1 and 2."""


# ----------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Probe:
    """One bad input given to a ``cog-tasks`` command.

    Attributes:
        id: Short test id.
        argv: The command's arguments; ``{tmp}`` is the probe's temporary folder.
        names: What the error line must contain (``{tmp}`` formatted too): the file
            and line or record, or the parameter.
        setup: Writes the probe's files under the temporary folder.
        data: Point ``COG_TASKS_DATA`` at ``{tmp}/data`` (created empty if the setup did not).
        env: More environment settings (``{tmp}`` formatted).
    """

    id: str
    argv: tuple[str, ...]
    names: tuple[str, ...]
    setup: Callable[[Path], None] | None = None
    data: bool = False
    env: dict[str, str] = field(default_factory=dict)


def probe(id: str, argv: str, *names: str, **options: Any) -> pytest.param:
    """A :class:`Probe` from a command line (split on spaces) and the names its error must hold."""
    entry = Probe(id, tuple(argv.split()), names, **options)
    return pytest.param(entry, id=id)


PROBES = [
    # --- top-level commands
    probe("model-path-unknown", "model-path nope", "nope"),
    probe(
        "data-build-out-is-a-file",
        "data build coglm --out {tmp}/file.txt",
        "{tmp}/file.txt",
        setup=file_setup("file.txt", "not a folder\n"),
    ),
    probe("data-push-offline", "data push coglm --repo-id someone/coglm", "offline"),
    probe(
        "data-folder-missing",
        "data build coglm --out {tmp}/out",
        "{tmp}/nowhere",
        env={"COG_TASKS_DATA": "{tmp}/nowhere"},
    ),
    probe("data-folder-empty-coglm", "data build coglm --out {tmp}/out", "coglm", data=True),
    probe(
        "data-folder-empty-egosocial",
        "data build egosocial --out {tmp}/out",
        "egosocial",
        data=True,
    ),
    probe("data-unknown-benchmark", "data build nope", "nope"),
    probe(
        "data-folder-missing-egosocial-chance",
        "egosocial chance egosocial_static --limit 1 --log-dir {tmp}/logs",
        "{tmp}/nowhere",
        env={"COG_TASKS_DATA": "{tmp}/nowhere"},
    ),
    probe(
        "data-folder-empty-coglm-chance",
        "coglm chance --limit 1 --log-dir {tmp}/logs",
        "coglm/first_stage/exist.json",
        "Ways out",
        data=True,
    ),
    probe(
        "data-folder-empty-cogeval-chance",
        "cogeval chance -T graphs=n7line --limit 1 --log-dir {tmp}/logs",
        "cogeval/",
        "Ways out",
        data=True,
    ),
    # --- CogLM data (a local copy, read by data build and by the chance task)
    probe(
        "coglm-data-repeated-items",
        "data build coglm --out {tmp}/out",
        "exist.json",
        "repeats",
        setup=coglm_data(lambda items: [*items, items[0], items[1]]),
        data=True,
    ),
    probe(
        "coglm-data-repeated-items-chance",
        "coglm chance --limit 1 --log-dir {tmp}/logs",
        "exist.json",
        "repeats",
        setup=coglm_data(lambda items: [*items, items[0], items[1]]),
        data=True,
    ),
    probe(
        "coglm-data-empty-file",
        "data build coglm --out {tmp}/out",
        "exist.json",
        "empty",
        setup=coglm_text(""),
        data=True,
    ),
    probe(
        "coglm-data-truncated",
        "data build coglm --out {tmp}/out",
        "exist.json",
        setup=coglm_text('[{"question": "Is it there?", "candidates": ["yes", '),
        data=True,
    ),
    probe(
        "coglm-data-missing-field",
        "data build coglm --out {tmp}/out",
        "exist.json",
        "answer",
        setup=coglm_data(lambda items: [{k: v for k, v in items[0].items() if k != "answer"}]),
        data=True,
    ),
    probe(
        "coglm-data-answer-out-of-range",
        "data build coglm --out {tmp}/out",
        "exist.json",
        setup=coglm_data(lambda items: [{**items[0], "answer": 9}, *items[1:]]),
        data=True,
    ),
    probe(
        "coglm-data-answer-wrong-type",
        "data build coglm --out {tmp}/out",
        "exist.json",
        setup=coglm_data(lambda items: [{**items[0], "answer": "first"}, *items[1:]]),
        data=True,
    ),
    probe(
        "coglm-data-not-a-list",
        "data build coglm --out {tmp}/out",
        "exist.json",
        setup=coglm_data(lambda items: {"items": items}),
        data=True,
    ),
    probe(
        "coglm-data-file-missing",
        "data build coglm --out {tmp}/out",
        "exist.json",
        setup=lambda tmp: (data_copy(tmp, "coglm") / COGLM_FILE).unlink(),
        data=True,
    ),
    # --- EgoSocialArena data
    probe(
        "ego-data-empty-socialfirst",
        "data build egosocial --out {tmp}/out",
        "socialfirst.jsonl",
        "empty",
        setup=ego_lines("socialfirst.jsonl", lambda lines: []),
        data=True,
    ),
    probe(
        "ego-data-empty-socialfirst-chance",
        "egosocial chance egosocial_static --limit 1 --log-dir {tmp}/logs",
        "socialfirst.jsonl",
        "empty",
        setup=ego_lines("socialfirst.jsonl", lambda lines: []),
        data=True,
    ),
    probe(
        "ego-data-duplicated-line",
        "data build egosocial --out {tmp}/out",
        "blackjack.jsonl",
        "repeats line 1",
        setup=ego_lines("blackjack.jsonl", lambda lines: [*lines, lines[0]]),
        data=True,
    ),
    probe(
        "ego-data-duplicated-line-chance",
        "egosocial chance egosocial_static --limit 1 --log-dir {tmp}/logs",
        "counterfact.jsonl",
        "repeats line 1",
        setup=ego_lines("counterfact.jsonl", lambda lines: [*lines, lines[0]]),
        data=True,
    ),
    probe(
        "ego-data-truncated-line",
        "data build egosocial --out {tmp}/out",
        "counterfact.jsonl:10",
        setup=ego_lines("counterfact.jsonl", lambda lines: [*lines[:-1], lines[-1][:40]]),
        data=True,
    ),
    probe(
        "ego-data-line-not-an-object",
        "data build egosocial --out {tmp}/out",
        "counterfact.jsonl:2",
        setup=ego_lines("counterfact.jsonl", lambda lines: [lines[0], "[1, 2]", *lines[2:]]),
        data=True,
    ),
    probe(
        "ego-data-missing-field",
        "data build egosocial --out {tmp}/out",
        "counterfact.jsonl:1",
        "Story",
        setup=ego_lines(
            "counterfact.jsonl",
            lambda lines: [
                json.dumps(dict(list(json.loads(lines[0]).items())[1:])),
                *lines[1:],
            ],
        ),
        data=True,
    ),
    probe(
        "ego-data-empty-cached-download",
        "data build egosocial --out {tmp}/out",
        "cache/egosocial",
        "socialfirst.jsonl",
        setup=ego_empty_cached_download,
        data=True,
    ),
    # --- CogBench data (a copy of the bundled sample set as -T source=FOLDER)
    probe(
        "cogbench-data-duplicate-record",
        "cogbench chance -T source={tmp}/cb -T agent=cot -T judge=false --limit 1 "
        "--log-dir {tmp}/logs",
        "eval_cogbench_a.json",
        "repeats",
        setup=cogbench_copy(lambda records: [*records, records[2]]),
    ),
    probe(
        "cogbench-data-empty-list",
        "cogbench chance -T source={tmp}/cb -T agent=cot -T judge=false --limit 1 "
        "--log-dir {tmp}/logs",
        "eval_cogbench_a.json",
        setup=cogbench_copy(lambda records: []),
    ),
    probe(
        "cogbench-data-folder-missing",
        "cogbench chance -T source={tmp}/nowhere -T agent=cot --limit 1 --log-dir {tmp}/logs",
        "{tmp}/nowhere",
    ),
    # --- CogLM predictions (coglm score)
    probe("coglm-score-missing-file", "coglm score {tmp}/none.jsonl", "none.jsonl"),
    probe(
        "coglm-score-empty",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl",
        setup=file_setup("p.jsonl", ""),
    ),
    probe(
        "coglm-score-non-json",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:2",
        setup=file_setup("p.jsonl", jsonl([COGLM_ROW]) + "not json\n"),
    ),
    probe(
        "coglm-score-truncated-line",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:2",
        setup=file_setup("p.jsonl", jsonl([COGLM_ROW]) + jsonl([COGLM_ROW])[:30]),
    ),
    probe(
        "coglm-score-missing-column",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        "answer",
        setup=file_setup("p.jsonl", jsonl([{k: v for k, v in COGLM_ROW.items() if k != "answer"}])),
    ),
    probe(
        "coglm-score-unknown-ability",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        "nope",
        setup=file_setup("p.jsonl", jsonl([{**COGLM_ROW, "ability": "nope"}])),
    ),
    probe(
        "coglm-score-answer-wrong-type",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        setup=file_setup("p.jsonl", jsonl([{**COGLM_ROW, "answer": "zero"}])),
    ),
    probe(
        "coglm-score-answer-out-of-range",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        setup=file_setup("p.jsonl", jsonl([{**COGLM_ROW, "answer": 7}])),
    ),
    probe(
        "coglm-score-row-not-object",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        setup=file_setup("p.jsonl", "[1, 2]\n"),
    ),
    probe(
        "coglm-score-authors-format-wrong",
        "coglm score --format authors {tmp}/p.json",
        "p.json",
        setup=file_setup("p.json", "[1, 2]\n"),
    ),
    probe("coglm-score-unknown-extractor", "coglm score --extractor nope x.jsonl", "--extractor"),
    probe(
        "coglm-coc-leak-not-a-result",
        "coglm coc-leak {tmp}/r.json",
        "r.json",
        setup=file_setup("r.json", '{"a": 1}\n'),
    ),
    probe("coglm-coc-leak-missing", "coglm coc-leak {tmp}/none.json", "none.json"),
    # --- CogEval replies and score tables
    probe(
        "cogeval-score-missing-file",
        "cogeval score {tmp}/none.jsonl --out {tmp}/o.jsonl",
        "none.jsonl",
    ),
    probe(
        "cogeval-score-empty",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl",
        setup=file_setup("r.jsonl", ""),
    ),
    probe(
        "cogeval-score-non-json",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:2",
        setup=file_setup("r.jsonl", jsonl([COGEVAL_ROW]) + "{oops\n"),
    ),
    probe(
        "cogeval-score-missing-column",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "expected",
        setup=file_setup("r.jsonl", jsonl([{"condition": "valuePath", "response": "x"}])),
    ),
    probe(
        "cogeval-score-wrong-type",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "expected",
        setup=file_setup("r.jsonl", jsonl([{**COGEVAL_ROW, "expected": 3}])),
    ),
    probe(
        "cogeval-score-row-not-object",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        setup=file_setup("r.jsonl", '"just text"\n'),
    ),
    probe(
        "cogeval-analyze-broken-csv",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        setup=file_setup("s.csv", SCORES_HEADER + 'm,n7line,"ordRooms,valuePath,0,1,1\n'),
    ),
    probe(
        "cogeval-analyze-missing-column",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        "max_score",
        setup=file_setup("s.csv", "model,graph,domain,condition,temperature,score\nm,a,b,c,0,1\n"),
    ),
    probe(
        "cogeval-analyze-wrong-type",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        "row 2",
        setup=file_setup(
            "s.csv", SCORES_HEADER + SCORES_ROW + "m,n7line,ordRooms,valuePath,0,x,1\n"
        ),
    ),
    probe(
        "cogeval-analyze-unknown-condition",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        "row 1",
        setup=file_setup("s.csv", SCORES_HEADER + "m,n7line,ordRooms,nope,0,1,1\n"),
    ),
    probe(
        "cogeval-analyze-empty",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        setup=file_setup("s.csv", ""),
    ),
    probe(
        "cogeval-analyze-header-only",
        "cogeval analyze {tmp}/s.csv",
        "s.csv",
        setup=file_setup("s.csv", SCORES_HEADER),
    ),
    probe(
        "cogeval-analyze-jsonl-non-json",
        "cogeval analyze {tmp}/s.jsonl",
        "s.jsonl",
        "2",
        setup=file_setup("s.jsonl", json.dumps({"model": "m"}) + "\n{oops\n"),
    ),
    probe(
        "cogeval-analyze-wrong-extension",
        "cogeval analyze {tmp}/s.txt",
        "s.txt",
        setup=file_setup("s.txt", SCORES_HEADER + SCORES_ROW),
    ),
    probe("cogeval-analyze-missing-file", "cogeval analyze {tmp}/none.csv", "none.csv"),
    probe(
        "cogeval-report-broken-csv",
        "cogeval report {tmp}/s.csv",
        "s.csv",
        setup=file_setup("s.csv", SCORES_HEADER + 'm,n7line,"ordRooms,valuePath,0,1,1\n'),
    ),
    # --- CogBench eval files (cogbench score, its old name evaluate, agreement)
    probe(
        "cogbench-score-duplicate-record",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        "record 16 repeats record 3",
        setup=eval_file(lambda: json.dumps([*eval_records(), eval_records()[3]])),
    ),
    probe(
        "cogbench-evaluate-duplicate-record",
        "cogbench evaluate {tmp}/eval.json --method CoT",
        "eval.json",
        "record 16 repeats record 3",
        setup=eval_file(lambda: json.dumps([*eval_records(), eval_records()[3]])),
    ),
    probe(
        "cogbench-evaluate-empty-list",
        "cogbench evaluate {tmp}/eval.json --method CoT",
        "eval.json",
        setup=eval_file(lambda: "[]"),
    ),
    probe(
        "cogbench-score-empty-file",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        setup=eval_file(lambda: ""),
    ),
    probe(
        "cogbench-score-non-json",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        setup=eval_file(lambda: json.dumps(eval_records())[:-40]),
    ),
    probe(
        "cogbench-score-missing-file", "cogbench score {tmp}/none.json --method CoT", "none.json"
    ),
    probe(
        "cogbench-score-unknown-method",
        "cogbench score {tmp}/eval.json --method Nope",
        "{tmp}/eval.json",
        "Nope",
        setup=eval_file(lambda: json.dumps(eval_records())),
    ),
    probe(
        "cogbench-score-record-wrong-type",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        "record 1",
        setup=eval_file(lambda: json.dumps([eval_records()[0], "text", *eval_records()[2:]])),
    ),
    probe(
        "cogbench-score-record-missing-key",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        "record 0",
        "iteration",
        setup=eval_file(
            lambda: json.dumps(
                [{k: v for k, v in eval_records()[0].items() if k != "iteration"}]
                + eval_records()[1:]
            )
        ),
    ),
    probe(
        "cogbench-score-not-a-list",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        setup=eval_file(lambda: json.dumps({"records": eval_records()})),
    ),
    probe(
        "cogbench-agreement-one-rater",
        "cogbench agreement {tmp}/eval.json",
        "at least two raters",
        setup=eval_file(lambda: json.dumps(eval_records())),
    ),
    probe(
        "cogbench-agreement-missing-file",
        "cogbench agreement {tmp}/eval.json {tmp}/none.json",
        "none.json",
        setup=eval_file(lambda: json.dumps(eval_records())),
    ),
    probe(
        "cogbench-export-not-a-log",
        "cogbench export {tmp}/notes.json --out {tmp}/out.json",
        "notes.json",
        setup=file_setup("notes.json", '{"results": {}}'),
    ),
    probe(
        "cogbench-export-missing-log",
        "cogbench export {tmp}/none.eval --out {tmp}/o.json",
        "none.eval",
    ),
    # --- every report command given a log folder that does not exist
    probe("coglm-report-unknown-folder", "coglm report {tmp}/nowhere", "{tmp}/nowhere"),
    probe("coglm-table5-unknown-folder", "coglm table5 {tmp}/nowhere", "{tmp}/nowhere"),
    probe("coglm-table7-unknown-folder", "coglm table7 {tmp}/nowhere", "{tmp}/nowhere"),
    probe(
        "coglm-agreement-unknown-log",
        "coglm agreement --inspect-log {tmp}/nowhere --lm-eval {tmp}/nowhere2",
        "{tmp}/nowhere",
    ),
    probe("cogeval-report-unknown-folder", "cogeval report --log {tmp}/nowhere", "{tmp}/nowhere"),
    probe("cogeval-analyze-unknown-folder", "cogeval analyze --log {tmp}/nowhere", "{tmp}/nowhere"),
    probe("cogeval-exp2-unknown-folder", "cogeval exp2 --log {tmp}/nowhere", "{tmp}/nowhere"),
    probe(
        "cogeval-report-folder-twice",
        "cogeval report --log {tmp}/logs --log {tmp}/logs/",
        "{tmp}/logs",
        "once",
        setup=file_setup("logs/notes.txt", "no logs here\n"),
    ),
    probe(
        "cogeval-analyze-folder-inside-another",
        "cogeval analyze --log {tmp}/logs --log {tmp}/logs/a",
        "{tmp}/logs/a",
        "once",
        setup=file_setup("logs/a/notes.txt", "no logs here\n"),
    ),
    probe("cogbench-report-unknown-folder", "cogbench report {tmp}/nowhere", "{tmp}/nowhere"),
    probe("egosocial-report-unknown-folder", "egosocial report {tmp}/nowhere", "{tmp}/nowhere"),
    probe(
        "egosocial-report-folder-of-non-logs",
        "egosocial report {tmp}/logs",
        "{tmp}/logs",
        setup=file_setup("logs/notes.json", '{"a": 1}'),
    ),
    # --- task parameters, through the chance commands (the task is built as inspect eval does)
    probe(
        "cogbench-iterations-text", "cogbench chance -T source=sample -T iterations=x", "iterations"
    ),
    probe(
        "cogbench-iterations-zero", "cogbench chance -T source=sample -T iterations=0", "iterations"
    ),
    probe(
        "cogbench-recall-k-negative", "cogbench chance -T source=sample -T recall_k=-3", "recall_k"
    ),
    probe("cogbench-agent-unknown", "cogbench chance -T source=sample -T agent=nope", "agent"),
    probe("cogbench-subset-unknown", "cogbench chance -T source=sample -T subset=z", "subset"),
    probe(
        "cogbench-weights-unknown", "cogbench chance -T source=sample -T weights=cubic", "weights"
    ),
    probe(
        "cogbench-forgetting-rate-out-of-range",
        "cogbench chance -T source=sample -T forgetting_rate=2",
        "forgetting_rate",
    ),
    probe("cogbench-judge-wrong-type", "cogbench chance -T source=sample -T judge=maybe", "judge"),
    probe("cogbench-stm-unknown", "cogbench chance -T source=sample -T stm=nope", "stm"),
    probe(
        "cogbench-topics-unknown", "cogbench chance -T source=sample -T topics=Nowhere", "Nowhere"
    ),
    probe("cogbench-unknown-parameter", "cogbench chance -T source=sample -T colour=red", "colour"),
    probe(
        "ego-static-unknown-parameter", "egosocial chance egosocial_static -T colour=red", "colour"
    ),
    probe(
        "ego-static-source-unknown", "egosocial chance egosocial_static -T source=nope", "source"
    ),
    probe(
        "ego-static-scenarios-unknown",
        "egosocial chance egosocial_static -T scenarios=nope",
        "scenarios",
    ),
    probe(
        "ego-static-size-negative",
        "egosocial chance egosocial_static -T source=generated -T size=-1",
        "size",
    ),
    probe("ego-static-seed-text", "egosocial chance egosocial_static -T seed=x", "seed"),
    probe(
        "ego-static-circular-wrong-type",
        "egosocial chance egosocial_static -T circular=maybe",
        "circular",
    ),
    probe(
        "ego-static-data-file-missing",
        "egosocial chance egosocial_static -T scenarios=daily_life -T data_file={tmp}/none.jsonl",
        "none.jsonl",
    ),
    probe(
        "ego-static-data-file-non-json",
        "egosocial chance egosocial_static -T scenarios=daily_life -T data_file={tmp}/d.jsonl",
        "d.jsonl:1",
        setup=file_setup("d.jsonl", "{oops\n"),
    ),
    probe(
        "ego-guessing-level-out-of-range",
        "egosocial chance egosocial_number_guessing -T level=9",
        "level",
    ),
    probe(
        "ego-guessing-rounds-zero",
        "egosocial chance egosocial_number_guessing -T rounds=0",
        "rounds",
    ),
    probe("ego-holdem-hands-text", "egosocial chance egosocial_holdem -T hands=x", "hands"),
    probe(
        "ego-holdem-opponent-unknown",
        "egosocial chance egosocial_holdem -T opponent=nope",
        "opponent",
    ),
    probe(
        "ego-holdem-opponents-unknown",
        "egosocial chance egosocial_holdem -T opponents=nope",
        "opponents",
        "dqn, rules",
    ),
    probe("ego-chance-unknown-task", "egosocial chance egosocial_nope", "egosocial_nope"),
    probe("coglm-abilities-unknown", "coglm chance -T abilities=nope", "nope"),
    probe("coglm-per-ability-zero", "coglm chance -T per_ability=0", "per_ability"),
    probe("coglm-sc-samples-text", "coglm chance -T sc_samples=x", "sc_samples"),
    probe("coglm-prompt-unknown", "coglm chance -T prompt=nope", "prompt"),
    probe("coglm-extractor-unknown", "coglm chance -T extractor=nope", "extractor"),
    probe("coglm-chance-rule-unknown", "coglm chance -T chance=nope", "chance"),
    probe(
        "coglm-unknown-parameter",
        "coglm chance -T colour=red",
        "colour",
    ),
    probe("cogeval-graphs-unknown", "cogeval chance -T graphs=nope", "nope"),
    probe("cogeval-cot-unknown", "cogeval chance -T cot=maybe", "cot"),
    probe("cogeval-temperatures-text", "cogeval chance -T temperatures=x", "temperatures"),
    probe("cogeval-experiment-unknown", "cogeval chance -T experiment=3", "experiment"),
    probe("cogeval-design-unknown", "cogeval chance -T design=nope", "design"),
    probe("cogeval-seed-text", "cogeval chance -T seed=x", "seed"),
    probe(
        "cogeval-unknown-parameter",
        "cogeval chance -T colour=red",
        "colour",
    ),
    probe("chance-limit-text", "coglm chance --limit x", "--limit"),
    probe("chance-seed-text", "egosocial chance egosocial_static --seed x", "--seed"),
    probe("chance-task-argument-without-value", "coglm chance -T abilities", "abilities"),
    # --- issue 40: tracebacks that are now one line
    probe(
        "deep-json-coglm-score",
        "coglm score {tmp}/p.jsonl",
        "p.jsonl:1",
        "too deep",
        setup=file_setup("p.jsonl", DEEP_JSON + "\n"),
    ),
    probe(
        "deep-json-cogbench-score",
        "cogbench score {tmp}/eval.json --method CoT",
        "eval.json",
        "too deep",
        setup=eval_file(lambda: DEEP_JSON),
    ),
    probe(
        "deep-json-coglm-data",
        "coglm chance --limit 1 --log-dir {tmp}/logs",
        "exist.json",
        "too deep",
        setup=coglm_text(DEEP_JSON),
        data=True,
    ),
    probe(
        "deep-json-egosocial-data",
        "data build egosocial --out {tmp}/out",
        "counterfact.jsonl:2",
        "too deep",
        setup=ego_lines("counterfact.jsonl", lambda lines: [lines[0], DEEP_JSON, *lines[2:]]),
        data=True,
    ),
    probe("task-argument-broken-yaml", "coglm chance -T abilities=[1,", "abilities=[1,", "YAML"),
    probe(
        "task-argument-yaml-tag",
        "coglm chance -T abilities=!!python/name:os.system",
        "abilities",
        "YAML",
    ),
    probe(
        "data-folder-of-unknown-user",
        "coglm chance --limit 1 --log-dir {tmp}/logs",
        "~nosuchuser/data",
        "COG_TASKS_DATA",
        env={"COG_TASKS_DATA": "~nosuchuser/data"},
    ),
    probe(
        "cogbench-source-of-unknown-user",
        "cogbench chance -T source=~nosuchuser/cb --limit 1 --log-dir {tmp}/logs",
        "~nosuchuser/cb",
    ),
    probe(
        "cogbench-topics-differ-in-case",
        "cogbench chance -T source={tmp}/cb -T agent=cot -T judge=false --limit 1 "
        "--log-dir {tmp}/logs",
        "'outdoor adventures'",
        "'Outdoor Adventures'",
        "same sample id",
        setup=cogbench_copy(
            lambda records: [
                *records[:8],
                *(
                    {**r, "topic": "outdoor adventures", "profile": records[0]["profile"]}
                    for r in records[8:12]
                ),
                *records[12:],
            ]
        ),
    ),
    probe(
        "coglm-data-lone-surrogate",
        "coglm chance --limit 1 --log-dir {tmp}/logs",
        "exist.json",
        "[0].question",
        "surrogate",
        setup=coglm_data(lambda items: [{**items[0], "question": "\ud800"}, *items[1:]]),
        data=True,
    ),
    probe(
        "cogeval-score-lone-surrogate",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "surrogate",
        setup=file_setup("r.jsonl", jsonl([{**COGEVAL_ROW, "response": "\ud800"}])),
    ),
    probe(
        "deep-json-cogeval-score",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "too deep",
        setup=file_setup("r.jsonl", DEEP_JSON + "\n"),
    ),
    probe(
        "deep-json-profile-compare",
        "profile compare {tmp}/a.json {tmp}/b.json",
        "a.json",
        "too deep",
        setup=lambda tmp: (write(tmp / "a.json", DEEP_JSON), write(tmp / "b.json", "{}"), None)[2],
    ),
    probe(
        "profile-compare-value-text",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "value 'high'",
        setup=profile_row(value="high"),
    ),
    probe(
        "profile-compare-unit-value-short",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "units",
        setup=profile_row(units={"u1": [1.0]}),
    ),
    probe(
        "profile-compare-payload-without-statistic",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "units",
        setup=profile_row(units={"u1": {"1": [1.0, 2.0]}}),
    ),
    probe(
        "profile-compare-statistic-outside-cog-tasks",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "statistic 'os:system' is not a registered headline statistic",
        setup=profile_row(units={"u1": {"1": [1.0]}}, statistic="os:system"),
    ),
    probe(  # a cog_tasks function that is no statistic: it would run the payload's keys
        "profile-compare-statistic-not-registered",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "is not a registered headline statistic",
        setup=profile_row(
            units={"u1": {"/bin/echo": [1.0]}}, statistic="cog_tasks.common.files:start_child"
        ),
    ),
    probe(
        "profile-compare-payload-entries-uneven",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "entries of one length",
        setup=profile_row(
            units={"u1": {"a": [1.0, 2.0], "b": [1.0]}},
            statistic="cog_tasks.coglm.metrics:age_of_sums",
        ),
    ),
    probe(
        "profile-compare-unit-value-nan",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "units",
        setup=profile_row(units={"u1": [float("nan"), 1.0]}),
    ),
    probe(
        "profile-compare-arguments-list",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "row 1",
        "arguments",
        setup=profile_row(run={**PROFILE_ROW["run"], "arguments": [1]}),
    ),
    probe(
        "profile-compare-scale-unknown",
        "profile compare {tmp}/a.json {tmp}/a.json",
        "a.json",
        "scale 'weird'",
        setup=profile_row(scale="weird"),
    ),
    probe(
        "cogbench-report-no-logs",
        "cogbench report {tmp}/logs",
        "{tmp}/logs",
        setup=lambda tmp: (tmp / "logs").mkdir(),
    ),
    # --- issue 40: accepted silently before
    probe("chance-limit-negative", "cogeval chance -T graphs=n7line --limit -1", "--limit"),
    probe("chance-limit-zero", "cogeval chance -T graphs=n7line --limit 0", "--limit"),
    probe("chance-epochs-zero", "cogeval chance -T graphs=n7line --epochs 0", "--epochs"),
    probe("coglm-abilities-empty", "coglm chance -T abilities=", "abilities"),
    probe("cogeval-graphs-empty", "cogeval chance -T graphs=", "graphs"),
    probe("cogbench-topics-empty", "cogbench chance -T source=sample -T topics=", "topics"),
    probe(
        "task-argument-twice",
        "cogeval chance -T graphs=n7line -T graphs=n15star",
        "graphs",
        "twice",
    ),
    probe(
        "egosocial-judge-max-tokens-negative",
        "egosocial judge-agreement --grader mockllm/model --max-tokens -5",
        "--max-tokens",
    ),
    probe(
        "coglm-interdependence-max-tokens-negative",
        "coglm interdependence --model mockllm/model --max-tokens -5",
        "--max-tokens",
    ),
    probe(
        "egosocial-train-no-episodes",
        "egosocial train-opponents --episodes 0 --out {tmp}/w",
        "--episodes",
    ),
    *(
        probe(
            f"ego-data-story-{label}",
            "data build egosocial --out {tmp}/out",
            "socialfirst.jsonl:1",
            "Story",
            setup=ego_lines(
                "socialfirst.jsonl",
                lambda lines, story=story: [
                    json.dumps({**json.loads(lines[0]), "Story": story}),
                    *lines[1:],
                ],
            ),
            data=True,
        )
        for label, story in (("null", None), ("list", ["a story"]), ("blank", " "))
    ),
    probe(
        "ego-data-blank-first-line",
        "data build egosocial --out {tmp}/out",
        "socialfirst.jsonl:1",
        "blank line",
        setup=ego_lines("socialfirst.jsonl", lambda lines: ["", *lines]),
        data=True,
    ),
    probe(
        "cogbench-data-iteration-gap",
        "cogbench chance -T source={tmp}/cb -T agent=cot -T judge=false --limit 1 "
        "--log-dir {tmp}/logs",
        "'Outdoor Adventures'",
        "[0, 2, 3]",
        setup=cogbench_copy(lambda records: [records[0], *records[2:]]),
    ),
    probe(
        "cogbench-data-iteration-0-missing",
        "cogbench chance -T source={tmp}/cb -T agent=cot -T judge=false --limit 1 "
        "--log-dir {tmp}/logs",
        "'Outdoor Adventures'",
        "[1, 2, 3]",
        setup=cogbench_copy(lambda records: records[1:]),
    ),
    probe(
        "cogbench-score-iteration-gap",
        "cogbench score {tmp}/eval.json --method Example",
        "eval.json",
        "[0, 1, 3]",
        setup=eval_file(lambda: json.dumps([*eval_records()[:2], *eval_records()[3:]])),
    ),
    probe(
        "cogeval-score-expected-unreadable",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "no answer here",
        setup=file_setup("r.jsonl", jsonl([{**COGEVAL_ROW, "expected": ["no answer here"]}])),
    ),
    probe(
        "cogeval-score-expected-unknown-room",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "r.jsonl:1",
        "99",
        setup=file_setup(
            "r.jsonl",
            jsonl([{**COGEVAL_ROW, "expected": ["Answer: 1,99"], "graph_context": LINE_GRAPH}]),
        ),
    ),
    probe(
        "cogbench-agreement-rater-twice",
        "cogbench agreement {tmp}/eval.json {tmp}/eval.json",
        "eval.json",
        "once",
        setup=eval_file(lambda: json.dumps(eval_records())),
    ),
    # --- issue 40: outputs never overwritten unless named with --force
    probe(
        "cogeval-generate-existing-out",
        "cogeval generate --graphs n7line --out {tmp}/items.jsonl",
        "{tmp}/items.jsonl",
        "--force",
        setup=file_setup("items.jsonl", "keep\n"),
    ),
    probe(
        "cogeval-score-out-is-input",
        "cogeval score {tmp}/r.jsonl --out {tmp}/r.jsonl --force",
        "{tmp}/r.jsonl",
        "own input",
        setup=file_setup("r.jsonl", jsonl([COGEVAL_ROW])),
    ),
    # --- issue 40: settings checked when read
    probe(
        "cogbench-revision-not-a-commit",
        "cogbench chance -T judge=false --limit 1 --log-dir {tmp}/logs",
        "COG_TASKS_COGBENCH_REVISION",
        "../../../etc",
        env={"COG_TASKS_COGBENCH_REVISION": "../../../etc"},
    ),
    probe(
        "hub-setting-blank",
        "data build egosocial --out {tmp}/out",
        "COG_TASKS_EGOSOCIAL_HUB",
        "blank",
        data=True,
        env={"COG_TASKS_EGOSOCIAL_HUB": " "},
    ),
]


def error_lines(stderr: str) -> list[str]:
    """The lines of ``stderr`` after argparse's usage block (if any)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    if lines and lines[0].startswith("usage:"):
        return [line for line in lines if ": error:" in line]
    return lines


@pytest.fixture
def probe_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty download cache and no Hub settings; the probe's temporary folder."""
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    for setting in HUB_SETTINGS:
        monkeypatch.delenv(setting, raising=False)
    return tmp_path


def test_list_keeps_the_whole_advice(
    probe_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Without data, every n/a count points to a note that gives the reason and every way out."""
    (probe_env / "data").mkdir()
    monkeypatch.setenv("COG_TASKS_DATA", str(probe_env / "data"))
    assert main(["list", "--framework", "lm-eval"]) == 0
    table, _, notes = capsys.readouterr().out.partition("\n\nWhy a count is n/a:\n")
    marked = [line for line in table.splitlines() if "| n/a (" in line]
    numbers = {re.search(r"n/a \(DataSourceError\) \[(\d+)\]", line)[1] for line in marked}
    lines = [line for line in notes.splitlines() if line.startswith("[")]
    assert marked and sorted(line[1 : line.index("]")] for line in lines) == sorted(numbers)
    for line in lines:
        assert "Ways out: (1)" in line and "(HF_HUB_OFFLINE unset)" in line
        assert line.endswith(".")


# ----------------------------------------------------------------------------- task construction


def cogbench_task(**arguments: Any) -> Any:
    """Build ``cog_tasks/cogbench`` on the bundled sample set."""
    from cog_tasks.cogbench.inspect import cogbench

    return cogbench(source="sample", self_judge=True, **arguments)


def egosocial_task(name: str) -> Callable[..., Any]:
    """An EgoSocialArena ``@task`` function by name."""
    import cog_tasks.egosocial.inspect as tasks

    return getattr(tasks, name)


def coglm_task(**arguments: Any) -> Any:
    """Build ``coglm_chat``."""
    from cog_tasks.coglm.inspect import coglm_chat

    return coglm_chat(**arguments)


def cogeval_task(**arguments: Any) -> Any:
    """Build ``cog_tasks/cogeval``."""
    from cog_tasks.cogeval.inspect.cogeval import cogeval

    return cogeval(**arguments)


TASK_PROBES = [
    pytest.param(cogbench_task, {"iterations": "x"}, "iterations", id="cogbench-iterations-text"),
    pytest.param(cogbench_task, {"iterations": 0}, "iterations", id="cogbench-iterations-zero"),
    pytest.param(cogbench_task, {"recall_k": -3}, "recall_k", id="cogbench-recall-k-negative"),
    pytest.param(cogbench_task, {"chunk_size": 1.5}, "chunk_size", id="cogbench-chunk-size-float"),
    pytest.param(cogbench_task, {"kappa": "nope"}, "kappa", id="cogbench-kappa-unknown"),
    pytest.param(
        lambda **a: egosocial_task("egosocial_static")(**a),
        {"source": "generated", "size": 0},
        "size",
        id="ego-static-size-zero",
    ),
    pytest.param(
        lambda **a: egosocial_task("egosocial_number_guessing")(**a),
        {"games": "yes please"},
        "games",
        id="ego-guessing-games-wrong-type",
    ),
    pytest.param(
        lambda **a: egosocial_task("egosocial_holdem")(**a),
        {"matches": -1},
        "matches",
        id="ego-holdem-matches-negative",
    ),
    pytest.param(coglm_task, {"per_ability": "ten"}, "per_ability", id="coglm-per-ability-text"),
    pytest.param(coglm_task, {"sc_temperature": -1}, "sc_temperature", id="coglm-sc-temperature"),
    pytest.param(cogeval_task, {"temperatures": "x"}, "temperatures", id="cogeval-temperatures"),
    pytest.param(cogeval_task, {"max_tokens": 0}, "max_tokens", id="cogeval-max-tokens-zero"),
]


@pytest.mark.parametrize(("build", "arguments", "name"), TASK_PROBES)
def test_bad_task_parameter_fails_at_construction(
    build: Callable[..., Any], arguments: dict[str, Any], name: str
) -> None:
    """As ``inspect eval -T`` builds the task: a ValueError naming the parameter."""
    with pytest.raises(ValueError) as refused:
        build(**arguments)
    message = str(refused.value)
    assert name in message and "\n" not in message


EVAL_PROBES = [
    pytest.param(
        "cog_tasks.cogbench.inspect:cogbench",
        {"source": "sample", "iterations": "x"},
        "iterations",
        id="cogbench",
    ),
    pytest.param(
        "cog_tasks.egosocial.inspect:egosocial_static",
        {"circular": "maybe"},
        "circular",
        id="egosocial-static",
    ),
    pytest.param(
        "cog_tasks.coglm.inspect:coglm_chat", {"per_ability": 0}, "per_ability", id="coglm-chat"
    ),
    pytest.param(
        "cog_tasks.cogeval.inspect.cogeval:cogeval", {"cot": "maybe"}, "cot", id="cogeval"
    ),
    # the review's three: each was a clear line only after Inspect's traceback
    pytest.param(
        "cog_tasks.cogeval.inspect.cogeval:cogeval",
        {"graphs": "n8line"},
        "n8line",
        id="cogeval-graph-unknown",
    ),
    pytest.param(
        "cog_tasks.coglm.inspect:coglm_chat",
        {"per_ability": -3},
        "per_ability",
        id="coglm-chat-per-ability-negative",
    ),
    pytest.param(
        "cog_tasks.egosocial.inspect:egosocial_number_guessing",
        {"level": 7},
        "level",
        id="egosocial-guessing-level-7",
    ),
]


@pytest.mark.parametrize(("task", "arguments", "name"), EVAL_PROBES)
def test_inspect_eval_refuses_bad_parameter(
    task: str, arguments: dict[str, Any], name: str, tmp_path: Path
) -> None:
    """``inspect_ai.eval`` of the ``@task`` function stops before any sample, naming it."""
    import importlib

    from inspect_ai import eval as inspect_eval

    module, function = task.split(":")
    with pytest.raises(ValueError, match=name):
        inspect_eval(
            getattr(importlib.import_module(module), function),
            model="mockllm/model",
            task_args=arguments,
            log_dir=str(tmp_path),
            display="none",
        )
    assert not list(tmp_path.iterdir())


# ----------------------------------------------------------------------------- runs not merged


def ego_rows(tmp: Path) -> list[str]:
    """Model rows of ``egosocial report`` (its summary.json)."""
    summary = json.loads((tmp / "report" / "summary.json").read_text())
    return sorted({cell["row"] for cell in summary["cells"] if not cell["reference"]})


def cogbench_rows(tmp: Path) -> list[str]:
    """Model rows of ``cogbench report`` (its cogbench_curves.json)."""
    rows = json.loads((tmp / "report" / "cogbench_curves.json").read_text())
    return sorted(row["label"] for row in rows if not row["reference_for"])


def printed_json_rows(key: str | None) -> Callable[[str], list[str]]:
    """Rows of a report's ``--json`` output: the ``run`` of each of ``rows``, or the keys."""

    def rows(printed: str) -> list[str]:
        data = json.loads(printed[printed.index("{") : printed.rindex("}") + 1])
        return sorted(row[key] for row in data["rows"]) if key else sorted(data)

    return rows


MERGE_PROBES = [
    pytest.param(
        "egosocial chance egosocial_static --limit 2",
        "egosocial report {tmp}/logs --out {tmp}/report",
        ego_rows,
        id="egosocial-report-two-seeds",
    ),
    pytest.param(
        "cogbench chance -T source=sample -T agent=cot -T iterations=1 -T judge=false --limit 1",
        "cogbench report {tmp}/logs --out {tmp}/report",
        cogbench_rows,
        id="cogbench-report-two-seeds",
    ),
    pytest.param(
        "cogeval chance -T graphs=n7line --limit 2",
        "cogeval report --log {tmp}/logs --out {tmp}/report --json",
        printed_json_rows("run"),
        id="cogeval-report-two-seeds",
    ),
    pytest.param(
        "coglm chance --limit 2",
        "coglm report {tmp}/logs --json",
        printed_json_rows(None),
        id="coglm-report-two-seeds",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("chance", "report", "rows"), MERGE_PROBES)
def test_report_keeps_two_runs_apart(
    chance: str,
    report: str,
    rows: Callable[[Any], list[str]],
    probe_env: Path,
    capsys: pytest.CaptureFixture,
) -> None:
    """Two chance runs that differ only by seed give two rows, labelled apart."""
    tmp = probe_env
    for seed in ("1", "2"):
        assert main([*chance.split(), "--seed", seed, "--log-dir", str(tmp / "logs")]) == 0
    capsys.readouterr()
    assert main(report.format(tmp=tmp).split()) == 0
    printed = capsys.readouterr().out
    labels = rows(printed if "--json" in report else tmp)
    assert len(labels) == 2 and len(set(labels)) == 2, labels


@pytest.mark.slow
def test_cogeval_reads_every_log_folder_given(
    probe_env: Path, capsys: pytest.CaptureFixture
) -> None:
    """``--log A --log B``: the runs of both folders, each its own row (none kept silently out)."""
    tmp = probe_env
    for seed in ("1", "2"):  # seed 1 answers both dialogs right, seed 2 one of them
        chance = f"cogeval chance -T graphs=n7line --limit 2 --seed {seed} --log-dir {tmp}/{seed}"
        assert main(chance.split()) == 0
    capsys.readouterr()
    report = f"cogeval report --log {tmp}/1 --log {tmp}/2 --out {tmp}/report --json"
    assert main(report.split()) == 0
    labels = printed_json_rows("run")(capsys.readouterr().out)
    assert labels == ["mockllm/chance seed=1", "mockllm/chance seed=2"], labels
    analyses = []
    for folders in (f"--log {tmp}/1", f"--log {tmp}/1 --log {tmp}/2"):
        assert main(f"cogeval analyze {folders} --json".split()) == 0
        analyses.append(json.loads(capsys.readouterr().out))
    assert analyses[0] != analyses[1]  # the second folder's replies entered the analysis


# ----------------------------------------------------------------------------- issue 40: faults


def run_main(argv: str, tmp: Path) -> tuple[int, list[str]]:
    """Run ``cog-tasks`` (``{tmp}`` formatted) and return its exit code and stderr lines."""
    import io
    from contextlib import redirect_stderr

    stderr = io.StringIO()
    with redirect_stderr(stderr):
        try:
            code = main(argv.format(tmp=tmp).split())
        except SystemExit as stop:
            code = stop.code
    return code, [line for line in stderr.getvalue().splitlines() if line.strip()]


def tamper_bytes(folder: Path) -> None:
    """Flip a byte of the aggressive opponent's weights: the recorded hash no longer matches."""
    path = folder / "dqn_aggressive.pt"
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF
    path.write_bytes(bytes(data))


def drop_digest(folder: Path) -> None:
    """Remove the aggressive opponent's ``.sha256`` file."""
    (folder / "dqn_aggressive.pt.sha256").unlink()


def foreign_file(folder: Path) -> None:
    """Replace the aggressive weights by other bytes, with their own valid digest."""
    import hashlib

    data = b"not a torch file"
    (folder / "dqn_aggressive.pt").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    (folder / "dqn_aggressive.pt.sha256").write_text(f"{digest}  dqn_aggressive.pt\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("damage", "names"),
    [
        pytest.param(tamper_bytes, "does not match the recorded", id="hash-mismatch"),
        pytest.param(drop_digest, "dqn_aggressive.pt.sha256: missing", id="digest-missing"),
        pytest.param(foreign_file, "not a format-1 aggressive opponent", id="bad-format"),
    ],
)
def test_damaged_opponent_weights_are_one_line(
    damage: Callable[[Path], None], names: str, probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A damaged DQN weights file names itself through the chance command (not 'run failed')."""
    from cog_tasks.egosocial.opponents import holdem_dqn

    weights = probe_env / "weights"
    shutil.copytree(holdem_dqn.shipped_weights_dir(), weights)
    damage(weights)
    monkeypatch.setattr(holdem_dqn, "shipped_weights_dir", lambda: weights)
    chance = (
        "egosocial chance egosocial_holdem -T opponent=aggressive -T opponents=dqn -T hands=1 "
        "--log-dir {tmp}/logs"
    )  # the DQN opponents are asked for: the default (rules) loads no weights
    code, lines = run_main(chance, probe_env)
    errors = [line for line in lines if not line.startswith("cog-tasks progress:")]
    assert code == 2 and len(errors) == 1, lines
    assert names in errors[0] and str(weights / "dqn_aggressive.pt") in errors[0]


@pytest.mark.slow
def test_opponent_weights_are_hashed_from_the_bytes_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """load_opponent reads its file once: torch loads the very bytes whose SHA-256 it checked."""
    import hashlib
    import io

    import torch

    from cog_tasks.egosocial.opponents.holdem_dqn import (
        expected_sha256,
        load_opponent,
        shipped_weights_dir,
    )

    loaded: list[object] = []
    real_load = torch.load

    def spy(source: Any, *args: Any, **kwargs: Any) -> Any:
        loaded.append(source.getvalue() if isinstance(source, io.BytesIO) else source)
        return real_load(source, *args, **kwargs)

    monkeypatch.setattr(torch, "load", spy)
    opponent = load_opponent("aggressive")
    [data] = loaded
    assert isinstance(data, bytes)
    digest = hashlib.sha256(data).hexdigest()
    assert digest == opponent.sha256 == expected_sha256(shipped_weights_dir() / "dqn_aggressive.pt")


@pytest.mark.slow
def test_missing_extra_is_one_line(probe_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CogGPT without chromadb: one line naming the extra, through the chance command."""
    import sys

    monkeypatch.setitem(sys.modules, "chromadb", None)
    chance = (
        "cogbench chance -T source=sample -T agent=coggpt -T judge=false -T iterations=1 "
        "--limit 1 --log-dir {tmp}/logs"
    )
    code, lines = run_main(chance, probe_env)
    assert code == 2 and len(lines) == 1, lines
    assert "chromadb" in lines[0] and 'pip install "cog-tasks[coggpt]"' in lines[0]


def raise_interrupt(*args: Any, **kwargs: Any) -> list[Any]:
    """Ctrl-C landing in our code."""
    raise KeyboardInterrupt


def no_logs(*args: Any, **kwargs: Any) -> list[Any]:
    """What ``inspect_ai.eval`` returns when Ctrl-C cancelled the run: no log."""
    return []


@pytest.mark.parametrize("interrupted_eval", [raise_interrupt, no_logs], ids=["raised", "no-log"])
def test_interrupt_says_how_to_resume(
    interrupted_eval: Callable[..., list[Any]], probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during a chance run: one line saying to run it again, exit 130, no traceback."""
    from cog_tasks.common import scripted

    monkeypatch.setattr(scripted, "inspect_eval", interrupted_eval)
    code, lines = run_main("cogeval chance -T graphs=n7line --limit 1", probe_env)
    assert code == 130
    assert lines == ["cog-tasks cogeval chance: interrupted; run the same command again to resume"]


def test_profile_interrupt_says_how_to_resume(
    probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during a profile step: one line saying to run it again, exit 130, no traceback."""
    from cog_tasks.common import scripted

    monkeypatch.setattr(scripted, "inspect_eval", no_logs)
    code, lines = run_main(
        "profile run --model chance --preset smoke --out {tmp}/profile", probe_env
    )
    assert code == 130
    assert lines[-1] == "cog-tasks profile run: interrupted; run the same command again to resume"
    assert not any(": error:" in line for line in lines)


def test_report_writes_no_chart_beside_its_input(probe_env: Path) -> None:
    """``coglm report DIR`` draws its chart only where --out names it, never into DIR."""
    from coglm_lm_eval_files import write_lm_eval_run

    write_lm_eval_run(probe_env / "runs" / "m", {"const": [True, False]})
    before = sorted(path.name for path in (probe_env / "runs").rglob("*"))
    code, _ = run_main("coglm report {tmp}/runs", probe_env)
    assert code == 0
    assert sorted(path.name for path in (probe_env / "runs").rglob("*")) == before
    code, _ = run_main("coglm report {tmp}/runs --out {tmp}/chart.png", probe_env)
    assert code == 0 and (probe_env / "chart.png").is_file()


def test_profile_row_probes_start_from_a_readable_row(probe_env: Path) -> None:
    """The profile-compare probes break one field of a row that compare reads."""
    profile_row()(probe_env)
    write(probe_env / "b.json", (probe_env / "a.json").read_text().replace('"m"', '"m2"', 1))
    code, lines = run_main("profile compare {tmp}/a.json {tmp}/b.json", probe_env)
    assert code == 0, lines
    # The same profile twice (one path, or a copy) is refused: its rows would pair with themselves.
    code, lines = run_main("profile compare {tmp}/a.json {tmp}/a.json", probe_env)
    assert code == 2 and len(lines) == 1 and "same file" in lines[0], lines


def unpack_bug(source: Path, strict: bool = False) -> Any:
    """A bug in our code: Python's own ``ValueError``."""
    first, second = [source, source, source]  # too many values to unpack
    return first, second


def internal_check_fails(source: Path, strict: bool = False) -> Any:
    """A bug caught by one of the package's own checks: a ``raise ValueError`` of the package."""
    from cog_tasks.common.stats import cluster_mean_interval

    return cluster_mean_interval([1.0, 2.0], ["only one label"], unit="task")


def refuse_input(source: Path, strict: bool = False) -> Any:
    """Bad input, reported the package's way."""
    from cog_tasks.common.files import DataFileError

    raise DataFileError(f"{source}:1: an invented fault")


@pytest.mark.parametrize(
    ("bug", "message"),
    [(unpack_bug, "too many values to unpack"), (internal_check_fails, "2 values but 1 cluster")],
    ids=["python", "package-check"],
)
def test_internal_value_error_keeps_its_traceback(
    bug: Callable[[Path], Any], message: str, probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain ValueError inside a command is a bug: it propagates, not one line with exit 2."""
    from cog_tasks.cogeval import results

    write(probe_env / "r.jsonl", jsonl([COGEVAL_ROW]))
    monkeypatch.setattr(results, "rescore_file", bug)
    with pytest.raises(ValueError, match=message):
        run_main("cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl", probe_env)
    monkeypatch.setattr(results, "rescore_file", refuse_input)
    code, lines = run_main("cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl", probe_env)
    assert (code, lines) == (
        2,
        [f"cog-tasks cogeval score: error: {probe_env}/r.jsonl:1: an invented fault"],
    )


def test_lm_eval_shows_our_user_errors_as_one_line(
    probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cog-tasks lm-eval``: a UserError raised inside lm-eval is one line; a bug is not."""
    from cog_tasks import cli
    from cog_tasks.common.params import ParameterError

    def refused(arguments: Any) -> None:
        raise ParameterError("CogEval graphs: 'n8line' is not valid")

    monkeypatch.setattr(cli, "run_lm_eval", refused)
    code, lines = run_main("lm-eval run --tasks cogeval_n7line", probe_env)
    assert (code, lines) == (2, ["cog-tasks lm-eval: error: CogEval graphs: 'n8line' is not valid"])
    monkeypatch.setattr(cli, "run_lm_eval", unpack_bug)
    with pytest.raises(ValueError, match="too many values to unpack"):
        run_main("lm-eval run --tasks cogeval_n7line", probe_env)


def test_package_refusals_are_user_errors() -> None:
    """What the package raises for bad input is a UserError; its own checks stay plain bugs."""
    from cog_tasks.cogeval.results import rescore_record
    from cog_tasks.common.cli import is_user_error
    from cog_tasks.common.errors import UserError
    from cog_tasks.common.stats import cluster_mean_interval

    with pytest.raises(UserError, match="missing field 'expected'") as refused:
        rescore_record({"condition": "x"})
    assert is_user_error(refused.value)
    with pytest.raises(ValueError, match="2 values but 1 cluster labels") as bug:
        cluster_mean_interval([1.0, 2.0], ["a"], unit="task")
    assert not isinstance(bug.value, UserError) and not is_user_error(bug.value)


def test_jsonl_keeps_line_separators_inside_strings(
    probe_env: Path, capsys: pytest.CaptureFixture
) -> None:
    """U+2028 and U+0085 inside a JSON string do not end the line: score, then analyze."""
    row = {**COGEVAL_ROW, "graph": "n7line", "response": "Answer:\u2028 1,2\u0085"}
    write(probe_env / "r.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [row]))
    code, lines = run_main("cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl", probe_env)
    assert code == 0, lines
    [scored] = (probe_env / "o.jsonl").read_text(encoding="utf-8").split("\n")[:-1]
    assert json.loads(scored)["response"] == row["response"]


def test_common_bad_arguments_are_user_errors(tmp_path: Path) -> None:
    """Bad arguments the shared code refuses are UserErrors where raised, not plain ValueErrors."""
    from cog_tasks.common.errors import UserError
    from cog_tasks.common.logs import InspectLogError, read_logs
    from cog_tasks.common.models import embedded_model_path

    with pytest.raises(UserError, match="unknown embedded model 'nope'"):
        embedded_model_path("nope")
    with pytest.raises(UserError, match="unknown log status"):
        read_logs(tmp_path, tasks={"cogeval"}, statuses={"finished"})
    assert issubclass(InspectLogError, UserError)
