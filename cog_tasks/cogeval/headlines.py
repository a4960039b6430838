"""CogEval on the shared results model: its unit (the paper's task), declared set and headlines."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cog_tasks.cogeval.generator import CogEvalItem, generate_items, split_names
from cog_tasks.cogeval.paper import BENCHMARK, condition_measure
from cog_tasks.cogeval.published import SCORED_CONDITION_FAMILIES, PublishedTask, select_published
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.headlines import Headline
from cog_tasks.common.pipeline import Row, checked_rows, row_labels
from cog_tasks.common.results import RunResults, UnitRecord
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import Interval, UnitValue, cluster_mean_interval, ratio_interval

UNIT = "task"
#: The sample metadata field holding a dialog's task (the cluster of every interval).
CLUSTER = "task"
SUCCESS = "success"
#: The condition-balanced success rate: the mean over conditions of each one's rate.
BALANCED = "success_balanced"
BALANCED_NOTE = "mean over conditions, each weighed alike (success weighs conditions by items)"
#: Failure modes meaning that no answer could be read: the reply's status is ``invalid``.
UNREAD_MODES: frozenset[str] = frozenset({"no_answer", "unparseable"})
#: Identity arguments that set the sampling temperature (a factor of the analyses).
TEMPERATURE_ARGUMENTS: frozenset[str] = frozenset(
    {"temperatures", "generate.temperature", "generate.do_sample"}
)


@dataclass(frozen=True)
class TaskFacts:
    """What the analyses need of a task: its graph, domain, condition and ``cot``."""

    graph: str
    domain: str
    condition: str
    cot: str = "none"

    @property
    def family(self) -> str:
        """The condition family (Table 1's groups, ``Experiment2``)."""
        return SCORED_CONDITION_FAMILIES[self.condition]


@dataclass(frozen=True)
class Declared:
    """A run's declared set: its tasks, their dialogs (``<item>.t<temperature>``), temperatures."""

    tasks: Mapping[str, TaskFacts]
    keys: Mapping[str, tuple[str, ...]]
    temperatures: Mapping[str, float]

    @classmethod
    def of(cls, dialogs: Iterable[tuple[str, str, TaskFacts, float]]) -> Declared:
        """The declared set of ``(item, task, facts, temperature)`` dialogs (repeats ignored)."""
        tasks: dict[str, TaskFacts] = {}
        keys: dict[str, list[str]] = {}
        temperatures: dict[str, float] = {}
        for item, task, facts, temperature in dialogs:
            key = dialog_key(item, temperature)
            tasks.setdefault(task, facts)
            if key not in temperatures:
                keys.setdefault(task, []).append(key)
                temperatures[key] = float(temperature)
        return cls(tasks, {task: tuple(found) for task, found in keys.items()}, temperatures)


def dialog_key(item: str, temperature: float) -> str:
    """A dialog's key within its task: the Inspect sample id ``<item>.t<temperature>``."""
    return f"{item}.t{float(temperature):g}"


def selection(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The item filters (graphs, domains, conditions, design, experiment) of task arguments."""
    names: dict[str, Any] = {
        key: split_names(arguments.get(key)) for key in ("graphs", "domains", "conditions")
    }
    return names | {
        "design": arguments.get("design") or "all",
        "experiment": arguments.get("experiment"),
    }


def declared_sources(
    arguments: Mapping[str, Any],
) -> list[tuple[PublishedTask | CogEvalItem, str, TaskFacts]]:
    """``(item, task id, facts)`` of every item the Inspect or lm-eval task arguments select."""
    names = selection(arguments)
    cot = arguments.get("cot")
    families = split_names(arguments.get("families"))
    if (arguments.get("source") or "published") == "published":
        keep = str(arguments.get("unscorable")).lower() == "true"
        found = [(task, task.task) for task in select_published(cot=cot, unscorable=keep, **names)]
    else:
        items = generate_items(seed=int(arguments.get("seed") or 0), cot=cot or "none", **names)
        found = [(item, item.id) for item in items]
    declared = [
        (item, task, TaskFacts(item.graph, item.domain, item.condition, item.cot))
        for item, task in found
    ]
    return [entry for entry in declared if not families or entry[2].family in families]


def declared_items(arguments: Mapping[str, Any]) -> list[tuple[str, str, TaskFacts]]:
    """``(item id, task id, facts)`` of every item the Inspect or lm-eval task arguments select."""
    return [(item.id, task, facts) for item, task, facts in declared_sources(arguments)]


def reply_status(failure_mode: str | None) -> str:
    """``invalid`` where no answer could be read, else ``valid``."""
    return "invalid" if failure_mode in UNREAD_MODES else "valid"


def dialog_record(
    task: str,
    key: str,
    condition: str,
    score: float,
    failure_mode: str | None,
    epoch: int = 1,
    status: str = "valid",
) -> UnitRecord:
    """One dialog as a record of its task: ``success`` and one indicator per failure mode."""
    values = {SUCCESS: float(score)}
    values.update({mode: float(failure_mode == mode) for mode in FAILURE_MODES})
    return UnitRecord(task, values, epoch, status, condition, key)


def run_results(
    identity: RunIdentity,
    records: Sequence[UnitRecord],
    declared: Declared,
    source: str,
    protocol: str,
) -> RunResults:
    """An unchecked CogEval run over its declared tasks (grouped by condition) and dialogs."""
    return RunResults(
        BENCHMARK,
        identity,
        UNIT,
        tuple(records),
        {task: facts.condition for task, facts in declared.tasks.items()},
        source,
        protocol,
        dict(declared.keys),
    )


@dataclass(frozen=True)
class CogEvalRun(Row[Declared]):
    """One report row (:class:`~cog_tasks.common.pipeline.Row`); its extra is its declared set."""

    @property
    def declared(self) -> Declared:
        """Its tasks' facts and its dialogs' temperatures."""
        return self.extra

    @property
    def tasks(self) -> list[str]:
        """The tasks with a record, in declared order."""
        return list(self.checked.values)

    def rate(
        self,
        measure: str = SUCCESS,
        tasks: Collection[str] | None = None,
        temperature: float | None = None,
    ) -> Interval:
        """A rate over dialogs (epoch means) with its interval over tasks."""
        values, clusters = [], []
        for task, keys in self.checked.keys.items():
            if tasks is not None and task not in tasks:
                continue
            for key, means in keys.items():
                if temperature is None or self.declared.temperatures[key] == temperature:
                    values.append(means[measure])
                    clusters.append(task)
        return cluster_mean_interval(values, clusters, unit=UNIT)

    def dialogs(self) -> list[dict[str, Any]]:
        """One row per record (every epoch) with its task's facts, for analyses and figures."""
        rows = []
        for record in self.checked.run.records:
            facts = self.declared.tasks[record.unit]
            failure = next((mode for mode in FAILURE_MODES if record.values[mode]), None)
            rows.append(
                {
                    "run": self.label,
                    "model": self.identity.model,
                    "task": record.unit,
                    "key": record.key,
                    "graph": facts.graph,
                    "domain": facts.domain,
                    "condition": facts.condition,
                    "family": facts.family,
                    "cot": facts.cot,
                    "temperature": self.declared.temperatures[record.key],
                    "score": record.values[SUCCESS],
                    "max_score": 1.0,
                    "failure_mode": failure,
                    "epoch": record.epoch,
                    "status": record.status,
                }
            )
        return rows


def checked_runs(
    runs: Sequence[tuple[RunResults, Declared]], *, pool_seeds: bool = False
) -> list[CogEvalRun]:
    """Check every run and label it (seeds pooled only with ``pool_seeds``); nothing is merged."""
    return checked_rows(runs, pool_seeds=pool_seeds, row=CogEvalRun)


def analysis_levels(runs: Sequence[CogEvalRun], factors: Collection[str]) -> list[str]:
    """Each run's LLM level in an analysis of deviance (``factors`` alone do not split runs)."""
    reduced = [
        replace(
            run.identity,
            arguments=tuple((k, v) for k, v in run.identity.arguments if k not in factors),
        )
        for run in runs
    ]
    unique = list(dict.fromkeys(reduced))
    names = dict(zip(unique, row_labels(unique), strict=True))
    return [names[identity] for identity in reduced]


def run_headlines(run: CogEvalRun) -> list[Headline]:
    """``success``, ``success_balanced``, then ``success_<condition>`` of one run, over tasks."""
    by_condition: dict[str, list[str]] = {}
    for task in run.tasks:
        by_condition.setdefault(run.declared.tasks[task].condition, []).append(task)
    chosen = [(SUCCESS, run.tasks)] + [
        (condition_measure(condition), tasks) for condition, tasks in sorted(by_condition.items())
    ]
    note = run.pooling  # the coverage note is the row's own column
    headlines = []
    for measure, tasks in chosen:
        units = {
            task: (
                sum(means[SUCCESS] for means in run.checked.keys[task].values()),
                float(len(run.checked.keys[task])),
            )
            for task in tasks
        }
        interval = run.rate(SUCCESS, set(tasks))
        headlines.append(
            Headline(BENCHMARK, measure, interval, run.identity, units, note, run.coverage)
        )
    balanced = balanced_units(headlines[0].units, run.declared.tasks)
    headlines.insert(
        1,
        Headline(
            BENCHMARK,
            BALANCED,
            ratio_interval(list(balanced.values()), unit=UNIT, bounds=(0.0, 1.0)),
            run.identity,
            balanced,
            "; ".join(part for part in (BALANCED_NOTE, note) if part),
            run.coverage,
        ),
    )
    return headlines


def balanced_units(
    units: Mapping[str, UnitValue], tasks: Mapping[str, TaskFacts]
) -> dict[str, UnitValue]:
    """Each task's ``(successes, dialogs)`` scaled so every condition weighs alike."""
    totals: dict[str, float] = {}
    for task, (_, dialogs) in units.items():  # type: ignore[misc]
        condition = tasks[task].condition
        totals[condition] = totals.get(condition, 0.0) + dialogs
    return {
        task: (hits / totals[tasks[task].condition], dialogs / totals[tasks[task].condition])
        for task, (hits, dialogs) in units.items()  # type: ignore[misc]
    }
