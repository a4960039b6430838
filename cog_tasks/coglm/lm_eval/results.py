"""Read lm-eval's CogLM output: results files into report runs, samples files into picks.

lm-eval writes, below its ``--output_path``, one ``results_<date>.json`` per
run and, with ``--log_samples``, one ``samples_<task>_<date>.jsonl`` per task.
This module turns them into what the core computes on: a
:class:`cog_tasks.coglm.report.CogLMRun` per model and family, and the option
picked per record id. It imports neither lm-eval nor any other framework.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.completion import CALIBRATED_PICK_METRIC, sample_picks
from cog_tasks.coglm.metrics import assemble_summary
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.report import CogLMRun
from cog_tasks.common.files import iter_jsonl, read_json


@dataclass(frozen=True)
class TaskFamily:
    """Where one lm-eval CogLM family keeps its per-ability numbers.

    Attributes:
        name: The family's group name.
        task_prefix: Ability tasks are named ``<task_prefix><code>``.
        filter: lm-eval filter name in the metric keys (``metric,filter``).
        accuracy_metric: The accuracy the calibrated metrics are computed from.
        has_invalid: Whether the tasks report an ``invalid`` rate (generation).
        label_suffix: Added to the model's name in tables ("" for none).
    """

    name: str
    task_prefix: str
    filter: str
    accuracy_metric: str
    has_invalid: bool
    label_suffix: str


FAMILIES = (
    TaskFamily("coglm", "coglm_", "none", CALIBRATED_PICK_METRIC, False, ""),
    TaskFamily("coglm_gen", "coglm_gen_", "extract", "acc", True, " [coglm_gen]"),
    TaskFamily("coglm_gen", "coglm_gen_", "authors", "acc", True, " [coglm_gen, authors' rule]"),
)


def find_results_files(path: Path) -> list[Path]:
    """The lm-eval results files at ``path`` (a results file or an output directory).

    Raises:
        FileNotFoundError: If ``path`` does not exist or holds no ``results_*.json``.
    """
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such file or directory")
    found = sorted(path.rglob("results_*.json"))
    if not found:
        raise FileNotFoundError(
            f"{path}: no lm-eval results_*.json below it (run lm-eval with --output_path {path})"
        )
    return found


def _model_label(data: dict[str, Any]) -> str:
    """The model's name: its ``pretrained``/``model`` argument, else the backend name."""
    config = data.get("config", {})
    arguments = config.get("model_args") or {}
    if isinstance(arguments, str):
        arguments = dict(pair.split("=", 1) for pair in arguments.split(",") if "=" in pair)
    name = arguments.get("pretrained") or arguments.get("model")
    if isinstance(name, str) and name:
        return Path(name.rstrip("/")).name or name
    return str(config.get("model") or data.get("model_name") or "model")


def _metric(
    results: dict[str, Any], task: str, metric: str, family: TaskFamily, source: Path
) -> float:
    key = f"{metric},{family.filter}"
    if key not in results[task]:
        raise CogLMDataError(f"{source}: task {task} has no {key!r} (is it a cog-tasks run?)")
    return float(results[task][key])


def runs_from_results(data: dict[str, Any], source: Path) -> list[CogLMRun]:
    """Build one run per CogLM family found in one parsed results file.

    A ``coglm_gen`` run is labelled ``<model> [coglm_gen]`` (and, for its
    ``authors`` filter, ``<model> [coglm_gen, authors' rule]``) so that it
    stands apart from the same model's log-likelihood run.

    Raises:
        CogLMDataError: If a CogLM task lacks one of the expected metrics.
    """
    results = data.get("results", {})
    samples = data.get("n-samples", {})
    limit = data.get("config", {}).get("limit")
    partial = None if limit is None else f"lm-eval --limit {float(limit):g}"
    runs = []
    for family in FAMILIES:
        rows = {}
        for ability in ABILITIES:
            task = f"{family.task_prefix}{ability.code}"
            if task not in results or f"acc,{family.filter}" not in results[task]:
                continue
            n = int(samples.get(task, {}).get("effective", results[task].get("sample_len", 0)))
            invalid_rate = (
                _metric(results, task, "invalid", family, source) if family.has_invalid else 0.0
            )
            rows[ability.code] = {
                "n": n,
                "accuracy": _metric(results, task, family.accuracy_metric, family, source),
                "calibrated_accuracy": _metric(results, task, "calibrated_acc", family, source),
                "calibrated_accuracy_per_item": _metric(
                    results, task, "calibrated_acc_per_item", family, source
                ),
                "invalid": round(invalid_rate * n),
            }
        if rows:
            label = _model_label(data) + family.label_suffix
            runs.append(CogLMRun(label, source, assemble_summary(rows), partial))
    return runs


def load_lm_eval_runs(path: Path) -> list[CogLMRun]:
    """Load the newest CogLM run of each model and family found at ``path``.

    Args:
        path: An lm-eval ``--output_path`` directory or one results file.

    Returns:
        One run per label (model, and family for ``coglm_gen``), in label order.

    Raises:
        FileNotFoundError: If there is no results file.
        CogLMDataError: If no results file holds CogLM tasks, or one is malformed.
    """
    newest: dict[str, tuple[tuple[float, str], CogLMRun]] = {}
    for file in find_results_files(path):
        data = read_json(file)
        stamp = (float(data.get("date") or 0.0), file.name)
        for run in runs_from_results(data, file):
            if run.label not in newest or stamp >= newest[run.label][0]:
                newest[run.label] = (stamp, run)
    if not newest:
        raise CogLMDataError(f"{path}: no results file contains coglm or coglm_gen tasks")
    return [newest[label][1] for label in sorted(newest)]


def lm_eval_picks(output_path: Path) -> dict[str, int]:
    """The option lm-eval's log-likelihood family chose per record id.

    Reads the ``samples_coglm_<code>_*.jsonl`` files written with
    ``--log_samples`` (the newest file per ability) and applies the choice
    rule the family's calibrated accuracy uses (``CALIBRATED_PICK_METRIC``).

    Raises:
        FileNotFoundError: If no CogLM samples file is found.
        CogLMDataError: Naming the file and line of a malformed sample.
    """
    picks: dict[str, int] = {}
    for ability in ABILITIES:
        files = sorted(output_path.rglob(f"samples_coglm_{ability.code}_*.jsonl"))
        if not files:
            continue
        for number, row in iter_jsonl(files[-1]):
            try:
                loglikelihoods = [float(pair[0]) for pair in row["filtered_resps"]]
                chosen = sample_picks(row["doc"], loglikelihoods)[CALIBRATED_PICK_METRIC]
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise CogLMDataError(
                    f"{files[-1]}:{number}: unexpected sample ({error})"
                ) from error
            picks[row["doc"]["id"]] = chosen
    if not picks:
        raise FileNotFoundError(
            f"{output_path}: no samples_coglm_<ability>_*.jsonl (run lm-eval with --log_samples)"
        )
    return picks
