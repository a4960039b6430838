"""The CogLM paper's published headline numbers (every distinct Table 9 row) for the profile."""

from __future__ import annotations

from cog_tasks.coglm.metrics import stage_fractions
from cog_tasks.coglm.reference import TABLE9, ReferenceRow
from cog_tasks.common.headlines import PaperRow

LOG_LIKELIHOOD = (
    "text completion: each option appended to the question, lowest mean loss over the "
    "whole string (question included) wins; chance 1/len(candidates); zero-shot"
)
LLAMA_TEXT = (
    "plain text completion, no chat template (the authors' test_llama.py): question, a "
    "sentence asking for one option, the options in one line, an answer cue; free text read "
    "by the authors' Llama rule; chance 1/len(candidates)"
)
GPT_BOXED = (
    "chat completion, greedy, worked examples as earlier turns, the answer asked for inside "
    "\\boxed{}; the first box read by the authors' GPT rule; chance 1/len(candidates)"
)
HUMAN = "human participants (the paper's human row)"
LLAMA_TEXT_DIFFERS = (
    "coglm_chat -T prompt=llama-text sends this text (wording read from their script); the "
    "default prompt answer-is and the ours reader are our own"
)
GPT_BOXED_DIFFERS = (
    "coglm_chat -T prompt=boxed is this protocol in our words (worked examples of our own); "
    "the default prompt answer-is and the ours reader are our own"
)
STAGE_NOTE = "stage = mean of the stage's ability columns, computed from the table"


def _protocol(row: ReferenceRow) -> tuple[str, str]:
    if row.model == "Human":
        return HUMAN, "not a model: a reference level"
    if row.model.startswith(("OPT", "LLaMA2-text")):
        return LOG_LIKELIHOOD, ""
    if row.model.startswith("LLaMA2-chat"):
        return LLAMA_TEXT, LLAMA_TEXT_DIFFERS
    return GPT_BOXED, GPT_BOXED_DIFFERS


def _rows(row: ReferenceRow) -> list[PaperRow]:
    protocol, differs = _protocol(row)
    stages = [(f"stage{s}", round(v, 4), STAGE_NOTE) for s, v in stage_fractions(row).items()]
    values = [
        ("overall", row.overall / 100, "Acc"),
        *stages,
        ("cognitive_age", row.age, "Age, years"),
    ]
    return [
        PaperRow("coglm", measure, row.model, value, f"CogLM Table 9 ({source})", protocol, differs)
        for measure, value, source in values
    ]


PAPER_ROWS: tuple[PaperRow, ...] = tuple(
    paper_row for row in TABLE9 if row.duplicate_of is None for paper_row in _rows(row)
)
"""Table 9's overall score, stage scores and cognitive age per distinct row (12 rows)."""
