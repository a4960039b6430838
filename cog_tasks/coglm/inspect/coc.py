"""Chain of cognition: a stronger model's rationales, read from its Inspect log."""

from __future__ import annotations

import os

from inspect_ai.log import read_eval_log


def rationales_from_log(log_path: str | os.PathLike[str]) -> dict[str, str]:
    """Return the final completion of every sample (first epoch) by sample id.

    Args:
        log_path: An Inspect log of a ``coglm_chat`` run by the stronger model
            (``.eval`` or ``.json``), written with samples.

    Returns:
        Reply text per sample id, as written (the prompt removes its answer
        statements, see :func:`cog_tasks.coglm.prompts.chat_prompt`).

    Raises:
        ValueError: If the log holds no samples.
    """
    log = read_eval_log(str(log_path), exclude_fields={"events", "attachments"})
    if not log.samples:
        raise ValueError(f"{log_path}: the log holds no samples (was it written without samples?)")
    return {str(sample.id): sample.output.completion for sample in log.samples if sample.epoch == 1}
