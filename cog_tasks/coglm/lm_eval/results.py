"""Read lm-eval's CogLM output: results and samples files into report runs and headlines.

lm-eval writes, below its ``--output_path``, one ``results_<date>.json`` per
run and, with ``--log_samples``, one ``samples_<task>_<date>.jsonl`` per task
beside it (same date). This module turns them into what the core computes on:
a :class:`cog_tasks.coglm.report.CogLMRun` per results file and family (every
file its own run: none is merged or dropped), its items
(:class:`~cog_tasks.coglm.metrics.ScoredItem`, from the samples files, which
also give the intervals) and its :func:`headlines_from_lm_eval`. It imports
neither lm-eval nor any other framework.

With samples, any choice rule and chance rule can be recomputed
(:mod:`cog_tasks.coglm.rules`); without them
the run's own aggregated metrics are read and no interval can be given.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.completion import AUTHORS_PICK_METRIC, sample_picks
from cog_tasks.coglm.headlines import chance_items, item_headlines
from cog_tasks.coglm.metrics import (
    ScoredItem,
    assemble_summary,
    chance_count,
    summarize,
)
from cog_tasks.coglm.records import CogLMDataError, load_records
from cog_tasks.coglm.report import CogLMRun
from cog_tasks.coglm.rules import DEFAULT_CHANCE, DEFAULT_RULE, RULES
from cog_tasks.common.files import iter_jsonl, read_json
from cog_tasks.common.headlines import Headline
from cog_tasks.common.runs import RunIdentity, labels_of_shared_keys


def _family_version() -> str:
    text = (Path(__file__).parent / "coglm" / "_coglm_version.yaml").read_text()
    match = re.search(r"^\s*version:\s*(\S+)", text, re.MULTILINE)
    if match is None:
        raise RuntimeError("_coglm_version.yaml names no version")
    return match.group(1)


FAMILY_VERSION = _family_version()
"""The ``coglm`` family's task version (from ``_coglm_version.yaml``)."""


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
    TaskFamily("coglm", "coglm_", "none", AUTHORS_PICK_METRIC, False, ""),
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
        raise CogLMDataError(
            f"{source}: task {task} has no {key!r} (a cog-tasks run of an older task "
            "version? rerun it, or report it with --log_samples files beside it)"
        )
    return float(results[task][key])


def _pooled_metric(family: TaskFamily) -> str:
    return "calibrated_acc_authors" if family.name == "coglm" else "calibrated_acc"


def run_identity(data: dict[str, Any], family: TaskFamily, **settings: object) -> RunIdentity:
    """A results file's run identity for one family.

    Task (family ``@`` its version), model (the weights' name), and as
    arguments the backend and its ``model_args``, the abilities run where not
    all ten, ``num_fewshot``, ``limit`` and ``settings`` (the report's rule and
    chance); the seed is lm-eval's ``random_seed``.
    """
    config = data.get("config", {})
    versions = data.get("versions", {})
    codes = [
        ability.code
        for ability in ABILITIES
        if f"{family.task_prefix}{ability.code}" in data.get("results", {})
    ]
    shots = {
        shot
        for task, shot in (data.get("n-shot") or {}).items()
        if task.startswith(family.task_prefix)
    }
    arguments: dict[str, object] = {
        "backend": config.get("model"),
        "model_args": config.get("model_args") or None,
        "abilities": None if len(codes) == len(ABILITIES) else ",".join(codes),
        "num_fewshot": ",".join(map(str, sorted(shots))) if shots else None,
        "limit": config.get("limit"),
        "filter": None if family.filter in ("none", "extract") else family.filter,
        **settings,
    }
    version = versions.get(family.name) or versions.get(f"{family.task_prefix}{codes[0]}")
    return RunIdentity.of(
        f"{family.name}@{version}",
        _model_label(data),
        arguments=arguments,
        seed=config.get("random_seed"),
    )


def _samples_files(results_file: Path, family: TaskFamily, code: str) -> Path | None:
    stamp = results_file.stem.removeprefix("results_")
    found = results_file.parent / f"samples_{family.task_prefix}{code}_{stamp}.jsonl"
    return found if found.is_file() else None


def _item(row: dict[str, Any], family: TaskFamily, rule: str, chance: str) -> ScoredItem:
    doc = row["doc"]
    choices = list(doc["choices"])
    if family.name == "coglm":
        loglikelihoods = [float(pair[0]) for pair in row["filtered_resps"]]
        picks = sample_picks(doc, loglikelihoods)
        if RULES[rule] not in picks:
            raise KeyError(f"no {rule!r} pick (tasks version 1.0 samples lack the context)")
        correct, valid = picks[RULES[rule]] == int(doc["answer"]), True
    else:
        correct, valid = bool(float(row["acc"])), not float(row["invalid"])
    return ScoredItem(doc["ability"], chance_count(choices, chance), correct, valid, str(doc["id"]))


def sample_items(
    results_file: Path, family: TaskFamily, rule: str = DEFAULT_RULE, chance: str = DEFAULT_CHANCE
) -> list[ScoredItem] | None:
    """The scored items of one run from its samples files, or ``None`` without them.

    Args:
        results_file: The run's ``results_<date>.json``.
        family: The family.
        rule: Choice rule (:data:`RULES`; the ``coglm`` family only).
        chance: Chance rule (:data:`~cog_tasks.coglm.metrics.CHANCE_RULES`).

    Raises:
        CogLMDataError: Naming the file and line of a malformed sample, or an
            unknown rule or chance with the valid values.
    """
    if rule not in RULES:
        raise CogLMDataError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    chance_count(["a", "b"], chance)  # names the valid chance rules when unknown
    items: list[ScoredItem] = []
    for ability in ABILITIES:
        file = _samples_files(results_file, family, ability.code)
        if file is None:
            continue
        for number, row in iter_jsonl(file):
            if family.name != "coglm" and row.get("filter") != family.filter:
                continue
            try:
                items.append(_item(row, family, rule, chance))
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise CogLMDataError(f"{file}:{number}: unexpected sample ({error})") from error
    return items or None


def _aggregated_rows(data: dict[str, Any], family: TaskFamily, source: Path) -> dict:
    results = data.get("results", {})
    samples = data.get("n-samples", {})
    rows = {}
    for ability in ABILITIES:
        task = f"{family.task_prefix}{ability.code}"
        if task not in results or f"{family.accuracy_metric},{family.filter}" not in results[task]:
            continue
        n = int(samples.get(task, {}).get("effective", results[task].get("sample_len", 0)))
        invalid_rate = (
            _metric(results, task, "invalid", family, source) if family.has_invalid else 0.0
        )
        rows[ability.code] = {
            "n": n,
            "accuracy": _metric(results, task, family.accuracy_metric, family, source),
            "calibrated_accuracy": _metric(results, task, _pooled_metric(family), family, source),
            "calibrated_accuracy_per_item": _metric(
                results, task, "calibrated_acc_per_item", family, source
            ),
            "invalid": round(invalid_rate * n),
        }
    return rows


@dataclass(frozen=True)
class LmEvalRun:
    """One family's run in one results file.

    Attributes:
        run: The report run (label, source, summary, partial).
        identity: Its identity (:func:`run_identity`).
        items: Its scored items from the samples files, or ``None`` without them.
        family: The family.
    """

    run: CogLMRun
    identity: RunIdentity
    items: list[ScoredItem] | None
    family: TaskFamily


def runs_from_results(
    data: dict[str, Any],
    source: Path,
    rule: str = DEFAULT_RULE,
    chance: str = DEFAULT_CHANCE,
) -> list[LmEvalRun]:
    """One run per CogLM family found in one parsed results file.

    With samples files beside it, the summary (intervals included) is computed
    from the items under ``rule`` and ``chance``; without them it is read from
    the aggregated metrics, which follow the run's task version, and carries
    no interval.

    Raises:
        CogLMDataError: If a CogLM task lacks one of the expected metrics.
    """
    limit = data.get("config", {}).get("limit")
    partial = None if limit is None else f"lm-eval --limit {float(limit):g}"
    found = []
    for family in FAMILIES:
        rows = _aggregated_rows(data, family, source)
        if not rows:
            continue
        settings = {"chance": chance} | ({"rule": rule} if family.name == "coglm" else {})
        items = sample_items(source, family, rule, chance)
        summary = summarize(items) if items else assemble_summary(rows)
        if family.name == "coglm":
            protocol = f"log-likelihood, choice rule {rule}, chance {chance}"
        else:
            protocol = f"generation ({family.filter} answer reader), chance {chance}"
        if items is None:
            version = data.get("versions", {}).get(family.name, "?")
            options = "--rule and --chance" if family.name == "coglm" else "--chance"
            protocol = (
                f"lm-eval's aggregated metrics of tasks version {version} (no --log_samples "
                f"files: no intervals, {options} not applied)"
            )
            settings = {"scores": "aggregated"}
        label = _model_label(data) + family.label_suffix
        found.append(
            LmEvalRun(
                CogLMRun(label, source, summary, partial, protocol),
                run_identity(data, family, **settings),
                items,
                family,
            )
        )
    return found


def load_lm_eval_runs(
    path: Path, rule: str = DEFAULT_RULE, chance: str = DEFAULT_CHANCE
) -> list[LmEvalRun]:
    """Every CogLM run found at ``path``: one per results file and family, none dropped.

    A run is labelled by its model; runs of one model and family add what
    differs between them (:func:`cog_tasks.common.runs.distinguishing_labels`).

    Args:
        path: An lm-eval ``--output_path`` directory or one results file.
        rule: Choice rule of the ``coglm`` family (:data:`RULES`).
        chance: Chance rule.

    Returns:
        The runs, oldest first.

    Raises:
        FileNotFoundError: If there is no results file.
        CogLMDataError: If no results file holds CogLM tasks, or one is malformed.
    """
    dated = []
    for file in find_results_files(path):
        data = read_json(file)
        stamp = (float(data.get("date") or 0.0), str(file))
        dated.extend((stamp, run) for run in runs_from_results(data, file, rule, chance))
    if not dated:
        raise CogLMDataError(f"{path}: no results file contains coglm or coglm_gen tasks")
    runs = [run for _, run in sorted(dated, key=lambda pair: pair[0])]
    labels = [run.run.label for run in runs]
    shared = labels_of_shared_keys(
        [run.identity for run in runs], [(run.family, run.identity.model) for run in runs]
    )
    for index, shown in shared.items():
        labels[index] = shown + runs[index].family.label_suffix
    return [
        replace(run, run=replace(run.run, label=label))
        for run, label in zip(runs, labels, strict=True)
    ]


def headlines_from_lm_eval(
    output_path: Path, rule: str = DEFAULT_RULE, chance: str = DEFAULT_CHANCE, seed: int = 0
) -> list[Headline]:
    """The headlines of every ``coglm`` (log-likelihood) run found at ``output_path``.

    Per run: ``calibrated_acc_authors`` (pooled over items; each item's unit
    value ``(correct - 1/n, 1 - 1/n)``), ``overall``, ``stage1`` ... ``stage4``
    and ``cognitive_age`` (:func:`cog_tasks.coglm.headlines.item_headlines`).

    Args:
        output_path: lm-eval's ``--output_path`` (written with ``--log_samples``).
        rule: Choice rule (:data:`RULES`); the pooled measure is named
            ``calibrated_acc_<rule pick>`` (``calibrated_acc_authors`` by default).
        chance: Chance rule.
        seed: Seed of the bootstrap.

    Raises:
        FileNotFoundError: If there is no results file.
        CogLMDataError: If a ``coglm`` run has no samples files (run lm-eval
            with ``--log_samples``), or a file is malformed.
    """
    headlines: list[Headline] = []
    for found in load_lm_eval_runs(output_path, rule, chance):
        if found.family.name != "coglm":
            continue
        if found.items is None:
            raise CogLMDataError(
                f"{found.run.source}: no samples_coglm_*.jsonl beside it "
                "(run lm-eval with --log_samples)"
            )
        note = f"partial run ({found.run.partial})" if found.run.partial else ""
        headlines += item_headlines(
            found.items,
            found.identity,
            pooled_measure=f"calibrated_{RULES[rule]}",
            note=note,
            seed=seed,
        )
    return headlines


def chance_headlines(
    seed: int = 0,
    limit: int | None = None,
    abilities: Sequence[str] | None = None,
    chance: str = DEFAULT_CHANCE,
) -> list[Headline]:
    """Headlines of a seeded uniform guesser on the ``coglm`` items, no model needed.

    The items are those lm-eval's ``coglm`` runs (``limit`` first items per
    ability, as ``--limit``), so the rows pair with a model's on the same item
    ids. Run identity: task ``coglm@<version>``, model ``chance``, the seed.

    Args:
        seed: The guesser's seed.
        limit: First items per ability (lm-eval's ``--limit``); all by default.
        abilities: Ability codes; all ten by default.
        chance: Chance rule.
    """
    records = []
    for code in abilities or [ability.code for ability in ABILITIES]:
        records += load_records([ABILITY_BY_CODE[code].code])[:limit]
    arguments: dict[str, object] = {"rule": "uniform guess", "chance": chance, "limit": limit}
    identity = RunIdentity.of(f"coglm@{FAMILY_VERSION}", "chance", arguments=arguments, seed=seed)
    note = f"partial run (first {limit} items per ability)" if limit else ""
    return item_headlines(
        chance_items(records, seed, chance),
        identity,
        pooled_measure="calibrated_acc_authors",
        note=note,
        seed=seed,
    )


def lm_eval_picks(output_path: Path) -> dict[str, int]:
    """The option lm-eval's log-likelihood family chose per record id (the authors' rule).

    Reads the ``samples_coglm_<code>_<timestamp>.jsonl`` files written with
    ``--log_samples`` by one run: the folder must hold one model's runs, and of
    several runs there (lm-eval names each by its timestamp) the newest is
    read, with a warning naming the others.

    Raises:
        FileNotFoundError: If no CogLM samples file is found.
        CogLMDataError: If the samples sit in several model folders, or naming
            the file and line of a malformed sample.
    """
    files = [
        file
        for ability in ABILITIES
        for file in sorted(output_path.rglob(f"samples_coglm_{ability.code}_*.jsonl"))
    ]
    folders = sorted({file.parent for file in files})
    if len(folders) > 1:
        shown = ", ".join(str(folder) for folder in folders)
        raise CogLMDataError(
            f"{output_path}: CogLM samples of {len(folders)} runs' folders ({shown}); "
            "give --lm-eval the folder of one"
        )
    # lm-eval names a run's files by its start: samples_coglm_<code>_<timestamp>.jsonl
    stamps = {file.stem.rsplit("_", 1)[1] for file in files}
    newest = max(stamps, default="")
    if len(stamps) > 1:
        warnings.warn(
            f"{folders[0]}: {len(stamps)} runs; reading the newest ({newest}), not "
            + ", ".join(sorted(stamps - {newest})),
            stacklevel=2,
        )
    picks: dict[str, int] = {}
    for file in (file for file in files if file.stem.endswith(f"_{newest}")):
        for number, row in iter_jsonl(file):
            try:
                loglikelihoods = [float(pair[0]) for pair in row["filtered_resps"]]
                chosen = sample_picks(row["doc"], loglikelihoods)[AUTHORS_PICK_METRIC]
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise CogLMDataError(f"{file}:{number}: unexpected sample ({error})") from error
            picks[row["doc"]["id"]] = chosen
    if not picks:
        raise FileNotFoundError(
            f"{output_path}: no samples_coglm_<ability>_*.jsonl (run lm-eval with --log_samples)"
        )
    return picks
