"""A toy fifth benchmark, registered by tests only: one folder's worth, declared once.

It has what ``docs/adding-a-benchmark.md`` asks of a benchmark: an Inspect
task, headlines through :mod:`cog_tasks.common.pipeline`, paper rows, a
seeded chance answerer, a trivial strategy, preset steps and a CLI group
with a ``report`` command. :data:`SPEC` is what a registry line would list.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from cog_tasks.common.headlines import Headline, PaperRow
from cog_tasks.common.logs import SUCCESS_ONLY, read_logs, run_identity, sample_status
from cog_tasks.common.pipeline import checked_rows
from cog_tasks.common.results import RunResults, UnitRecord
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.scripted import ScriptedReplies, seeded_rng
from cog_tasks.common.spec import BenchmarkSpec, Step, TrivialStrategy
from cog_tasks.common.stats import ratio_interval

NAME = "toy"
MEASURE = "accuracy"
ITEMS = 12


def answer(item: int) -> str:
    """The right letter of item ``item``: ``A`` for two items in three."""
    return "B" if item % 3 == 2 else "A"


@task
def toy_task(items: int = ITEMS) -> Task:
    """Pick the letter the item names (A or B)."""
    samples = [
        Sample(id=f"q{n}", input=f"Item {n}: answer A or B.", target=answer(n))
        for n in range(items)
    ]
    return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match(), version="1.0.0")


class ChanceAnswerer(ScriptedReplies):
    """A seeded uniform guess between A and B."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        return seeded_rng(self.seed, messages[-1].text).choice("AB")


def headlines(log: EvalLog) -> list[Headline]:
    """Accuracy over items, read -> checked by the one pipeline."""
    declared = {str(sample.id): "" for sample in log.samples or []}
    records = tuple(
        UnitRecord(
            str(sample.id),
            {MEASURE: float((sample.scores or {})["match"].value == "C")},
            sample.epoch,
            sample_status(sample, invalid=False),
        )
        for sample in log.samples or []
    )
    run = RunResults(NAME, run_identity(log), "item", records, declared, str(log.location))
    rows = []
    for row in checked_rows([(run, log)]):
        units = row.checked.unit_values(MEASURE)
        interval = ratio_interval(list(units.values()), unit="item")
        rows.append(
            Headline(NAME, MEASURE, interval, row.checked.identity, units, "", row.checked.coverage)
        )
    return rows


def constant_a(units: Sequence[str], run: RunIdentity) -> dict[str, dict[str, float]]:
    """``A`` on every item: right on two in three."""
    return {MEASURE: {unit: float(answer(int(unit[1:])) == "A") for unit in units}}


STRATEGIES = (TrivialStrategy("constant A", "toy_benchmark:constant_a"),)
PAPER_ROWS = (PaperRow(NAME, MEASURE, "toy-model", 0.9, "Toy Table 1", "zero-shot"),)


def _report(args: argparse.Namespace) -> int:
    logs = read_logs([str(path) for path in args.logs], tasks={"toy_task"}, statuses=SUCCESS_ONLY)
    for log in logs.logs:
        for headline in headlines(log):
            print(f"{headline.run.model} {headline.measure} {headline.interval.format()}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``cog-tasks toy report LOG...``."""
    group = subparsers.add_parser(NAME, help="the toy benchmark")
    commands = group.add_subparsers(dest="toy_command", required=True)
    report = commands.add_parser("report", help="headlines of toy logs")
    report.add_argument("logs", type=Path, nargs="+")
    report.set_defaults(func=_report)


def request_turns(task: str, args: Mapping[str, Any], metadata: Mapping[str, Any]) -> list[int]:
    """One request an item."""
    return [0]


SPEC = BenchmarkSpec(
    name=NAME,
    title="Toy (tests only)",
    unit="item",
    tasks=("toy_task",),
    task_module="toy_benchmark",
    headlines="toy_benchmark:headlines",
    paper="toy_benchmark:PAPER_ROWS",
    chance="toy_benchmark:ChanceAnswerer",
    trivial="toy_benchmark:STRATEGIES",
    presets={"toy": (Step(NAME, "toy_task", {"items": ITEMS}),)},
    request_turns="toy_benchmark:request_turns",
    cli="toy_benchmark",
)
