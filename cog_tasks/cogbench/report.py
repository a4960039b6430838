"""CogBench results by iteration (the paper's Figs. 6-7): one block per run, then its references."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

from cog_tasks.cogbench.metrics import KAPPA_UNDEFINED
from cog_tasks.common.files import pyplot, write_json_atomically
from cog_tasks.common.report import flag_counts, interval_bars, save_closed
from cog_tasks.common.results import Coverage
from cog_tasks.common.stats import Interval, UnitValue

FEEDBACK_AGENTS = ("react", "reflexion")
FOLLOWER = "follower"
AGENT_LABELS = {"cot": "CoT", "react": "ReAct*", "reflexion": "Reflexion*", "coggpt": "CogGPT"}
REFERENCE_LABELS = {
    "rating": "copy previous human rating",
    "direction": "follow the direction notes",
}


@dataclass(frozen=True)
class AgentCurves:
    """One report row: an agent run's (or a reference's) results by iteration on one subset."""

    agent: str  # an agent name, or :data:`FOLLOWER` for a reference row
    label: str
    subset: str
    language: str
    data: str
    authenticity: dict[int, Interval]
    rationality: dict[int, Interval]
    authenticity_avg: Interval
    invalid_rate: Interval
    rationality_avg: Interval | None = None  # judge mean, iterations >= 1, failures at 1
    rationality_readable_avg: float | None = None
    judge_invalid_rate: Interval | None = None
    counts: Mapping[str, float] = field(default_factory=dict)
    coverage: Coverage | None = None
    units: Mapping[str, Mapping[str, UnitValue]] = field(default_factory=dict)  # not in JSON
    judge: str = "none"
    notes: tuple[str, ...] = field(default_factory=tuple)
    reference_for: str = ""

    @property
    def is_reference(self) -> bool:
        """Whether the row is a model-free reference."""
        return self.agent == FOLLOWER

    def as_dict(self) -> dict[str, object]:
        """JSON-ready row but ``units``, every interval as ``Interval.as_dict`` gives it."""

        def plain(value: object) -> object:
            if isinstance(value, Interval | Coverage):
                return value.as_dict()
            if isinstance(value, Mapping):
                return {key: plain(item) for key, item in value.items()}
            return list(value) if isinstance(value, tuple) else value

        return {
            item.name: plain(getattr(self, item.name))
            for item in fields(self)
            if item.name != "units"
        }


def plot_curves(curves: Sequence[AgentCurves], path: Path, title: str) -> Path:
    """Authenticity (a) and Rationality (b) by iteration as a PNG (references dashed)."""
    from matplotlib.ticker import MaxNLocator

    figure, (left, right) = pyplot().subplots(1, 2, figsize=(12, 4.8))
    panels = (
        (left, "(a) Authenticity (Cohen's kappa, 95 % CI)", "authenticity"),
        (right, "(b) Rationality (judge, 1-5, 95 % CI)", "rationality"),
    )
    for axis, heading, name in panels:
        for curve in curves:
            points = sorted(getattr(curve, name).items())
            series = {t: v for t, v in points if not math.isnan(v.value)}
            if not series:
                continue
            style = "--" if curve.is_reference else (":" if curve.agent in FEEDBACK_AGENTS else "-")
            label = curve.label if curve.judge == "none" else f"{curve.label}; judge {curve.judge}"
            axis.errorbar(
                list(series),
                [interval.value for interval in series.values()],
                yerr=interval_bars(series.values()),
                linestyle=style,
                marker="o",
                capsize=3,
                label=label,
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
        figure.legend(handles, labels, loc="lower center", ncol=min(2, len(labels)), fontsize=7)
    figure.suptitle(title)
    figure.tight_layout(rect=(0, 0.18, 1, 0.95))
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_closed(figure, path, layout=False)


def _cell(interval: Interval | None) -> str:
    return "–" if interval is None else interval.format()


def no_valid_rating(curve: AgentCurves) -> bool:
    """Whether the row's agent gave no valid rating at all (its κ is undefined, not 0)."""
    pairs = curve.counts.get("pairs", 0)
    return bool(pairs) and curve.counts.get("invalid", 0) >= pairs


def _kappa_cell(interval: Interval | None, curve: AgentCurves) -> str:
    if interval is not None and math.isnan(interval.value) and no_valid_rating(curve):
        return KAPPA_UNDEFINED
    return _cell(interval)


def _count(value: float) -> str:
    """A count over records; an epoch mean of counts may be fractional."""
    return f"{value:g}"


def flagged(coverage: Coverage | None) -> str:
    """The run's coverage beside a number: trajectories, epochs, every flagged count (even 0)."""
    if coverage is None:
        return ""
    counts = ", ".join(flag_counts(coverage.counts))
    partial = f", {coverage.missing} of {coverage.declared} missing" if coverage.missing else ""
    return (
        f"[{coverage.units} trajectories{partial} x {coverage.epochs} epoch(s); "
        f"records flagged: {counts}]"
    )


def _rationality_line(curve: AgentCurves) -> str:
    counts = curve.counts
    readable = curve.rationality_readable_avg
    shown = "n/a (no readable judge score)" if readable is None else f"{readable:.3f}"
    return (
        f"  Rationality avg {_cell(curve.rationality_avg)} counting "
        f"{_count(counts.get('judge_invalid', 0))} unreadable judge replies of "
        f"{_count(counts.get('judge_asked', 0))} asked and "
        f"{_count(counts.get('no_reasoning', 0))} answers without reasoning as 1; "
        f"readable-only avg {shown}; judge-invalid rate {_cell(curve.judge_invalid_rate)} "
        f"(judge: {curve.judge}) {flagged(curve.coverage)}"
    )


def curves_table(curves: Sequence[AgentCurves]) -> str:
    """Plain text: one block per row, each number with its interval and the run's flagged counts."""
    lines = []
    for curve in curves:
        kappa = curve.authenticity
        head = (
            f"  reference on the trajectories of: {curve.reference_for}"
            if curve.is_reference
            else ""
        )
        beside = flagged(curve.coverage)
        lines.append(f"{curve.label} [subset {curve.subset}, {curve.language}]{head}")
        cells = [f"avg {_kappa_cell(curve.authenticity_avg, curve)}"]
        cells += [f"t{t} {_cell(kappa[t])}" for t in (0, 5, 10) if t in kappa]
        lines.append("  Authenticity " + " | ".join(cells) + (f" {beside}" if beside else ""))
        if curve.rationality_avg is not None:
            lines.append(_rationality_line(curve))
        line = (
            f"  invalid rate {_cell(curve.invalid_rate)}; "
            f"n = {curve.authenticity_avg.n} trajectories"
        )
        if not curve.is_reference:
            counts = curve.counts
            line += (
                f"; invalid ratings {_count(counts.get('invalid', 0))}/"
                f"{_count(counts.get('pairs', 0))}, replies cut at the token limit "
                f"{_count(counts.get('truncated_replies', 0))}, failed distillations "
                f"{_count(counts.get('distill_failed', 0))} (all epochs) {beside}"
            )
        lines.append(line)
        if curve.coverage is not None and curve.coverage.note("trajectory"):
            lines.append(f"  coverage: {curve.coverage.note('trajectory')}")
        lines.extend(f"  note: {note}" for note in curve.notes)
    return "\n".join(lines)


def write_report(curves: Sequence[AgentCurves], out_dir: Path) -> list[Path]:
    """Write one PNG per (subset, language, data) and ``cogbench_curves.json``; return them."""
    groups: dict[tuple[str, str, str], list[AgentCurves]] = {}
    for curve in curves:
        groups.setdefault((curve.subset, curve.language, curve.data), []).append(curve)
    written = []
    for index, ((subset, language, data), members) in enumerate(sorted(groups.items())):
        suffix = "" if index == 0 else f"_{index}"
        name = f"cogbench_{subset}_{language}{suffix}.png"
        title = f"CogBench-{subset} ({language}) - data: {data or 'unknown'}"
        written.append(plot_curves(members, out_dir / name, title))
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomically(out_dir / "cogbench_curves.json", [curve.as_dict() for curve in curves])
    return [*written, out_dir / "cogbench_curves.json"]
