"""The CogLM paper's published headline numbers, as the cross-benchmark profile shows them.

From Table 9 of Wang et al. (:data:`cog_tasks.coglm.reference.TABLE9`), for
every distinct row: ``overall`` (the table's Acc column), ``stage1`` ...
``stage4`` (the mean of each stage's ability columns, computed here from the
table: the paper prints abilities, not stages) and ``cognitive_age`` (the Age
column, years). Values are fractions, ages years. The measure names are those
of :mod:`cog_tasks.coglm.headlines`.

Protocols: OPT and Llama-2 (text) were scored as text completion, the option
with the lowest mean loss over question and option (our lm-eval ``coglm``
family's default, ``acc_authors`` with the listed-option chance); Llama-2-chat,
GPT-3.5-Turbo and GPT-4 were asked in chat with "The answer is option" as the
required format, greedy decoding (our Inspect ``coglm_chat`` and lm-eval
``coglm_gen``, whose prompt and answer reader are our own).
"""

from __future__ import annotations

from cog_tasks.coglm.metrics import stage_fractions
from cog_tasks.coglm.reference import TABLE9, ReferenceRow
from cog_tasks.common.headlines import PaperRow

LOG_LIKELIHOOD = (
    "text completion: each option appended to the question, lowest mean loss over the "
    "whole string (question included) wins; chance 1/len(candidates); zero-shot"
)
CHAT = (
    "chat completion, greedy, the instruction asks for 'The answer is option X'; "
    "free text read by the authors' rule; chance 1/len(candidates)"
)
HUMAN = "human participants (the paper's human row)"
CHAT_DIFFERS = (
    "our chat prompt and answer reader (extractor 'ours') are our own, not the authors' scripts"
)
STAGE_NOTE = "stage = mean of the stage's ability columns, computed from the table"


def _protocol(row: ReferenceRow) -> tuple[str, str]:
    if row.model == "Human":
        return HUMAN, "not a model: a reference level"
    if row.model.startswith(("OPT", "LLaMA2-text")):
        return LOG_LIKELIHOOD, ""
    return CHAT, CHAT_DIFFERS


def _rows(row: ReferenceRow) -> list[PaperRow]:
    protocol, differs = _protocol(row)
    rows = [
        PaperRow(
            "coglm",
            "overall",
            row.model,
            row.overall / 100,
            "CogLM Table 9 (Acc)",
            protocol,
            differs,
        )
    ]
    for stage, value in stage_fractions(row).items():
        value = round(value, 4)
        rows.append(
            PaperRow(
                "coglm",
                f"stage{stage}",
                row.model,
                value,
                f"CogLM Table 9 ({STAGE_NOTE})",
                protocol,
                differs,
            )
        )
    rows.append(
        PaperRow(
            "coglm",
            "cognitive_age",
            row.model,
            row.age,
            "CogLM Table 9 (Age, years)",
            protocol,
            differs,
        )
    )
    return rows


PAPER_ROWS: tuple[PaperRow, ...] = tuple(
    paper_row for row in TABLE9 if row.duplicate_of is None for paper_row in _rows(row)
)
"""Table 9's overall score, stage scores and cognitive age per distinct row (12 rows)."""
