"""Read EgoSocialArena Inspect logs into the core report's cells.

Logs come through :func:`cog_tasks.common.logs.read_logs` (successful logs
only unless other statuses are asked for). Every log is its own row unless
``pool_seeds`` is asked for (:func:`cog_tasks.common.runs.group_runs`); rows
are labelled by what distinguishes their run identities. Reference rows
(always the same letter, the majority letter or class, chance) are computed
on the items, games or hands of the row they follow. Figures and tables are
drawn by :mod:`cog_tasks.egosocial.report`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from cog_tasks.common.logs import SUCCESS_ONLY, read_logs, run_identity, task_name
from cog_tasks.common.runs import group_runs, labels_of_shared_keys
from cog_tasks.common.stats import UnitValue
from cog_tasks.egosocial.holdem import YES_NO
from cog_tasks.egosocial.report import Cell, GuessCurve, Report, write_report

STATIC_TASK = "egosocial_static"
BELIEFS_TASK = "egosocial_blackjack_beliefs"
NUMBER_GUESSING_TASK = "egosocial_number_guessing"
HOLDEM_TASK = "egosocial_holdem"
TASKS = (STATIC_TASK, BELIEFS_TASK, NUMBER_GUESSING_TASK, HOLDEM_TASK)
HOLDING_CLASSES = ("pair or both 10+", "one card 10+", "both below 10")
SOURCE_TABLES = {"authors": "static, the authors' items", "generated": "static, generated items"}


@dataclass(frozen=True)
class SampleUnit:
    """One scored sample (an item, a game or a match) of a log.

    Attributes:
        id: ``<sample id>#<epoch>``, stable across runs on the same items.
        values: The score's value.
        metadata: The sample's metadata.
        details: The score's metadata.
    """

    id: str
    values: Mapping[str, float]
    metadata: Mapping[str, Any]
    details: Mapping[str, Any]


def sample_units(log: EvalLog) -> list[SampleUnit]:
    """Every scored sample of ``log``, in log order."""
    units = []
    for sample in log.samples or []:
        if not sample.scores:
            continue
        score = next(iter(sample.scores.values()))
        units.append(
            SampleUnit(
                id=f"{sample.id}#{sample.epoch}",
                values=score.value,  # type: ignore[arg-type]
                metadata=sample.metadata or {},
                details=score.metadata or {},
            )
        )
    return units


def _static_cells(label: str, units: list[SampleUnit]) -> Iterator[Cell]:
    """Accuracy per source, overall, per label and per scenario, then the reference rows."""
    for source in ("authors", "generated"):
        chosen = [u for u in units if u.metadata.get("source", "generated") == source]
        if not chosen:
            continue
        table = SOURCE_TABLES[source]
        circular = all("circular" in u.values for u in chosen)
        columns: dict[str, list[SampleUnit]] = {"all": chosen}
        for field in ("label", "scenario"):
            for unit in chosen:
                columns.setdefault(str(unit.metadata[field]), []).append(unit)
        forms = [("", "all")] + ([("circular ", "circular")] if circular else [])
        for prefix, key in forms:
            for column, members in columns.items():
                values = tuple(float(u.values[key]) for u in members)
                yield Cell(table, label, prefix + column, values, "item")
        yield Cell(
            table, label, "invalid", tuple(float(u.values["invalid"]) for u in chosen), "item"
        )
        targets = {u.id: list(u.details["targets"]) for u in chosen}
        options = {u.id: int(u.details["options"]) for u in chosen}
        majority = Counter(t[0] for t in targets.values()).most_common(1)[0][0]
        letters = sorted({t[0] for t in targets.values()} | {"A", "B", "C", "D"})
        references = [(f"always {letter}", letter) for letter in letters]
        references.append((f"majority letter ({majority})", majority))
        for prefix, _key in forms:
            for name, letter in references:
                for column, members in columns.items():
                    values = tuple(
                        float(all(t == letter for t in targets[u.id][: 1 if not prefix else None]))
                        for u in members
                    )
                    yield Cell(table, f"{label} · {name}", prefix + column, values, "item", True)
            for column, members in columns.items():
                values = tuple(
                    (1 / options[u.id]) ** (options[u.id] if prefix else 1) for u in members
                )
                yield Cell(
                    table, f"{label} · chance (expected)", prefix + column, values, "item", True
                )


def _number_guessing_cells(label: str, units: list[SampleUnit]) -> Iterator[Cell]:
    table = "Number Guessing (per game)"
    for level in sorted({int(u.metadata["level"]) for u in units}):
        games = [u for u in units if int(u.metadata["level"]) == level]
        yield Cell(
            table,
            label,
            f"L{level} hit rate",
            tuple(float(u.values["accuracy"]) for u in games),
            "game",
        )
    for key, column in (("win_rate", "win rate"), ("invalid_rate", "invalid rate")):
        yield Cell(table, label, column, tuple(float(u.values[key]) for u in units), "game")


def _holdem_cells(label: str, units: list[SampleUnit]) -> Iterator[Cell]:
    """Style per opponent, the belief questions overall and per opponent, invalid actions.

    Each belief column is followed, on the same hands, by always-the-same-answer
    rows and the majority class of those hands (the raise answer depends on
    the opponent: the aggressive one mostly raises, the conservative one not).
    """
    table = "Limit Hold'em (per match)"
    styles = sorted({str(u.metadata["opponent"]) for u in units})
    for style in styles:
        matches = [u for u in units if u.metadata["opponent"] == style]
        values = tuple(float(u.values["style_correct"]) for u in matches)
        yield Cell(table, label, f"style ({style})", values, "match")
    scopes = [("", units)] + [
        (f" ({style})", [u for u in units if u.metadata["opponent"] == style]) for style in styles
    ]
    for question, answers, classes in (
        ("holding", ("A", "B", "C"), HOLDING_CLASSES),
        ("raise", YES_NO, YES_NO),
    ):
        for suffix, members in scopes:
            column = question + suffix
            pairs: tuple[UnitValue, ...] = tuple(
                (float(u.values[f"{question}_correct"]), float(u.values[f"{question}_asked"]))
                for u in members
            )
            yield Cell(table, label, column, pairs, "match")
            asked = {
                u.id: [
                    b
                    for hand in u.details.get("hands", [])
                    for b in hand["beliefs"]
                    if b["question"] == question
                ]
                for u in members
            }
            every = [b for found in asked.values() for b in found]
            if not every:
                continue
            majority = Counter(b["gold"] for b in every).most_common(1)[0][0]
            rules = [(f"always {answer}", "gold_letter", answer) for answer in answers]
            rules.append((f"majority class ({classes[majority]})", "gold", majority))
            for name, key, answer in rules:
                pairs = tuple(
                    (float(sum(b[key] == answer for b in asked[u.id])), float(len(asked[u.id])))
                    for u in members
                )
                yield Cell(table, f"{label} · {name}", column, pairs, "match", True)
    invalid = tuple(
        (float(u.values["invalid_actions"]), float(u.values["model_actions"])) for u in units
    )
    yield Cell(table, label, "invalid actions", invalid, "match")


def _beliefs_cells(label: str, units: list[SampleUnit]) -> Iterator[Cell]:
    for key in ("self_belief", "external_belief", "judge_unparsed_rate"):
        values = tuple(float(u.values[key]) for u in units)
        yield Cell("Blackjack beliefs (judged)", label, key, values, "item")


def _curves(label: str, units: list[SampleUnit]) -> Iterator[GuessCurve]:
    for unit in units:
        rounds = unit.details.get("completed", [])
        yield GuessCurve(
            model=label,
            level=int(unit.metadata["level"]),
            epoch=int(unit.id.rsplit("#", 1)[1]),
            opponent=tuple(r["opponent_number"] for r in rounds),
            predictions=tuple(r["prediction"] for r in rounds),
        )


def build_report(logs: list[EvalLog], pool_seeds: bool = False) -> Report:
    """Cells for every log: one row per run identity, references beside each.

    Args:
        logs: EgoSocialArena logs with samples.
        pool_seeds: Pool runs that differ only by seed (the report says so).

    Returns:
        The report.
    """
    groups = group_runs(logs, run_identity, pool_seeds=pool_seeds)
    shared = labels_of_shared_keys(
        [group.identity for group in groups], [task_name(group.runs[0]) for group in groups]
    )
    labels = [shared.get(position, group.identity.model) for position, group in enumerate(groups)]
    report = Report()
    builders = {
        STATIC_TASK: _static_cells,
        BELIEFS_TASK: _beliefs_cells,
        NUMBER_GUESSING_TASK: _number_guessing_cells,
        HOLDEM_TASK: _holdem_cells,
    }
    for group, label in zip(groups, labels, strict=True):
        units = [unit for log in group.runs for unit in sample_units(log)]
        task = task_name(group.runs[0])
        report.cells += builders[task](label, units)
        if task == NUMBER_GUESSING_TASK:
            report.curves += _curves(label, units)
        if group.pooled:
            report.notes.append(f"{label}: {group.pooling_note()}")
    return report


def report_logs(
    log_dir: Path,
    out_dir: Path | None = None,
    statuses: Collection[str] = SUCCESS_ONLY,
    pool_seeds: bool = False,
) -> tuple[list[Path], str]:
    """Write the report for the logs in ``log_dir``.

    Returns:
        The files written and the note on skipped logs (``""`` when none were).

    Raises:
        FileNotFoundError: If no EgoSocialArena log with samples is found.
    """
    found = read_logs(log_dir, tasks=TASKS, statuses=statuses)
    logs = [log for log in found.logs if sample_units(log)]
    if not logs:
        note = f" ({found.skipped_note()})" if found.skipped else ""
        raise FileNotFoundError(f"no EgoSocialArena logs with samples in {log_dir}{note}")
    report = build_report(logs, pool_seeds)
    return write_report(report, out_dir or log_dir), found.skipped_note()
