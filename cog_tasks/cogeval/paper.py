"""The CogEval paper's published success rates (Table 3) and Experiment 2 statements."""

from __future__ import annotations

from dataclasses import dataclass

from cog_tasks.common.files import package_json
from cog_tasks.common.headlines import PaperRow

BENCHMARK = "cogeval"
SOURCE = "CogEval Table 3"
PROTOCOL = (
    "the authors' audited conversations (cogeval/cogmaps conversations/), multi-turn, "
    "temperatures 0, 0.5 and 1, repeated runs; mean success per condition over graphs "
    "and domains (Experiment 1)"
)
DIFFERS = (
    "our default tasks are these audited conversations less the map question (Inspect "
    "replays the turns; lm-eval flattens them into one prompt); temperatures and repeats "
    "are set per run, and the paper's models are not rerun"
)
TABLE3_MODELS: tuple[str, ...] = (
    "gpt-4-32k", "gpt-35", "davinci-003", "claude-v1", "pythia-20b", "cohere", "llama-13b",
    "alpaca-7b", "bard",
)  # fmt: skip
#: Table 3 means, in TABLE3_MODELS order; None where the table has "-" (``table3_means.json``).
TABLE3_MEANS: dict[str, tuple[float | None, ...]] = {
    condition: tuple(means)
    for condition, means in package_json("cog_tasks.cogeval", "table3_means.json").items()
}


def condition_measure(condition: str) -> str:
    """The headline measure of one condition's success (``success_1steppath``)."""
    return f"success_{condition.lower()}"


PAPER_ROWS: tuple[PaperRow, ...] = tuple(
    PaperRow(
        benchmark=BENCHMARK,
        measure=condition_measure(condition),
        model=model,
        value=value,
        source=SOURCE,
        protocol=PROTOCOL,
        differs=DIFFERS,
    )
    for condition, means in TABLE3_MEANS.items()
    for model, value in zip(TABLE3_MODELS, means, strict=True)
    if value is not None
)


@dataclass(frozen=True)
class PaperFinding:
    """A published result stated in words (the paper gives no number for it)."""

    benchmark: str
    measure: str
    model: str
    finding: str
    source: str
    protocol: str
    differs: str = ""


EXPERIMENT2_SOURCE = "CogEval Section 3.2 and Fig. 3"
EXPERIMENT2_PROTOCOL = (
    "GPT-4 on graph D (n15star, numbered rooms), the nine audited Experiment 2 conversations "
    "(three questions, each with no instruction, the BFS and the DFS instruction), 30 repeats "
    "per prompt and temperature 0, 0.5 and 1"
)
EXPERIMENT2_DIFFERS = (
    "the paper gives Fig. 3 as a bar chart only and its text states no value; our package "
    "has no copy of the figure, so no value is read off it: the rows are the text's statements"
)
#: What Section 3.2 and Fig. 3's caption state per Experiment 2 question, in our words.
EXPERIMENT2_STATEMENTS: dict[str, str] = {
    "exp2ClusterCount": "bfs and dfs above none at temperatures 0 and 0.5, less so at 1",
    "exp2WithinCluster": "bfs and dfs above none at every temperature; bfs best at 0",
    "exp2OneClusterAway": "only bfs at temperature 0.5 above none",
}
EXPERIMENT2_FINDINGS: tuple[PaperFinding, ...] = tuple(
    PaperFinding(
        benchmark=BENCHMARK,
        measure=condition_measure(question),
        model="gpt-4",
        finding=statement,
        source=EXPERIMENT2_SOURCE,
        protocol=EXPERIMENT2_PROTOCOL,
        differs=EXPERIMENT2_DIFFERS,
    )
    for question, statement in EXPERIMENT2_STATEMENTS.items()
)
