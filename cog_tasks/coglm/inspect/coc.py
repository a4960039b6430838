"""Chain of cognition: a stronger model's rationales and replies, read from its Inspect log."""

from __future__ import annotations

import os

from inspect_ai.log import EvalLog, EvalSample

from cog_tasks.coglm.inspect.logs import read_chat_log


def _first_epoch(log: EvalLog) -> list[EvalSample]:
    return [sample for sample in log.samples or [] if sample.epoch == 1]


def rationales_from_log(log_path: str | os.PathLike[str]) -> dict[str, str]:
    """The final reply of every sample (first epoch) of a stronger model's log, by sample id."""
    log = read_chat_log(log_path)
    return {str(sample.id): sample.output.completion for sample in _first_epoch(log)}


def _question(sample: EvalSample) -> str:
    """The question of a sample: its last user turn up to the options."""
    turns = (
        [sample.input]
        if isinstance(sample.input, str)
        else [message.text for message in sample.input if message.role == "user"]
    )
    return turns[-1].split("\n\nOptions:\n", 1)[0].strip() if turns else ""


def replies_from_log(log_path: str | os.PathLike[str]) -> list[tuple[str, list[str], str]]:
    """Every sample's ``(reply, options, question)`` (first epoch), in log order."""
    log = read_chat_log(log_path)
    return [
        (sample.output.completion, list(sample.choices or []), _question(sample))
        for sample in _first_epoch(log)
    ]
