"""EgoSocialArena Inspect logs on the shared results model: records, report cells and headlines."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, EvalSample

import cog_tasks.egosocial.inspect as tasks
import cog_tasks.egosocial.inspect.metrics as measures
from cog_tasks.common.files import report_folder
from cog_tasks.common.logs import SUCCESS_ONLY, read_logs, run_identity, task_name
from cog_tasks.common.pipeline import Row, checked_rows
from cog_tasks.common.report import row_notes
from cog_tasks.common.results import ResultsError, RunResults, UnitRecord
from cog_tasks.common.stats import UnitValue
from cog_tasks.egosocial.holdem import STYLE_OPTIONS, YES_NO, MatchRecord
from cog_tasks.egosocial.inspect.static import rotation_targets
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES as STYLE_NAMES
from cog_tasks.egosocial.opponents.holdem_observer import IdealMatch, ideal_match, shipped_opponents
from cog_tasks.egosocial.opponents.number_guessing import (
    OPENING_NUMBER,
    REFERENCE_REPLIES,
    constant_reply_game,
)
from cog_tasks.egosocial.records import LETTERS
from cog_tasks.egosocial.report import Cell, GuessCurve, Report, write_report

BENCHMARK = "egosocial"
STATIC_TASK = "egosocial_static"
BELIEFS_TASK = "egosocial_blackjack_beliefs"
NUMBER_GUESSING_TASK = "egosocial_number_guessing"
HOLDEM_TASK = "egosocial_holdem"
TASKS = (STATIC_TASK, BELIEFS_TASK, NUMBER_GUESSING_TASK, HOLDEM_TASK)
#: Task arguments that do not change the measurement.
IGNORED_ARGUMENTS = ("data_file",)
UNITS = {STATIC_TASK: "item", BELIEFS_TASK: "prompt", NUMBER_GUESSING_TASK: "game"}
HOLDING_CLASSES = ("pair or both 10+", "one card 10+", "both below 10")
SOURCE_TABLES = {"authors": "static, the authors' items", "generated": "static, generated items"}
BELIEF_KEYS = tuple(measures.BELIEF_MEASURES)
GUESSING_KEYS = ("accuracy", "invalid_rate", "win_rate")
#: The counts of a Hold'em match's score (:meth:`~cog_tasks.egosocial.holdem.MatchRecord.scores`).
HOLDEM_KEYS = (
    "style_correct", "belief_correct", "belief_asked", "holding_correct", "holding_asked",
    "raise_correct", "raise_asked", "invalid_actions", "model_actions", "chips",
)  # fmt: skip
#: Hold'em's belief questions: their answers as shown, and their classes.
QUESTIONS = {"holding": (("A", "B", "C"), HOLDING_CLASSES), "raise": (YES_NO, YES_NO)}

Metadata = Mapping[str, Mapping[str, Any]]
"""Each unit's sample metadata (label, scenario, level, opponent...)."""


class EgoRun(Row[tuple[EvalLog, Metadata]]):
    """One report row of one task; its extra is its log and its units' sample metadata."""

    @property
    def task(self) -> str:
        """The Inspect task."""
        return task_name(self.extra[0])

    @property
    def metadata(self) -> Metadata:
        """Each unit's sample metadata."""
        return self.extra[1]

    @cached_property
    def curves(self) -> tuple[GuessCurve, ...]:
        """Every Number Guessing game played (each epoch and run); none for another task."""
        if self.task != NUMBER_GUESSING_TASK:
            return ()
        return tuple(curve for log, _ in self.extras for curve in _curves(self.label, log))


def declared_samples(log: EvalLog) -> dict[str, tuple[str, Mapping[str, Any]]]:
    """The log's samples: id -> (group: item source, game level or opponent; metadata)."""
    factory = getattr(tasks, task_name(log))
    try:
        task = factory(**(log.eval.task_args or {}))
    except (OSError, TypeError, ValueError) as error:  # TypeError: a since removed argument
        raise ResultsError(
            f"{log.location}: cannot rebuild its declared samples ({error})"
        ) from error
    declared = {}
    for sample in task.dataset:
        metadata = sample.metadata or {}
        group = metadata.get("source") or metadata.get("opponent") or ""
        if "level" in metadata:
            group = f"L{metadata['level']}"
        declared[str(sample.id)] = (str(group), metadata)
    return declared


def _cut(sample: EvalSample) -> bool:
    """Whether a reply of the evaluated model (no role) stopped at its token limit."""
    return any(
        event.role is None and event.output.stop_reason == "max_tokens"
        for event in sample.events
        if isinstance(event, ModelEvent)
    ) or (sample.output is not None and sample.output.stop_reason == "max_tokens")


def _static_values(sample: EvalSample, value: Mapping[str, float], circular: bool) -> dict:
    """The static measures and, on the sample's own targets, the reference rows' measures."""
    options = len(sample.choices or [])
    targets = rotation_targets(str(sample.target), options, circular)
    values = {key: float(value.get(key, 0.0)) for key in ("all", "invalid")}
    values["chance"] = 1 / options
    for letter in LETTERS[: max(options, 4)]:
        values[f"always {letter}"] = float(targets[0] == letter)
    if circular:
        values.update({key: float(value.get(key, 0.0)) for key in ("circular", "circular_invalid")})
        values["circular chance"] = (1 / options) ** options
        for letter in LETTERS[: max(options, 4)]:
            values[f"circular always {letter}"] = float(all(t == letter for t in targets))
    return values


def _holdem_values(
    value: Mapping[str, float], match: Mapping[str, Any], sample: Mapping[str, Any]
) -> dict:
    """The match's counts, its questions' golds and the ideal observer on its own hands."""
    values = {key: float(value.get(key, 0.0)) for key in HOLDEM_KEYS}
    opponents = shipped_opponents(str(sample.get("opponents", "dqn")))
    ideal = (
        ideal_match(MatchRecord.from_dict(dict(match)), opponents)
        if match.get("hands")
        else IdealMatch(0, 0, 0.0, True)
    )
    values["ideal holding correct"] = float(ideal.holding_correct)
    values["ideal holding asked"] = float(ideal.holding_asked)
    values["ideal style"] = ideal.style_correct
    values["ideal consistent"] = float(ideal.consistent)
    beliefs = [belief for hand in match.get("hands", []) for belief in hand["beliefs"]]
    for question, (answers, classes) in QUESTIONS.items():
        asked = [belief for belief in beliefs if belief["question"] == question]
        for answer in answers:
            values[f"{question} letter {answer}"] = float(
                sum(b["gold_letter"] == answer for b in asked)
            )
        for index in range(len(classes)):
            values[f"{question} class {index}"] = float(sum(b["gold"] == index for b in asked))
    return values


def _invalid(task: str, value: Mapping[str, float], details: Mapping[str, Any]) -> bool:
    """Whether the benchmark could not read some reply of the sample (see the module docstring)."""
    if task == STATIC_TASK:
        return bool(value.get("circular_invalid", value["invalid"]))
    if task == BELIEFS_TASK:
        return bool(value["not_stated"])
    if task == NUMBER_GUESSING_TASK:
        return bool(value["invalid_rate"])
    unread = any(b["answer"] is None for hand in details["hands"] for b in hand["beliefs"])
    return bool(value["invalid_actions"]) or details["style_answer"] is None or unread


def _status(task: str, sample: EvalSample, value: Mapping[str, float], details: Mapping) -> str:
    if sample.error is not None:
        return "error"
    if _cut(sample):
        return "truncated"
    if task == BELIEFS_TASK and value["judge_unparsed_rate"]:
        return "judge_invalid"
    return "invalid" if _invalid(task, value, details) else "valid"


def _values(
    task: str, sample: EvalSample, value: Mapping[str, float], details: Mapping, circular: bool
) -> dict:
    """A record's measures; an errored sample's ``value`` is empty, so its measures are 0."""
    if task == STATIC_TASK:
        return _static_values(sample, value, circular)
    if task == HOLDEM_TASK:
        return _holdem_values(value, details, sample.metadata or {})
    if task == NUMBER_GUESSING_TASK:
        return _guessing_values(sample.metadata, value)
    return {key: float(value.get(key, 0.0)) for key in (*BELIEF_KEYS, "not_stated")}


def _guessing_values(game: Mapping[str, Any], value: Mapping[str, float]) -> dict:
    """The game's rates and those of the reference replies against its opponent and opening."""
    values = {key: float(value.get(key, 0.0)) for key in GUESSING_KEYS}
    opening = int(game.get("opening", OPENING_NUMBER))
    for name, reply in REFERENCE_REPLIES.items():
        played = constant_reply_game(reply, game["level"], game["rounds"], opening)
        values[f"{name} accuracy"] = played.accuracy()
        values[f"{name} win_rate"] = played.win_rate()
    return values


def log_results(log: EvalLog) -> tuple[RunResults, dict[str, Mapping[str, Any]]]:
    """One EgoSocialArena log as an unchecked run, with each declared sample's metadata."""
    task = task_name(log)
    declared = declared_samples(log)
    circular = bool((log.eval.task_args or {}).get("circular"))
    records = []
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()), None)
        value = score.value if score is not None and sample.error is None else {}
        details = (score.metadata or {}) if score is not None else {}
        records.append(
            UnitRecord(
                unit=str(sample.id),
                values=_values(task, sample, value, details, circular),  # type: ignore[arg-type]
                epoch=sample.epoch,
                status=_status(task, sample, value, details),  # type: ignore[arg-type]
                group=declared.get(str(sample.id), ("", {}))[0],
            )
        )
    unit = UNITS.get(task, "match")
    run = RunResults(
        BENCHMARK,
        run_identity(log, ignore=IGNORED_ARGUMENTS),
        unit,
        tuple(records),
        {unit: group for unit, (group, _) in declared.items()},
        str(log.location),
        f"{task}: every sample of every epoch, epochs averaged within each {unit}",
    )
    return run, {unit: metadata for unit, (_, metadata) in declared.items()}


def _cell(
    run: EgoRun, table: str, column: str, values: Mapping[str, UnitValue], measure: str = ""
) -> Cell:
    """A model row's cell, carrying the run's coverage and note."""
    unit = run.checked.run.unit
    return Cell(table, run.label, column, values, unit, False, run.checked.coverage, measure)


def _reference(run: EgoRun, name: str, table: str, column: str, values: Mapping) -> Cell:
    """A reference row's cell on the same units as ``run``'s."""
    return Cell(table, f"{run.label} · {name}", column, values, run.checked.run.unit, True)


def _means(run: EgoRun, measure: str, units: Collection[str]) -> dict[str, UnitValue]:
    return {unit: run.checked.values[unit][measure] for unit in units}


def _pairs(run: EgoRun, top: str, bottom: str, units: Collection[str]) -> dict[str, UnitValue]:
    values = run.checked.values
    return {unit: (values[unit][top], values[unit][bottom]) for unit in units}


def _static_cells(run: EgoRun) -> Iterator[Cell]:
    """Accuracy per source, overall, per label and per scenario (and circular), then references."""
    values = run.checked.values
    for source, table in SOURCE_TABLES.items():
        chosen = [u for u in values if run.metadata[u].get("source", "generated") == source]
        if not chosen:
            continue
        columns: dict[str, list[str]] = {"all": chosen}
        for field in ("label", "scenario"):
            for unit in chosen:
                columns.setdefault(str(run.metadata[unit][field]), []).append(unit)
        prefixes = ("", "circular ") if "circular" in values[chosen[0]] else ("",)
        for prefix in prefixes:
            accuracy = "circular" if prefix else "all"
            measure = measures.STATIC_MEASURES[f"{prefix}source:{source}"]
            for column, members in columns.items():
                shown = measure if column == "all" else ""
                yield _cell(run, table, prefix + column, _means(run, accuracy, members), shown)
            invalid = _means(run, f"{prefix}invalid".replace(" ", "_"), chosen)
            yield _cell(run, table, f"{prefix}invalid", invalid)
        letters = sorted(
            {key.split()[-1] for unit in chosen for key in values[unit] if key.startswith("always")}
        )
        majority = max(
            letters, key=lambda letter: sum(values[u][f"always {letter}"] for u in chosen)
        )
        references = [(f"always {letter}", f"always {letter}") for letter in letters]
        references.append((f"majority letter ({majority})", f"always {majority}"))
        references.append(("chance (expected)", "chance"))
        for prefix in prefixes:
            for name, key in references:
                for column, members in columns.items():
                    shown = _means(run, prefix + key, members)
                    yield _reference(run, name, table, prefix + column, shown)


def _guessing_cells(run: EgoRun) -> Iterator[Cell]:
    """Hit rate over every game and per level (the headlines), win and invalid rates, references."""
    table = "Number Guessing (per game)"
    units = list(run.checked.values)
    levels = sorted({int(run.metadata[unit]["level"]) for unit in units})
    scopes = {"": units} | {
        f"L{level} ": [unit for unit in units if int(run.metadata[unit]["level"]) == level]
        for level in levels
    }
    for scope, games in scopes.items():
        measure = measures.guessing_measure(scope.strip())
        yield _cell(run, table, f"{scope}hit rate", _means(run, "accuracy", games), measure)
    yield _cell(run, table, "win rate", _means(run, "win_rate", units))
    yield _cell(run, table, "invalid rate", _means(run, "invalid_rate", units))
    for name in REFERENCE_REPLIES:
        for scope, games in scopes.items():
            hits = _means(run, f"{name} accuracy", games)
            yield _reference(run, name, table, f"{scope}hit rate", hits)
        yield _reference(run, name, table, "win rate", _means(run, f"{name} win_rate", units))


def guessing_note(run: EgoRun) -> str:
    """The flag on a Number Guessing row's win rate: what a constant ``Choice: 1`` wins there."""
    values = run.checked.values
    lowest = sum(values[u]["constant lowest choice win_rate"] for u in values) / len(values)
    return (
        f"win rate is secondary: a constant 'Prediction: 50; Choice: 1' wins {lowest:.3f} "
        "of the rounds on the same games (the lower number always wins)"
    )


def _holdem_cells(run: EgoRun) -> Iterator[Cell]:
    """Style, beliefs per question and opponent (references on the same hands), invalid actions."""
    table = "Limit Hold'em (per match)"
    values = run.checked.values
    units = list(values)
    styles = sorted({str(run.metadata[unit]["opponent"]) for unit in units})
    scopes = {
        style: [unit for unit in units if run.metadata[unit]["opponent"] == style]
        for style in styles
    }
    ideal = _ideal_observer_name(run, units)
    for suffix, members in [(f" ({s})", m) for s, m in scopes.items()] + [("", units)]:
        column = "style" + suffix
        shown = measures.HOLDEM_STYLE if not suffix else ""
        yield _cell(run, table, column, _means(run, "style_correct", members), shown)
        chance = {unit: 1 / len(STYLE_OPTIONS) for unit in members}
        yield _reference(run, "chance (expected)", table, column, chance)
        yield _reference(run, ideal, table, column, _means(run, "ideal style", members))
    beliefs = _pairs(run, "belief_correct", "belief_asked", units)
    yield _cell(run, table, "beliefs", beliefs, measures.HOLDEM_BELIEFS)
    for question, (answers, classes) in QUESTIONS.items():
        for suffix, members in [("", units)] + [(f" ({s})", m) for s, m in scopes.items()]:
            column = question + suffix
            asked = f"{question}_asked"
            yield _cell(run, table, column, _pairs(run, f"{question}_correct", asked, members))
            if not sum(values[unit][asked] for unit in members):
                continue
            majority = max(
                range(len(classes)),
                key=lambda index: sum(values[u][f"{question} class {index}"] for u in members),
            )
            rules = [(f"always {answer}", f"{question} letter {answer}") for answer in answers]
            rules.append((f"majority class ({classes[majority]})", f"{question} class {majority}"))
            for name, key in rules:
                yield _reference(run, name, table, column, _pairs(run, key, asked, members))
            if question == "holding":
                chance = {u: (values[u][asked] / len(classes), values[u][asked]) for u in members}
                yield _reference(run, "chance (expected)", table, column, chance)
                best = _pairs(run, "ideal holding correct", "ideal holding asked", members)
                yield _reference(run, ideal, table, column, best)
    actions = _pairs(run, "invalid_actions", "model_actions", units)
    yield _cell(run, table, "invalid actions", actions)
    yield from _holdem_gaps(run, table, units)


#: A paired gap's range: the difference of two shares.
GAP = (-1.0, 1.0)


def _holdem_gaps(run: EgoRun, table: str, units: list[str]) -> Iterator[Cell]:
    """The model's paired gaps, match by match, to the ideal observer and to the majority class."""
    values = run.checked.values
    asked = sum(values[u]["holding_asked"] for u in units)
    classes = range(len(HOLDING_CLASSES))
    majority = max(classes, key=lambda i: sum(values[u][f"holding class {i}"] for u in units))
    style = max(
        STYLE_NAMES, key=lambda name: sum(run.metadata[u]["opponent"] == name for u in units)
    )

    def holding(u: str, reference: str) -> tuple[float, float]:
        return values[u]["holding_correct"] - values[u][reference], values[u]["holding_asked"]

    gaps = {
        "holding − ideal observer": {u: holding(u, "ideal holding correct") for u in units},
        "holding − majority class": {u: holding(u, f"holding class {majority}") for u in units},
        "style − ideal observer": {
            u: values[u]["style_correct"] - values[u]["ideal style"] for u in units
        },
        "style − majority class": {
            u: values[u]["style_correct"] - float(run.metadata[u]["opponent"] == style)
            for u in units
        },
    }
    for column, gap in gaps.items():
        if column.startswith("holding") and not asked:
            continue
        unit = run.checked.run.unit
        yield Cell(table, run.label, column, gap, unit, False, run.checked.coverage, "", GAP)


def holdem_note(run: EgoRun) -> str:
    """The flag of a row played against the DQN opponents, whose play hides their cards."""
    kinds = {str(run.metadata[u].get("opponents", "dqn")) for u in run.checked.values}
    if "dqn" not in kinds:
        return ""
    return (
        "opponent uninformative: ideal observer = majority class (the DQN opponents' play "
        "does not depend on their cards; opponents=rules is the default from Hold'em 4.0.0)"
    )


def _ideal_observer_name(run: EgoRun, units: Collection[str]) -> str:
    """The ideal observer's row name; it says where the replayed opponents did not play the log."""
    foreign = sum(not run.checked.values[unit]["ideal consistent"] for unit in units)
    if not foreign:
        return "ideal observer"
    return f"ideal observer (not this log's opponent in {foreign} of {len(units)} matches)"


def _beliefs_cells(run: EgoRun) -> Iterator[Cell]:
    for key in BELIEF_KEYS:
        values = _means(run, key, run.checked.values)
        yield _cell(run, "Blackjack beliefs (judged)", key, values, measures.BELIEF_MEASURES[key])


CELLS: dict[str, Callable[[EgoRun], Iterator[Cell]]] = {
    STATIC_TASK: _static_cells,
    BELIEFS_TASK: _beliefs_cells,
    NUMBER_GUESSING_TASK: _guessing_cells,
    HOLDEM_TASK: _holdem_cells,
}
"""Each task's cells of one run, model rows and reference rows."""


def run_cells(run: EgoRun) -> list[Cell]:
    """Every cell of one run, model rows and references, in display order."""
    return list(CELLS[run.task](run))


def _curves(label: str, log: EvalLog) -> Iterator[GuessCurve]:
    """Every Number Guessing game of a log (each epoch), as played."""
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()), None)
        if score is None:
            continue
        rounds = (score.metadata or {}).get("completed", [])
        yield GuessCurve(
            model=label,
            level=int(sample.metadata["level"]),
            epoch=sample.epoch,
            opponent=tuple(r["opponent_number"] for r in rounds),
            predictions=tuple(r["prediction"] for r in rounds),
        )


def checked_runs(logs: list[EvalLog], pool_seeds: bool = False) -> list[EgoRun]:
    """Check and label every log (``pool_seeds`` pools runs differing by seed only)."""
    read = [(run, (log, metadata)) for log in logs for run, metadata in [log_results(log)]]
    return checked_rows(
        read, pool_seeds=pool_seeds, key=lambda _, extra: task_name(extra[0]), row=EgoRun
    )


def build_report(logs: list[EvalLog], pool_seeds: bool = False) -> Report:
    """Cells for every log: one row per run identity, references beside each; notes per row."""
    report = Report()
    for run in checked_runs(logs, pool_seeds):
        report.cells += run_cells(run)
        report.curves += run.curves
        guessing = run.task == NUMBER_GUESSING_TASK and run.checked.values
        notes = [run.note(), guessing_note(run) if guessing else ""]
        notes.append(holdem_note(run) if run.task == HOLDEM_TASK else "")
        report.notes += row_notes((run.label, note) for note in notes)
    return report


def report_logs(
    log_dir: Path,
    out_dir: Path | None = None,
    statuses: Collection[str] = SUCCESS_ONLY,
    pool_seeds: bool = False,
) -> tuple[list[Path], str]:
    """Write the report for the logs in ``log_dir``; return the files and the skipped-logs note."""
    found = read_logs(log_dir, tasks=TASKS, statuses=statuses)
    logs = [log for log in found.logs if log.samples]
    if not logs:
        note = f" ({found.skipped_note()})" if found.skipped else ""
        raise FileNotFoundError(f"no EgoSocialArena logs with samples in {log_dir}{note}")
    report = build_report(logs, pool_seeds)
    return write_report(report, report_folder(out_dir, "egosocial-report")), found.skipped_note()
