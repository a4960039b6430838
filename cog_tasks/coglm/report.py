"""The CogLM report, the paper's tables and charts, computed from plain runs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGE_NAMES, STAGES
from cog_tasks.coglm.headlines import ABOVE, BELOW, FITTED_AGES, UNIT, age_flag, checked_items
from cog_tasks.coglm.metrics import summarize
from cog_tasks.coglm.reference import TABLE9, SettingRow
from cog_tasks.common.files import pyplot
from cog_tasks.common.report import error_bars, logged_interval, save_closed
from cog_tasks.common.results import CheckedRun, Coverage
from cog_tasks.common.stats import Interval, plural

AGE_INTERVAL_COVERS = "item sampling only"
"""What the cognitive age's interval accounts for (not the uncertainty of the map's fit)."""


@dataclass(frozen=True)
class CogLMRun:
    """One model's CogLM report dict from one results file, log or predictions file."""

    label: str
    source: Path
    summary: dict[str, Any]
    coverage: Coverage
    protocol: str = ""

    @property
    def partial(self) -> bool:
        """Whether declared items are missing."""
        return self.coverage.partial

    @property
    def note(self) -> str:
        """The coverage note: partial, missing abilities, flagged replies, the data check."""
        return self.coverage.note(UNIT)


def checked_run(checked: CheckedRun, label: str) -> CogLMRun:
    """The report run of a checked run, with ``cognitive_age_flag`` and the fitted range."""
    summary = summarize(checked_items(checked))
    summary["cognitive_age_flag"] = age_flag(
        summary["cognitive_age"], summary.get("cognitive_age_ci")
    )
    summary["cognitive_age_fitted_range"] = list(FITTED_AGES)
    summary["cognitive_age_ci_covers"] = AGE_INTERVAL_COVERS
    return CogLMRun(
        label, Path(checked.run.source), summary, checked.coverage, checked.run.protocol
    )


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:6.1f}"


def age_text(
    age: float | None, interval: Sequence[float | None] | None = None, reason: str = ""
) -> str:
    """A cognitive age for display, with its interval (or why none) and its :func:`age_flag`."""
    if age is None:
        return "n/a (needs all four stages)"
    flag = age_flag(age, interval)
    ci = f" [no interval: {reason}]" if reason else ""
    if interval and None not in interval:
        ci = f" [{interval[0]:.1f}, {interval[1]:.1f}] (95% CI, {AGE_INTERVAL_COVERS})"
    if flag in (BELOW, ABOVE):
        low, high = FITTED_AGES
        return f"{flag} ({age:.1f}){ci}; the map was fitted on ages {low:g}-{high:g}"
    text = f"{age:.1f} years{ci}"
    return f"{text}; {flag} ({FITTED_AGES[0]:g}-{FITTED_AGES[1]:g})" if flag else text


CI = "calibrated_accuracy_ci"
CI_WIDTH = 26
"""The interval column, wide enough for ``[no interval: 10 items, all alike]`` to stay apart."""


def interval_text(
    summary: dict[str, Any], name: str, value: float, interval: list[float | None] | None, n: int
) -> str:
    """``[48.0, 54.4]`` in percent, or ``[no interval: <reason>]`` with the summary's reason."""
    if not interval:
        return ""
    reason = (summary.get("ci_reasons") or {}).get(name, "")
    return logged_interval(value, interval, n, "item", reason).bounds_text(1, scale=100.0)


def stage_intervals(summary: dict[str, Any]) -> list[tuple[str | None, float, str]]:
    """``(stage, value, interval text)`` of each stage of a report dict, then overall (``None``)."""
    items: Counter[int] = Counter()
    for code, row in summary["abilities"].items():
        items[ABILITY_BY_CODE[code].stage] += row["n"]
    stage_ci = summary.get("stages_ci") or {}
    rows: list[tuple[str | None, float, str]] = [
        (stage, value, interval_text(summary, f"stage {stage}", value, stage_ci.get(stage), n))
        for stage, value in summary["stages"].items()
        for n in [items[int(stage)]]
    ]
    overall = summary["overall"]
    ci = interval_text(summary, "overall", overall, summary.get("overall_ci"), items.total())
    return [*rows, (None, overall, ci)]


def summary_age_text(summary: dict[str, Any]) -> str:
    """:func:`age_text` of a report dict, with the reason where it has no interval."""
    reason = (summary.get("ci_reasons") or {}).get("cognitive_age", "")
    return age_text(summary["cognitive_age"], summary.get("cognitive_age_ci"), reason)


def format_report(summary: dict[str, Any], title: str) -> str:
    """Render a report dict as a plain-text table (accuracies in percent, with intervals)."""
    header = f"{'stage':<6}{'ability':<8}{'name':<34}{'n':>5}{'acc':>8}{'cal.acc':>9}"
    header += f"{'95% CI':>{CI_WIDTH}}{'per-item':>10}{'invalid':>9}"
    lines = [title, header, "-" * len(header)]
    for code, row in summary["abilities"].items():
        ability = ABILITY_BY_CODE[code]
        ci = interval_text(summary, code, row["calibrated_accuracy"], row.get(CI), row["n"])
        lines.append(
            f"{ability.stage:<6}{code:<8}{ability.name:<34}{row['n']:>5}"
            f"{_percent(row['accuracy']):>8}{_percent(row['calibrated_accuracy']):>9}"
            f" {ci:>{CI_WIDTH - 1}}"
            f"{_percent(row.get('calibrated_accuracy_per_item')):>10}{row['invalid']:>9}"
        )
    lines.append("-" * len(header))
    for stage, value, ci in stage_intervals(summary):
        name = (
            "overall (mean of abilities)"
            if stage is None
            else f"stage {stage} ({STAGE_NAMES[int(stage)]})"
        )
        lines.append(f"{name:<53}{_percent(value):>17} {ci:>{CI_WIDTH - 1}}")
    lines.append(f"{'cognitive age':<53}  {summary_age_text(summary)}")
    if "overall_ci" not in summary:
        lines.append("no intervals: the per-item scores were not available")
    return "\n".join(lines)


def partial_note(runs: Sequence[CogLMRun]) -> str | None:
    """One line naming the partial runs among ``runs``, or ``None`` when all are complete."""
    partial = [f"{run.label} ({run.note})" for run in runs if run.partial]
    if not partial:
        return None
    return "PARTIAL RUN, not the full benchmark: " + "; ".join(partial)


def _finish(figure: Any, runs: Sequence[CogLMRun], path: Path) -> Path:
    """Mark partial runs on the figure, save it as PNG and close it."""
    figure.tight_layout(rect=(0, 0, 1, 0.95))
    if note := partial_note(runs):
        figure.text(
            0.5, 0.995, note, ha="center", va="top", color="darkred", fontsize=10, weight="bold"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_closed(figure, path, dpi=110, layout=False)


def write_chart(runs: Sequence[CogLMRun], path: Path) -> Path:
    """Draw the abilities by stage and the cognitive ages beside Table 9; return the path."""
    plt = pyplot()
    human = next(row for row in TABLE9 if row.model == "Human")
    figure, (abilities_axis, age_axis) = plt.subplots(
        1, 2, figsize=(15, 6), gridspec_kw={"width_ratios": [1.7, 1]}
    )
    colors = plt.get_cmap("tab10").colors
    # Left: calibrated accuracy per ability, abilities grouped by stage.
    positions = _ability_positions()
    _ability_bars(abilities_axis, runs, [run.label for run in runs], positions, colors)
    for run_index, run in enumerate(runs):
        color = colors[run_index % len(colors)]
        for stage, score in run.summary["stages"].items():
            spanned = [
                p for p, a in zip(positions, ABILITIES, strict=True) if a.stage == int(stage)
            ]
            abilities_axis.hlines(
                100 * score, spanned[0] - 0.45, spanned[-1] + 0.45, colors=[color], linestyles="--"
            )
    abilities_axis.scatter(
        positions,
        [human.abilities[a.code] for a in ABILITIES],
        marker="_",
        s=400,
        color="black",
        label="Human (Table 9)",
        zorder=3,
    )
    _decorate_abilities_axis(abilities_axis, positions)
    abilities_axis.set_title("CogLM abilities by Piaget stage (dashed: stage score)")
    abilities_axis.legend(loc="lower right", fontsize=8)
    # Right: cognitive ages, Table 9 rows beside the evaluated models.
    low, high = FITTED_AGES
    bars = [
        (row.model, row.age, "dimgrey" if row is human else "lightgrey", None, None)
        for row in TABLE9
        if row.duplicate_of is None
    ]
    for run_index, run in enumerate(runs):
        age = run.summary["cognitive_age"]
        if age is not None:
            shown = max(0.0, age)
            interval = run.summary.get("cognitive_age_ci")
            bounds = interval if interval and None not in interval else None
            bars.append((run.label, shown, colors[run_index % len(colors)], run, bounds))
    bars.sort(key=lambda bar: bar[1])
    age_axis.axvspan(low, high, color="honeydew", zorder=0)
    errors = error_bars((b[1], b[4]) for b in bars)
    drawn = age_axis.barh(
        range(len(bars)), [b[1] for b in bars], color=[b[2] for b in bars], xerr=errors, capsize=2
    )
    age_axis.set_yticks(range(len(bars)), [b[0] for b in bars], fontsize=8)
    for row, (bar, (_, shown, _, run, _)) in enumerate(zip(drawn, bars, strict=True)):
        age = shown if run is None else run.summary["cognitive_age"]
        flag = None if run is None else run.summary["cognitive_age_flag"]
        if flag in (BELOW, ABOVE):
            bar.set_hatch("//")
            label = f"{flag} ({age:.1f})"
        else:
            label = f"{age:.1f}" if flag is None else f"{age:.1f}; {flag}"
        color = "black" if flag is None else "darkred"
        age_axis.text(
            shown + errors[1][row] + 0.2, row, label, va="center", fontsize=8, color=color
        )
    age_axis.set_xlabel(
        f"cognitive age (years); green: the fitted range, ages {low:g}-{high:g}; "
        f"bars: 95% CI, {AGE_INTERVAL_COVERS}",
        fontsize=8,
    )
    age_axis.set_title("Cognitive age beside the paper's Table 9 (grey)")
    age_axis.set_xlim(0, max(b[1] for b in bars) + 12)
    return _finish(figure, runs, path)


def _ability_positions() -> list[float]:
    """Horizontal positions of the abilities, with a gap between stages."""
    positions, x = [], 0.0
    for index, ability in enumerate(ABILITIES):
        if index and ability.stage != ABILITIES[index - 1].stage:
            x += 0.8
        positions.append(x)
        x += 1.0
    return positions


def _ability_bars(
    axis: Any,
    runs: Sequence[CogLMRun],
    labels: Sequence[str],
    positions: Sequence[float],
    colors: Sequence[Any],
) -> None:
    """One bar per run and ability, side by side, with the 95 % intervals as error bars."""
    width = 0.8 / max(1, len(runs))
    for index, (run, label) in enumerate(zip(runs, labels, strict=True)):
        rows = run.summary["abilities"]
        points = [
            (rows[a.code]["calibrated_accuracy"], rows[a.code].get(CI))
            if a.code in rows
            else (float("nan"), None)
            for a in ABILITIES
        ]
        axis.bar(
            [p + (index - (len(runs) - 1) / 2) * width for p in positions],
            [100 * value for value, _ in points],
            width,
            yerr=error_bars(points, 100.0) if all(CI in r for r in rows.values()) else None,
            capsize=2,
            label=label,
            color=colors[index % len(colors)],
        )


def _decorate_abilities_axis(axis: Any, positions: Sequence[float]) -> None:
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_xticks(positions, [a.code for a in ABILITIES])
    for stage in STAGES:
        stage_positions = [p for p, a in zip(positions, ABILITIES, strict=True) if a.stage == stage]
        axis.annotate(
            f"stage {stage}\n{STAGE_NAMES[stage]}",
            xy=(sum(stage_positions) / len(stage_positions), 0),
            xycoords=("data", "axes fraction"),
            xytext=(0, -30),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=9,
        )
    axis.set_ylabel("calibrated accuracy (%)  ·  0 = chance")
    axis.set_ylim(-105, 105)


# --- the paper's setting comparisons (Table 5: CoT and SC; Table 7: chain of cognition) ---


def format_settings_table(
    runs: Sequence[CogLMRun], paper: Sequence[SettingRow], title: str, paper_model: str
) -> str:
    """Calibrated accuracy (%) per ability and the mean, one row per run, then the paper's rows."""
    codes = [a.code for a in ABILITIES]
    header = f"{'setting':<34}{'n':>6}" + "".join(f"{c:>7}" for c in codes) + f"{'Avg':>7}"
    lines = [title, header, "-" * len(header)]
    for run in runs:
        rows = run.summary["abilities"]
        cells = "".join(
            f"{100 * rows[c]['calibrated_accuracy']:7.1f}" if c in rows else f"{'':>7}"
            for c in codes
        )
        n = sum(row["n"] for row in rows.values())
        mark = " *" if run.partial else ""
        lines.append(f"{run.label + mark:<34}{n:>6}{cells}{100 * run.summary['overall']:7.1f}")
    lines.append(f"paper ({paper_model}):")
    for row in paper:
        cells = "".join(f"{row.abilities[c]:7.1f}" for c in codes)
        lines.append(f"{'  ' + row.setting:<34}{'':>6}{cells}{row.overall:7.1f}")
    note = partial_note(runs)
    if note:
        lines.append(f"* {note}")
    return "\n".join(lines)


def write_settings_chart(
    runs: Sequence[CogLMRun], paper: Sequence[SettingRow], path: Path, title: str
) -> Path:
    """Bars of calibrated accuracy per ability, one per run; the paper's rows as markers."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(12, 5.5))
    positions = _ability_positions()
    labels = [f"{run.label} (mean {100 * run.summary['overall']:.1f})" for run in runs]
    _ability_bars(axis, runs, labels, positions, plt.get_cmap("tab10").colors)
    markers = "os^vDP"
    for index, row in enumerate(paper):
        axis.scatter(
            positions,
            [row.abilities[a.code] for a in ABILITIES],
            marker=markers[index % len(markers)],
            facecolors="none",
            edgecolors="black",
            label=f"paper: {row.setting} (mean {row.overall:.1f})",
            zorder=3,
        )
    _decorate_abilities_axis(axis, positions)
    axis.set_title(title, fontsize=10)
    axis.legend(loc="lower left", fontsize=8, ncol=2)
    return _finish(figure, runs, path)


def difference_text(difference: Interval) -> str:
    """A paired difference in points: ``+18.0 [+9.1, +26.3] bootstrap, n=50 items``."""
    shown = (
        difference.format()
        if difference.method == "none"
        else f"{100 * difference.value:+.1f} "
        f"[{100 * difference.low:+.1f}, {100 * difference.high:+.1f}] {difference.method}"
    )
    flag = "  (interval excludes 0)" if difference.significant(0.0) else ""
    return f"{shown}, n={difference.n} {plural(difference.unit, difference.n)}{flag}"
