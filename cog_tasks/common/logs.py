"""The one Inspect log reader every report uses.

Logs are filtered by task name and by status. The default keeps successful
logs only, so a failed or cancelled run never reaches a report; what was
skipped is returned too, so the report can say so.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

SUCCESS_ONLY: frozenset[str] = frozenset({"success"})
EVERY_STATUS: frozenset[str] = frozenset({"started", "success", "cancelled", "error"})


def task_name(log: EvalLog) -> str:
    """A log's task name without its registry prefix (``cog_tasks/coglm_chat`` → ``coglm_chat``)."""
    return log.eval.task.split("/")[-1]


@dataclass(frozen=True)
class LogSet:
    """The logs that were read, and those skipped for their status.

    Attributes:
        logs: Matching logs with their samples, oldest first.
        skipped: ``(path, status)`` of matching logs left out for their status.
    """

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
    """Every log file in a folder (recursively), or the given files."""
    sources = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    paths: list[str] = []
    for item in sources:
        path = Path(item)
        if path.is_dir():
            paths.extend(info.name for info in list_eval_logs(str(path)))
        elif path.is_file():
            paths.append(str(path))
        else:
            raise FileNotFoundError(f"{path}: no such log file or folder")
    return paths


def read_logs(
    source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    tasks: Collection[str] | None = None,
    statuses: Collection[str] = SUCCESS_ONLY,
    header_only: bool = False,
) -> LogSet:
    """Read the Inspect logs of the given tasks from folders or files.

    Headers are read first; only matching logs are then read in full (without
    events and attachments, which no report needs).

    Args:
        source: A log folder (searched recursively), a log file, or several.
        tasks: Task names to keep (without registry prefix); ``None`` keeps all.
        statuses: Log statuses to keep; default successful logs only.
        header_only: Skip the samples.

    Returns:
        The logs, oldest first, and the matching logs skipped for their status.

    Raises:
        FileNotFoundError: If a named file or folder does not exist.
        ValueError: If a status is not one Inspect writes.
    """
    unknown = set(statuses) - EVERY_STATUS
    if unknown:
        raise ValueError(f"unknown log status(es) {sorted(unknown)}; use {sorted(EVERY_STATUS)}")
    logs: list[EvalLog] = []
    skipped: list[tuple[str, str]] = []
    for path in _log_paths(source):
        header = read_eval_log(path, header_only=True)
        if tasks is not None and task_name(header) not in tasks:
            continue
        if header.status not in statuses:
            skipped.append((path, header.status))
            continue
        logs.append(
            header if header_only else read_eval_log(path, exclude_fields={"events", "attachments"})
        )
    logs.sort(key=lambda log: log.eval.created)
    return LogSet(logs, skipped)
