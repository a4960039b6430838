"""The chat-protocol task names and the reading of one of its logs, through the shared reader."""

from __future__ import annotations

import os

from inspect_ai.log import EvalLog

from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.common.logs import SUCCESS_ONLY, read_log

TASK_NAMES = ("coglm_chat", "coglm")
"""Names under which chat-protocol logs are written (the deprecated alias ``coglm`` included)."""
IGNORED_ARGUMENTS = ()
"""Task arguments that do not change the measurement (``coglm_chat`` has none)."""


def read_chat_log(path: str | os.PathLike[str]) -> EvalLog:
    """A successful ``coglm_chat`` log with its samples (else ``ValueError`` naming the file)."""
    log = read_log(path, tasks=TASK_NAMES, statuses=SUCCESS_ONLY)
    if not log.samples:
        raise CogLMDataError(f"{path}: the log holds no samples (was it written without samples?)")
    return log
