"""Chain of cognition: a stronger model's rationales, read from its Inspect log."""

from __future__ import annotations

import os

from cog_tasks.coglm.inspect.logs import read_chat_log


def rationales_from_log(log_path: str | os.PathLike[str]) -> dict[str, str]:
    """Return the final completion of every sample (first epoch) by sample id.

    Args:
        log_path: A successful Inspect log of a ``coglm_chat`` run by the
            stronger model (``.eval`` or ``.json``), written with samples.

    Returns:
        Reply text per sample id, as written (the prompt hides its options,
        see :func:`cog_tasks.coglm.rationale.hide_options`).

    Raises:
        FileNotFoundError: If the file does not exist.
        ValueError: If it is not a successful ``coglm_chat`` log with samples.
    """
    log = read_chat_log(log_path)
    return {
        str(sample.id): sample.output.completion
        for sample in log.samples or []
        if sample.epoch == 1
    }
