"""The one Inspect log reader every report uses, filtering by task and status."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cog_tasks.common.errors import UserError
from cog_tasks.common.files import mark_input
from cog_tasks.common.provenance import DATA_PROVENANCE, data_verdict
from cog_tasks.common.runs import RunIdentity, distinct_by_content, inspect_content

CHANCE_SEED = "chance_seed"  # Log metadata key of a chance answerer's seed.
DATA_ARGUMENT = "data_sha256"  # The identity argument holding the hash of the data a run read.
DATA_DIGITS = 12  # How many hex digits of the data's SHA-256 a run identity keeps.

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalSample

LOG_STATUSES: tuple[str, ...] = ("started", "success", "cancelled", "error")
"""Inspect log statuses, in a fixed order."""
SUCCESS_ONLY: frozenset[str] = frozenset({"success"})
EVERY_STATUS: frozenset[str] = frozenset(LOG_STATUSES)


class InspectLogError(UserError):
    """A file that is not an Inspect log, or a log of the wrong task or status."""


def task_name(log: EvalLog) -> str:
    """A log's task name without its registry prefix (``cog_tasks/coglm_chat`` → ``coglm_chat``)."""
    return log.eval.task.split("/")[-1]


@dataclass(frozen=True)
class LogSet:
    """The logs that were read, oldest first, and ``(path, status)`` of those skipped for status."""

    logs: list[EvalLog]
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def skipped_note(self) -> str:
        """One line on what was skipped, or ``""`` when nothing was."""
        if not self.skipped:
            return ""
        statuses = sorted({status for _, status in self.skipped})
        return (
            f"skipped {len(self.skipped)} log(s) with status {', '.join(statuses)} "
            "(pass --status to include them)"
        )


def _log_paths(source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    sources = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    paths: list[str] = []
    for item in sources:
        path = Path(item)
        if path.is_dir():
            from inspect_ai.log import list_eval_logs

            paths.extend(info.name for info in list_eval_logs(str(path)))
        elif path.is_file():
            paths.append(str(path))
        else:
            raise FileNotFoundError(f"{path}: no such log file or folder")
    return paths


def _check_statuses(statuses: Collection[str]) -> None:
    unknown = set(statuses) - EVERY_STATUS
    if unknown:
        raise UserError(f"unknown log status(es) {sorted(unknown)}; use {sorted(EVERY_STATUS)}")


def _read(path: str, header_only: bool) -> EvalLog:
    """One log file: its header, or all of it but events and attachments (no report needs them)."""
    from inspect_ai.log import read_eval_log

    if Path(path).is_file():
        mark_input(path)  # no output of this process may replace it
    try:
        if header_only:
            return read_eval_log(path, header_only=True)
        return read_eval_log(path, exclude_fields={"events", "attachments"})
    except FileNotFoundError as error:
        raise FileNotFoundError(f"{path}: no such log file") from error
    except (ValueError, KeyError, zipfile.BadZipFile) as error:
        raise InspectLogError(f"{path}: not an Inspect log ({error})") from error


def read_logs(
    source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    tasks: Collection[str],
    statuses: Collection[str],
) -> LogSet:
    """Read the Inspect logs of ``tasks`` from folders or files (a copied log once, warned)."""
    _check_statuses(statuses)
    logs: list[EvalLog] = []
    skipped: list[tuple[str, str]] = []
    for path in _log_paths(source):
        header = _read(path, header_only=True)
        if task_name(header) not in tasks:
            continue
        if header.status not in statuses:
            skipped.append((path, header.status))
            continue
        logs.append(_read(path, header_only=False))
    logs.sort(key=lambda log: log.eval.created)
    logs = distinct_by_content(
        logs, inspect_content, lambda log: log.location.removeprefix("file://")
    )
    return LogSet(logs, skipped)


def read_log(
    path: str | os.PathLike[str], *, tasks: Collection[str], statuses: Collection[str]
) -> EvalLog:
    """Read one Inspect log file (path or ``file://`` URI) of one of ``tasks`` and ``statuses``."""
    _check_statuses(statuses)
    header = _read(str(path), header_only=True)
    task = task_name(header)
    if task not in tasks:
        raise InspectLogError(
            f"{path}: a log of task {task!r}, expected {' or '.join(map(repr, sorted(tasks)))}"
        )
    if header.status not in statuses:
        raise InspectLogError(
            f"{path}: a log with status {header.status!r}, expected "
            f"{' or '.join(map(repr, sorted(statuses)))}"
        )
    return _read(str(path), header_only=False)


def run_identity(log: EvalLog, *, ignore: Collection[str] = ()) -> RunIdentity:
    """The identity of an Inspect run: task, model, roles, arguments, settings, seed and data."""
    spec = log.eval
    task_args = spec.task_args or {}
    chance_seed = (spec.metadata or {}).get(CHANCE_SEED)
    arguments: dict[str, object] = {
        name: value
        for name, value in task_args.items()
        if name not in ignore and (name != "seed" or chance_seed is not None)
    }
    data = (spec.metadata or {}).get(DATA_PROVENANCE)
    if isinstance(data, dict) and isinstance(data.get("sha256"), str):
        arguments[DATA_ARGUMENT] = data["sha256"][:DATA_DIGITS]
    generate = spec.model_generate_config.model_dump(exclude_none=True)
    generate_seed = generate.pop("seed", None)
    arguments.update({f"generate.{name}": value for name, value in generate.items()})
    model = spec.model
    weights = {
        name: value
        for name, value in (spec.model_args or {}).items()
        if isinstance(value, (str, int, float, bool))
    }
    if weights:
        model += "[" + ",".join(f"{name}={value}" for name, value in sorted(weights.items())) + "]"
    roles = {role: config.model for role, config in (spec.model_roles or {}).items()}
    seed = chance_seed if chance_seed is not None else task_args.get("seed", generate_seed)
    task = task_name(log) + (f"@{spec.task_version}" if spec.task_version else "")
    verdict = data_verdict(data)
    return RunIdentity.of(task, model, roles=roles, arguments=arguments, seed=seed, data=verdict)


def sample_status(sample: EvalSample, *, invalid: bool) -> str:
    """A sample's status in the results model: ``error``, ``truncated``, ``invalid``, ``valid``."""
    if sample.error is not None:
        return "error"
    if sample.output is not None and sample.output.stop_reason == "max_tokens":
        return "truncated"
    return "invalid" if invalid else "valid"
