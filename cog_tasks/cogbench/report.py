"""Plots and tables of CogBench results by iteration, in the style of the paper's Figs. 6-7."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from cog_tasks.cogbench.evaluation import format_number
from cog_tasks.cogbench.metrics import summarize_iterations
from cog_tasks.common.files import pyplot, save_figure, write_json_atomically

FEEDBACK_AGENTS = ("react", "reflexion")
COPY_PREVIOUS = "copy-previous"
AGENT_LABELS = {
    "cot": "CoT",
    "react": "ReAct*",
    "reflexion": "Reflexion*",
    "coggpt": "CogGPT",
    COPY_PREVIOUS: "copy previous human rating",
}


@dataclass(frozen=True)
class AgentCurves:
    """One agent's per-iteration results on one subset.

    Attributes:
        agent: ``cot``, ``react``, ``reflexion`` or ``coggpt``.
        model: The evaluated model.
        subset: ``a`` or ``v``.
        language: Data language.
        data: Data source description.
        authenticity: Pooled κ per iteration (``None`` where undefined).
        rationality: Mean judged Rationality per iteration.
        invalid: Answers without a readable rating per iteration.
        pairs: Rated answers per iteration.
    """

    agent: str
    model: str
    subset: str
    language: str
    data: str
    authenticity: dict[int, float | None]
    rationality: dict[int, float | None]
    invalid: dict[int, int]
    pairs: dict[int, int]

    @property
    def label(self) -> str:
        """Legend label: agent (``*`` marks human feedback) and model."""
        if self.agent == COPY_PREVIOUS:
            return f"{AGENT_LABELS[COPY_PREVIOUS]} (reference)"
        return f"{AGENT_LABELS.get(self.agent, self.agent)} ({self.model})"


def plot_curves(curves: Sequence[AgentCurves], path: Path, title: str) -> Path:
    """Draw Authenticity (a) and Rationality (b) by iteration, one line per agent.

    Agents with human feedback (ReAct, Reflexion) are dotted, as in the paper;
    the copy-previous reference is dashed.

    Args:
        curves: The agents to draw (one subset).
        path: PNG to write.
        title: Figure title.

    Returns:
        ``path``.
    """
    from matplotlib.ticker import MaxNLocator

    plt = pyplot()

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    panels = (
        (left, "(a) Authenticity (Cohen's kappa)", "authenticity"),
        (right, "(b) Rationality (judge, 1-5)", "rationality"),
    )
    for axis, heading, field in panels:
        for curve in curves:
            series = {t: v for t, v in getattr(curve, field).items() if v is not None}
            if not series:
                continue
            style = (
                "--"
                if curve.agent == COPY_PREVIOUS
                else (":" if curve.agent in FEEDBACK_AGENTS else "-")
            )
            iterations = sorted(series)
            axis.plot(
                iterations,
                [series[t] for t in iterations],
                linestyle=style,
                marker="o",
                label=curve.label,
            )
        axis.set_title(heading)
        axis.set_xlabel("iteration")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.grid(alpha=0.3)
    right.set_ylim(0.8, 5.2)
    handles, labels = left.get_legend_handles_labels()
    if not handles:
        handles, labels = right.get_legend_handles_labels()
    if handles:
        figure.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)), fontsize=8)
    figure.suptitle(title)
    figure.tight_layout(rect=(0, 0.1, 1, 0.95))
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(figure, path)
    plt.close(figure)
    return path


def curves_table(curves: Sequence[AgentCurves]) -> str:
    """Plain-text table: avg / 5th / 10th / 0th Authenticity and Rationality per agent."""
    lines = [
        f"{'agent (model)':<40} {'subset':<7} {'A avg':>6} {'A 5th':>6} {'A 10th':>6} "
        f"{'A 0th':>6} {'R avg':>6} {'R 5th':>6} {'R 10th':>6} {'invalid':>8}"
    ]
    for curve in curves:
        kappa = summarize_iterations(curve.authenticity)
        judged = summarize_iterations(curve.rationality)
        invalid = sum(curve.invalid.values())
        pairs = sum(curve.pairs.values())
        numbers = " ".join(
            f"{format_number(value):>6}"
            for value in (
                kappa.average,
                kappa.at(5),
                kappa.at(10),
                kappa.at(0),
                judged.average,
                judged.at(5),
                judged.at(10),
            )
        )
        lines.append(f"{curve.label:<40} {curve.subset:<7} {numbers} {invalid:>4}/{pairs:<4}")
    return "\n".join(lines)


def write_report(curves: Sequence[AgentCurves], out_dir: Path) -> list[Path]:
    """One PNG per (subset, language, data), plus ``cogbench_curves.json``.

    Args:
        curves: Results of any number of agents and subsets.
        out_dir: Folder to write into.

    Returns:
        The files written.
    """
    groups: dict[tuple[str, str, str], list[AgentCurves]] = {}
    for curve in curves:
        groups.setdefault((curve.subset, curve.language, curve.data), []).append(curve)
    written = []
    for index, ((subset, language, data), members) in enumerate(sorted(groups.items())):
        suffix = "" if index == 0 else f"_{index}"
        name = f"cogbench_{subset}_{language}{suffix}.png"
        title = f"CogBench-{subset} ({language}) - data: {data or 'unknown'}"
        written.append(plot_curves(members, out_dir / name, title))
    summary = out_dir / "cogbench_curves.json"
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomically(summary, [asdict(curve) for curve in curves])
    written.append(summary)
    return written
