"""Read lm-eval's CogLM samples into the shared results model (one run per results file)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import yaml

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.completion import AUTHORS_PICK_METRIC, sample_picks
from cog_tasks.coglm.headlines import (
    BENCHMARK,
    UNIT,
    chance_items,
    declared_benchmark,
    item_record,
    run_headlines,
)
from cog_tasks.coglm.metrics import ScoredItem, chance_count
from cog_tasks.coglm.records import CogLMDataError, CogLMRecord, load_records
from cog_tasks.coglm.rules import DEFAULT_CHANCE, DEFAULT_RULE, RULES
from cog_tasks.common.files import iter_jsonl, read_json
from cog_tasks.common.headlines import Headline
from cog_tasks.common.lm_eval_samples import check_documents, find_results_files, read_lm_eval_run
from cog_tasks.common.pipeline import checked_rows
from cog_tasks.common.results import CheckedRun, RunResults, check_run
from cog_tasks.common.runs import RunIdentity

_VERSION_FILE = Path(__file__).parent / "coglm" / "_coglm_version.yaml"
FAMILY_VERSION = str(yaml.safe_load(_VERSION_FILE.read_text())["metadata"]["version"])
"""The ``coglm`` family's task version (from ``_coglm_version.yaml``)."""
DOCUMENT_DATA = frozenset(field.name for field in fields(CogLMRecord))
"""The keys of a logged document that are the item's data; the others (token counts of
the model's tokenizer) are left out of its hash, so models on the same items pair."""


@dataclass(frozen=True)
class TaskFamily:
    """Where one lm-eval CogLM family keeps its per-ability numbers (``filter``: in metric keys)."""

    name: str
    task_prefix: str
    filter: str
    label_suffix: str


FAMILIES = (
    TaskFamily("coglm", "coglm_", "none", ""),
    TaskFamily("coglm_gen", "coglm_gen_", "extract", " [coglm_gen]"),
    TaskFamily("coglm_gen", "coglm_gen_", "authors", " [coglm_gen, authors' rule]"),
)


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


def run_identity(data: dict[str, Any], family: TaskFamily, **settings: object) -> RunIdentity:
    """A results file's run identity for one family (task, model, arguments, seed)."""
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


def _ability_docs(task: str) -> list[dict[str, Any]]:
    """The documents lm-eval's ``coglm_<code>`` or ``coglm_gen_<code>`` task builds."""
    return [record.to_dict() for record in load_records([task.rsplit("_", 1)[1]])]


def _protocol(family: TaskFamily, rule: str, chance: str, length_units: set[str]) -> str:
    """One line on how a run was scored (``length_units``: the documents')."""
    if family.name != "coglm":
        return f"generation ({family.filter} answer reader), chance {chance}"
    if "word" in length_units and rule in ("authors", "per-token"):
        return (
            f"log-likelihood, choice rule {rule} counting words, not tokens (no tokenizer "
            f"in --model_args), chance {chance}"
        )
    return f"log-likelihood, choice rule {rule}, chance {chance}"


def results_of_file(
    results_file: Path,
    declared: dict[str, str],
    rule: str = DEFAULT_RULE,
    chance: str = DEFAULT_CHANCE,
) -> list[tuple[RunResults, TaskFamily]]:
    """One unchecked run per CogLM family in one results file (:class:`CogLMDataError` else)."""
    if rule not in RULES:
        raise CogLMDataError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    chance_count(["a", "b"], chance)  # names the valid chance rules when unknown
    found = []
    for family in FAMILIES:
        tasks = [f"{family.task_prefix}{ability.code}" for ability in ABILITIES]
        filter_name = None if family.name == "coglm" else family.filter
        run = read_lm_eval_run(results_file, tasks, filter_name=filter_name)
        if not run.samples and not run.missing:
            continue
        if not run.samples:
            raise CogLMDataError(
                f"{results_file}: no samples_{family.task_prefix}*.jsonl beside it "
                "(run lm-eval with --log_samples: every CogLM report is computed per item)"
            )
        records = []
        length_units: set[str] = set()
        for task in run.samples.values():
            for number, row in task.rows:
                length_units.add(row.get("doc", {}).get("length_unit", ""))
                try:
                    records.append(item_record(_item(row, family, rule, chance)))
                except (KeyError, TypeError, ValueError, IndexError) as error:
                    raise CogLMDataError(
                        f"{task.path}:{number}: unexpected sample ({error})"
                    ) from error
        settings = {"chance": chance} | ({"rule": rule} if family.name == "coglm" else {})
        argument, verdict = check_documents(run, _ability_docs, DOCUMENT_DATA)
        found.append(
            (
                RunResults(
                    BENCHMARK,
                    replace(run_identity(run.data, family, **settings, **argument), data=verdict),
                    UNIT,
                    tuple(records),
                    declared,
                    str(results_file),
                    _protocol(family, rule, chance, length_units - {""}),
                    # one run's filters are two readings of it, never copies of each other
                    content=f"{family.name},{family.filter}:{run.content}" if run.content else "",
                ),
                family,
            )
        )
    return found


def load_lm_eval_runs(
    path: Path | Sequence[Path], rule: str = DEFAULT_RULE, chance: str = DEFAULT_CHANCE
) -> list[tuple[CheckedRun, TaskFamily, str]]:
    """``(checked run, family, label)`` of every CogLM run at ``path``, oldest first, none dropped.

    ``path``: lm-eval ``--output_path`` folders or results files (a run found twice is read
    once, with a warning); ``rule``: the ``coglm`` family's choice rule (:data:`RULES`).
    """
    declared = declared_benchmark()
    dated = []
    paths = [path] if isinstance(path, Path) else list(path)
    for file in (found for folder in paths for found in find_results_files(folder)):
        stamp = float(read_json(file).get("date") or 0.0), str(file)
        dated.extend((stamp, found) for found in results_of_file(file, declared, rule, chance))
    if not dated:
        raise CogLMDataError(
            f"{', '.join(map(str, paths))}: no results file contains coglm or coglm_gen tasks"
        )
    runs = [found for _, found in sorted(dated, key=lambda pair: pair[0])]
    rows = checked_rows(runs, key=lambda run, family: (family, run.identity.model))
    return [(row.checked, row.extra, row.label + row.extra.label_suffix) for row in rows]


def headlines_from_lm_eval(
    output_path: Path, rule: str = DEFAULT_RULE, chance: str = DEFAULT_CHANCE, seed: int = 0
) -> list[Headline]:
    """The headlines of every ``coglm`` run at ``output_path`` (pooled: ``calibrated_<pick>``)."""
    return [
        headline
        for checked, family, _ in load_lm_eval_runs(output_path, rule, chance)
        if family.name == "coglm"
        for headline in run_headlines(
            checked, pooled_measure=f"calibrated_{RULES[rule]}", seed=seed
        )
    ]


def chance_headlines(
    seed: int = 0,
    limit: int | None = None,
    abilities: Sequence[str] | None = None,
    chance: str = DEFAULT_CHANCE,
) -> list[Headline]:
    """Headlines of a seeded uniform guesser on the items lm-eval's ``coglm`` runs (``limit``)."""
    records = []
    for code in abilities or [ability.code for ability in ABILITIES]:
        records += load_records([ABILITY_BY_CODE[code].code])[:limit]
    arguments: dict[str, object] = {"rule": "uniform guess", "chance": chance, "limit": limit}
    identity = RunIdentity.of(f"coglm@{FAMILY_VERSION}", "chance", arguments=arguments, seed=seed)
    run = RunResults(
        BENCHMARK,
        identity,
        UNIT,
        tuple(item_record(item) for item in chance_items(records, seed, chance)),
        declared_benchmark(),
        "chance",
        f"uniform guess among the listed options, chance {chance}",
    )
    return run_headlines(check_run(run), pooled_measure="calibrated_acc_authors", seed=seed)


def lm_eval_picks(output_path: Path) -> dict[str, int]:
    """The authors'-rule pick of the newest ``coglm`` run in ``output_path``, per record id."""
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
