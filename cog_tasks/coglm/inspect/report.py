"""CogLM reports from Inspect ``coglm_chat`` logs: the report and the paper's Tables 5 and 7."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path

from inspect_ai.log import EvalLog

from cog_tasks.coglm.headlines import BENCHMARK, UNIT, declared_benchmark, item_record
from cog_tasks.coglm.inspect.logs import IGNORED_ARGUMENTS, TASK_NAMES
from cog_tasks.coglm.inspect.scorer import SCORER, score_value
from cog_tasks.coglm.metrics import ScoredItem, chance_count
from cog_tasks.coglm.prompts import DEFAULT_PROMPT, PROMPT_EXTRACTORS
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.report import CogLMRun, checked_run
from cog_tasks.coglm.rules import DEFAULT_CHANCE
from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_logs, run_identity, sample_status
from cog_tasks.common.pipeline import checked_rows
from cog_tasks.common.results import RunResults


def inspect_log_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The Inspect logs among ``paths``: files given or ``.eval`` files below folders."""
    found: list[Path] = []
    for item in map(Path, paths):
        if item.is_dir():
            found.extend(sorted(item.rglob("*.eval")))
        elif item.suffix in (".eval", ".json") and not item.name.startswith("results_"):
            found.append(item)
    return found


def log_results(log: EvalLog, chance: str = DEFAULT_CHANCE) -> RunResults:
    """One ``coglm_chat`` log as an unchecked run (errored samples scored wrong)."""
    records = []
    for sample in log.samples or []:
        score = (sample.scores or {}).get(SCORER)
        invalid = score is None or bool(score_value(score.value, "invalid"))
        correct = 0.0 if score is None else score_value(score.value, "acc")
        item = ScoredItem(
            sample.metadata["ability"],
            chance_count(sample.choices or [], chance),
            correct,
            not invalid,
            str(sample.id),
        )
        records.append(item_record(item, sample.epoch, sample_status(sample, invalid=invalid)))
    return RunResults(
        BENCHMARK,
        run_identity(log, ignore=IGNORED_ARGUMENTS),
        UNIT,
        tuple(records),
        declared_benchmark(),
        str(log.location),
        f"chat protocol, {log_prompt(log)} prompt, {scoring_extractor(log)} answer reader, "
        f"chance {chance}"
        + ("" if log.status == "success" else f"; LOG STATUS {log.status}: the run did not finish"),
    )


def setting_label(log: EvalLog) -> str:
    """The paper's name for a log's setting (Base, w/ COT, w/ SC T=..., w/ COC, erased ...)."""
    arguments = log.eval.task_args or {}
    parts = []
    if arguments.get("cot"):
        parts.append("COT")
    if int(arguments.get("sc_samples") or 1) > 1:
        parts.append(f"SC T={arguments.get('sc_temperature', 0.7)} n={arguments['sc_samples']}")
    if arguments.get("coc_log"):
        parts.append("COC")
    label = "w/ " + " + ".join(parts) if parts else "Base"
    if arguments.get("erase"):
        label += f", {arguments['erase']} erased"
    notes = []
    prompt = log_prompt(log)
    if prompt != DEFAULT_PROMPT:
        notes.append(f"{prompt} prompt")
    extractor = scoring_extractor(log)
    if extractor != "ours":
        notes.append(f"{extractor} extractor")
    return f"{label} [{', '.join(notes)}]" if notes else label


def log_prompt(log: EvalLog) -> str:
    """The prompt of a log's run (``answer-is`` for logs from before the option existed)."""
    return str((log.eval.task_args or {}).get("prompt") or DEFAULT_PROMPT)


def scoring_extractor(log: EvalLog) -> str:
    """The extractor that scored a log: its scores', else ``-T extractor``, else the prompt's."""
    for sample in log.samples or []:
        if sample.scores and SCORER in sample.scores:
            recorded = (sample.scores[SCORER].metadata or {}).get("extractor")
            if recorded:
                return str(recorded)
    named = (log.eval.task_args or {}).get("extractor")
    return str(named or PROMPT_EXTRACTORS.get(log_prompt(log), "ours"))


def load_inspect_runs(
    paths: Iterable[str | os.PathLike[str]],
    statuses: Collection[str] = SUCCESS_ONLY,
    label: Callable[[EvalLog, str], str] | None = None,
    chance: str = DEFAULT_CHANCE,
) -> tuple[list[CogLMRun], LogSet]:
    """One run per ``coglm_chat`` (or deprecated ``coglm``) log found at ``paths``, oldest first.

    ``label`` names a run from its log and model (``<model> (<setting>)``); labels are unique.
    """
    files = inspect_log_files(paths)
    if not files:
        return [], LogSet([])
    logs = read_logs(files, tasks=TASK_NAMES, statuses=statuses)
    name = label or (lambda log, model: f"{model} ({setting_label(log)})")
    rows = checked_rows(
        [(log_results(log, chance), log) for log in logs.logs],
        key=lambda _, log: name(log, log.eval.model),
        model=lambda _, log: log.eval.model,
    )
    return [checked_run(row.checked, name(row.extra, row.label)) for row in rows], logs


def _setting_order(run: CogLMRun, order: Sequence[str]) -> tuple[int, str]:
    rank = next((i for i, prefix in enumerate(order) if run.label.startswith(prefix)), len(order))
    return rank, run.label


def comparison_runs(
    paths: Iterable[str | os.PathLike[str]],
    order: Sequence[str],
    statuses: Collection[str] = SUCCESS_ONLY,
) -> tuple[list[CogLMRun], LogSet]:
    """The runs of a setting comparison, labelled ``<setting> - <model>`` in the paper's order."""
    runs, logs = load_inspect_runs(paths, statuses, lambda log, m: f"{setting_label(log)} - {m}")
    if not runs:
        raise CogLMDataError(
            "no successful coglm_chat Inspect log found in "
            + ", ".join(map(str, paths))
            + (f" ({logs.skipped_note()})" if logs.skipped else "")
        )
    return sorted(runs, key=lambda run: _setting_order(run, order)), logs


TABLE5_ORDER = ("Base", "w/ COT", "w/ SC")
TABLE7_ORDER = ("Base", "w/ COC")
