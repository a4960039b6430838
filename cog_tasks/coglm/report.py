"""Read lm-eval CogLM results, print the CogLM report and draw its chart.

A report is the dict made by :func:`cog_tasks.metrics.coglm.assemble_summary`
(per-ability rows, stage scores, overall score, cognitive age), whatever
produced the scores: an lm-eval results file of the ``coglm`` or ``coglm_gen``
family (:func:`load_lm_eval_runs`) or scored predictions
(:func:`cog_tasks.metrics.coglm.summarize`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGE_NAMES, STAGES
from cog_tasks.coglm.completion import CALIBRATED_PICK_METRIC
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.reference import TABLE9
from cog_tasks.metrics.coglm import assemble_summary


@dataclass(frozen=True)
class TaskFamily:
    """Where one lm-eval CogLM family keeps its per-ability numbers.

    Attributes:
        name: The family's group name.
        task_prefix: Ability tasks are named ``<task_prefix><code>``.
        filter: lm-eval filter name in the metric keys (``metric,filter``).
        accuracy_metric: The accuracy the calibrated metrics are computed from.
        has_invalid: Whether the tasks report an ``invalid`` rate (generation).
    """

    name: str
    task_prefix: str
    filter: str
    accuracy_metric: str
    has_invalid: bool


FAMILIES = (
    TaskFamily("coglm", "coglm_", "none", CALIBRATED_PICK_METRIC, has_invalid=False),
    TaskFamily("coglm_gen", "coglm_gen_", "extract", "acc", has_invalid=True),
)


@dataclass(frozen=True)
class CogLMRun:
    """One model's CogLM scores from one lm-eval results file.

    Attributes:
        label: Model name shown in tables and charts.
        source: The results file.
        summary: The report dict (see module docstring).
        limit: lm-eval's ``--limit`` if the run used one (partial results).
    """

    label: str
    source: Path
    summary: dict[str, Any]
    limit: float | None = None


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

    A ``coglm_gen`` run is labelled ``<model> [coglm_gen]`` so that it stands
    apart from the same model's log-likelihood run.

    Raises:
        CogLMDataError: If a CogLM task lacks one of the expected metrics.
    """
    results = data.get("results", {})
    samples = data.get("n-samples", {})
    limit = data.get("config", {}).get("limit")
    runs = []
    for family in FAMILIES:
        rows = {}
        for ability in ABILITIES:
            task = f"{family.task_prefix}{ability.code}"
            if task not in results:
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
            label = _model_label(data)
            if family.name != "coglm":
                label += f" [{family.name}]"
            runs.append(CogLMRun(label, source, assemble_summary(rows), limit))
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
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise CogLMDataError(f"{file}: not valid JSON ({error})") from error
        stamp = (float(data.get("date") or 0.0), file.name)
        for run in runs_from_results(data, file):
            if run.label not in newest or stamp >= newest[run.label][0]:
                newest[run.label] = (stamp, run)
    if not newest:
        raise CogLMDataError(f"{path}: no results file contains coglm or coglm_gen tasks")
    return [newest[label][1] for label in sorted(newest)]


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:6.1f}"


def format_report(summary: dict[str, Any], title: str) -> str:
    """Render a report dict as a plain-text table (accuracies in percent)."""
    header = f"{'stage':<6}{'ability':<8}{'name':<34}{'n':>5}{'acc':>8}{'cal.acc':>9}"
    header += f"{'per-item':>10}{'invalid':>9}"
    lines = [title, header, "-" * len(header)]
    for code, row in summary["abilities"].items():
        ability = ABILITY_BY_CODE[code]
        lines.append(
            f"{ability.stage:<6}{code:<8}{ability.name:<34}{row['n']:>5}"
            f"{_percent(row['accuracy']):>8}{_percent(row['calibrated_accuracy']):>9}"
            f"{_percent(row.get('calibrated_accuracy_per_item')):>10}{row['invalid']:>9}"
        )
    lines.append("-" * len(header))
    for stage, value in summary["stages"].items():
        name = f"stage {stage} ({STAGE_NAMES[int(stage)]})"
        lines.append(f"{name:<53}{_percent(value):>17}")
    lines.append(f"{'overall (mean of abilities)':<53}{_percent(summary['overall']):>17}")
    age = summary["cognitive_age"]
    age_text = f"{age:.1f} years" if age is not None else "n/a (needs all four stages)"
    lines.append(f"{'cognitive age':<53}{age_text:>17}")
    return "\n".join(lines)


def write_chart(runs: Sequence[tuple[str, dict[str, Any]]], path: Path) -> Path:
    """Draw the abilities by stage and the cognitive ages beside Table 9.

    Args:
        runs: ``(label, report dict)`` for each evaluated model.
        path: PNG file to write (its folder is created).

    Returns:
        The path written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    human = next(row for row in TABLE9 if row.model == "Human")
    figure, (abilities_axis, age_axis) = plt.subplots(
        1, 2, figsize=(15, 6), gridspec_kw={"width_ratios": [1.7, 1]}
    )
    colors = plt.get_cmap("tab10").colors

    # Left: calibrated accuracy per ability, abilities grouped by stage.
    positions, x = [], 0.0
    for index, ability in enumerate(ABILITIES):
        if index and ability.stage != ABILITIES[index - 1].stage:
            x += 0.8
        positions.append(x)
        x += 1.0
    width = 0.8 / max(1, len(runs))
    for run_index, (label, summary) in enumerate(runs):
        offset = (run_index - (len(runs) - 1) / 2) * width
        values = [
            100 * summary["abilities"][a.code]["calibrated_accuracy"]
            if a.code in summary["abilities"]
            else float("nan")
            for a in ABILITIES
        ]
        color = colors[run_index % len(colors)]
        abilities_axis.bar([p + offset for p in positions], values, width, label=label, color=color)
        for stage, score in summary["stages"].items():
            spanned = [
                p for p, a in zip(positions, ABILITIES, strict=True) if a.stage == int(stage)
            ]
            abilities_axis.hlines(
                100 * score, spanned[0] - 0.45, spanned[-1] + 0.45, colors=[color], linestyles="--"
            )
    abilities_axis.scatter(
        positions,
        [human.abilities[a.code] for a in ABILITIES],
        marker="_",
        s=400,
        color="black",
        label="Human (Table 9)",
        zorder=3,
    )
    abilities_axis.axhline(0, color="grey", linewidth=0.8)
    abilities_axis.set_xticks(positions, [a.code for a in ABILITIES])
    for stage in STAGES:
        stage_positions = [p for p, a in zip(positions, ABILITIES, strict=True) if a.stage == stage]
        middle = sum(stage_positions) / len(stage_positions)
        abilities_axis.annotate(
            f"stage {stage}\n{STAGE_NAMES[stage]}",
            xy=(middle, 0),
            xycoords=("data", "axes fraction"),
            xytext=(0, -30),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=9,
        )
    abilities_axis.set_ylabel("calibrated accuracy (%)  ·  0 = chance")
    abilities_axis.set_ylim(-105, 105)
    abilities_axis.set_title("CogLM abilities by Piaget stage (dashed: stage score)")
    abilities_axis.legend(loc="lower right", fontsize=8)

    # Right: cognitive ages, Table 9 rows beside the evaluated models.
    bars = [
        (row.model, row.age, "dimgrey" if row is human else "lightgrey")
        for row in TABLE9
        if row.duplicate_of is None
    ]
    for run_index, (label, summary) in enumerate(runs):
        if summary["cognitive_age"] is not None:
            bars.append((label, summary["cognitive_age"], colors[run_index % len(colors)]))
    bars.sort(key=lambda bar: bar[1])
    age_axis.barh(range(len(bars)), [b[1] for b in bars], color=[b[2] for b in bars])
    age_axis.set_yticks(range(len(bars)), [b[0] for b in bars], fontsize=8)
    for row, (_, age, _) in enumerate(bars):
        age_axis.text(age + 0.2, row, f"{age:.1f}", va="center", fontsize=8)
    age_axis.set_xlabel("cognitive age (years)")
    age_axis.set_title("Cognitive age beside the paper's Table 9 (grey)")
    age_axis.set_xlim(0, max(b[1] for b in bars) + 3)

    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.png")
    figure.savefig(partial, dpi=110)
    plt.close(figure)
    partial.replace(path)
    return path
