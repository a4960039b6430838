"""CogBench's published numbers (Lv et al., Tables 2 and 3), named as our headlines name them."""

from __future__ import annotations

from cog_tasks.cogbench.metrics import subset_measure
from cog_tasks.common.headlines import PaperRow

BENCHMARK = "cogbench"
PROTOCOL = (
    "gpt-4-0613 at temperature 0 on the full CogBench (English); ratings compared with the "
    "majority of 7 annotators, pooled Cohen's kappa per iteration averaged over iterations "
    "1-10; ReAct* and Reflexion* see last iteration's human rating; the authors' prompts; "
    "CogGPT's memory embedded with text-embedding-ada-002 (1536-d)"
)
_AGENT_DIFFERS = (
    "CoT, ReAct and Reflexion prompts are ours (the authors released only CogGPT's); "
    "CogGPT's memory is embedded with all-MiniLM-L6-v2 (384-d), not ada-002; an unreadable "
    "rating is asked again 3 times, then counted invalid (the authors retry up to 20 times)"
)
_JUDGE_DIFFERS = "Rationality is scored by an LLM judge with our rubric, not by 7 annotators; "

#: (agent, subset) -> (Authenticity avg., Rationality avg.), Tables 2 and 3.
_TABLES: dict[tuple[str, str], tuple[float, float]] = {
    ("CoT", "a"): (0.182, 2.925),
    ("CoT", "v"): (0.153, 3.058),
    ("ReAct*", "a"): (0.236, 3.415),
    ("ReAct*", "v"): (0.212, 3.535),
    ("Reflexion*", "a"): (0.302, 3.658),
    ("Reflexion*", "v"): (0.329, 3.888),
    ("CogGPT", "a"): (0.536, 4.118),
    ("CogGPT", "v"): (0.532, 4.145),
}


def _differs(agent: str) -> str:
    return (
        "the CogGPT prompts are the authors'; its memory is embedded with all-MiniLM-L6-v2 "
        "(384-d), not ada-002; an unreadable rating is asked again 3 times, then counted invalid"
        if agent == "CogGPT"
        else _AGENT_DIFFERS
    )


PAPER_ROWS: tuple[PaperRow, ...] = tuple(
    PaperRow(
        BENCHMARK,
        subset_measure(measure, subset),
        f"gpt-4-0613 ({agent} agent)",
        value,
        f"CogGPT paper, Table {table} (avg.)",
        PROTOCOL,
        differs + _differs(agent),
    )
    for (agent, subset), values in _TABLES.items()
    for measure, table, differs, value in zip(
        ("authenticity_avg", "rationality_avg"), (2, 3), ("", _JUDGE_DIFFERS), values, strict=True
    )
)
