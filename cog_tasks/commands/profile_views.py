"""How a cognitive profile is shown: ``profile.md``, ``profile.png`` and ``profile.html``."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cog_tasks.benchmarks import REGISTRY
from cog_tasks.common.files import pyplot, write_text_atomically
from cog_tasks.common.headlines import SCALES
from cog_tasks.common.report import error_bars, save_closed
from cog_tasks.common.results import Coverage
from cog_tasks.common.runs import UNRECORDED
from cog_tasks.common.stats import Interval, plural

HUMAN = "Human"  # How a paper row of people (not a model) names itself.


def format_row(row: Mapping[str, Any]) -> str:
    """A row's ``value [low, high]`` (or why it has no interval)."""
    return Interval.from_dict(row).format()


def markdown_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table of ``rows`` (the header first)."""
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    return [lines[0], "|---" * len(rows[0]) + "|", *lines[1:]]


def _paper_sections(profile: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per benchmark: published values (models × the measures this profile has), then protocols."""
    sections = []
    for benchmark in REGISTRY:  # the registry's order
        measured = [r["measure"] for r in profile["rows"] if r["benchmark"] == benchmark]
        rows = [
            r for r in profile["paper"] if r["benchmark"] == benchmark and r["measure"] in measured
        ]
        if not rows:
            continue
        measures = [m for m in dict.fromkeys(measured) if any(r["measure"] == m for r in rows)]
        marker = {
            protocol: chr(ord("a") + i)
            for i, protocol in enumerate(dict.fromkeys((r["protocol"], r["differs"]) for r in rows))
        }
        models = dict.fromkeys((r["model"], marker[(r["protocol"], r["differs"])]) for r in rows)
        value = {(r["model"], r["measure"]): r["value"] for r in rows}
        table = [["model [protocol]", *measures]]
        table += [
            [f"{model} [{letter}]"]
            + [f"{value[(model, m)]:.3f}" if (model, m) in value else "" for m in measures]
            for model, letter in models
        ]
        notes = []
        for (protocol, differs), letter in marker.items():
            sources = [
                r["source"] for r in rows if (r["protocol"], r["differs"]) == (protocol, differs)
            ]
            notes.append(f"- [{letter}] {protocol} ({'; '.join(dict.fromkeys(sources))}).")
            notes.append(
                f"  Our default differs: {differs}" if differs else "  Our default: the same."
            )
        sections.append({"benchmark": benchmark, "table": table, "notes": notes})
    return sections


def _chance_text(row: Mapping[str, Any]) -> str:
    chance = row.get("chance")
    return format_row({**chance, "unit": row["unit"], "method": ""}) if chance else "not run"


def _verdict(trivial: Mapping[str, Any], who: str = "model") -> str:
    """``who`` minus the best trivial strategy, paired, and whether it is beaten."""
    if trivial["difference"] is None:
        return f"{who} not paired"
    difference = Interval.from_dict(trivial["difference"])
    verdict = "" if trivial["beaten"] else "; NOT BEATEN" if difference.defined else "; not tested"
    return f"{who} minus it {difference.format()}{verdict}"


def trivial_text(row: Mapping[str, Any]) -> str:
    """The best trivial strategy on the row's units, and the model minus it (or NOT BEATEN)."""
    trivial = row.get("trivial")
    return f"{trivial['name']}: {trivial['value']:.3f}; {_verdict(trivial)}" if trivial else "-"


def _trivial_column(names: Sequence[str], rows: Sequence[Mapping[str, Any] | None]) -> str:
    """Compare's trivial cell: the strategy (once if all share it) and each profile's verdict."""
    entries = [
        (name, row["trivial"])
        for name, row in zip(names, rows, strict=True)
        if row and row.get("trivial")
    ]
    if not entries:
        return "-"
    if len({(t["name"], t["value"]) for _, t in entries}) == 1:
        head = f"{entries[0][1]['name']}: {entries[0][1]['value']:.3f}; "
        return head + "; ".join(_verdict(t, name) for name, t in entries)
    return "; ".join(f"{_verdict(t, name)} ({t['name']}: {t['value']:.3f})" for name, t in entries)


def _failed_share(row: Mapping[str, Any]) -> float | None:
    """The share of the model's replies that were flagged (invalid, errored, truncated...)."""
    coverage = row.get("coverage")
    return Coverage.from_dict(coverage).flagged_share() if coverage else None


def _failures_text(row: Mapping[str, Any]) -> str:
    """:func:`_failed_share` as text (``not counted`` where the row has no coverage)."""
    share = _failed_share(row)
    return "not counted" if not row.get("coverage") else "n/a" if share is None else f"{share:.3f}"


MOSTLY_FAILED = 0.5  # Over this failed share a row is drawn hollow.


def _paper_entries(row: Mapping[str, Any], paper: list[Mapping[str, Any]]) -> list[Any]:
    """The papers' rows of the row's measure, one per model."""
    return [
        e for e in paper if (e["benchmark"], e["measure"]) == (row["benchmark"], row["measure"])
    ]


def _paper_text(row: Mapping[str, Any], paper: list[Mapping[str, Any]]) -> str:
    """The published values of the row's measure: how many models, and their range."""
    entries = _paper_entries(row, paper)
    humans = [e["value"] for e in entries if e["model"].startswith(HUMAN)]
    values = [e["value"] for e in entries if not e["model"].startswith(HUMAN)]
    parts = []
    if len(values) == 1:
        parts.append(f"{values[0]:.3f}")
    elif values:
        parts.append(f"{len(values)} models, {min(values):.3f} to {max(values):.3f}")
    parts += [f"humans {value:.3f}" for value in humans]
    return "; ".join(parts) or "none"


PROFILE_COLUMNS = (
    "benchmark", "measure", "value [95 % CI]", "chance [95 % CI]", "best trivial", "scale", "n",
    "failed replies", "paper", "coverage, flagged replies", "data, weights", "note",
)  # fmt: skip


def _profile_table(profile: Mapping[str, Any]) -> list[list[str]]:
    """The profile's rows as table cells, the header first."""
    table = [list(PROFILE_COLUMNS)]
    for row in profile["rows"]:
        coverage = Coverage.from_dict(row["coverage"]) if row.get("coverage") else None
        flags = coverage.note(row["unit"], provenance=False) if coverage else "not counted"
        data = coverage.provenance() if coverage else f"data: {UNRECORDED}"
        table.append([
            row["benchmark"], row["measure"], format_row(row), _chance_text(row), trivial_text(row),
            row.get("scale", "raw"), f"{row['n']} {plural(row['unit'], row['n'])}",
            _failures_text(row), _paper_text(row, profile["paper"]),
            flags or "complete, none flagged", data, row["note"],
        ])  # fmt: skip
    return table


def _reading(profile: Mapping[str, Any]) -> dict[str, Any]:
    """What both ``profile.md`` and ``profile.html`` show: title, how to read, tables, versions."""
    versions = ", ".join(f"{name} {version}" for name, version in profile["versions"].items())
    return {
        "heading": f"Cognitive profile: {profile['model']} (preset {profile['preset']})",
        "intro": "Each row: the model's value with its 95 % interval over the row's units; the "
        "seeded chance answerer's value on the same units; the best trivial strategy on the same "
        "units, with the model's paired difference (NOT BEATEN unless it excludes 0 above); "
        "the scale ("
        + "; ".join(f"{name}: {meaning}" for name, meaning in SCALES.items())
        + "); the share of the model's replies that were invalid, errored, truncated or "
        "judged unreadably; the papers' values for the measure (below, with their "
        "protocols); what is missing of the declared units; the data's check, the weights hash.",
        "rows": _profile_table(profile),
        "papers": _paper_sections(profile),
        "versions": f"Versions: {versions}.",
    }


def render_markdown(profile: Mapping[str, Any]) -> str:
    """``profile.md``: how to read each row, the rows, then the papers' values and protocols."""
    page = _reading(profile)
    lines = [f"# {page['heading']}", "", page["intro"], "", *markdown_table(page["rows"])]
    lines += ["", "## Published values for the same measures", ""]
    for section in page["papers"]:
        lines += [f"### {section['benchmark']}", "", *markdown_table(section["table"]), ""]
        lines += [*section["notes"], ""]
    return "\n".join([*lines, page["versions"], ""])


Drawn = tuple[float, float, float]  # A value and its interval's bounds, as drawn.


def drawable(row: Mapping[str, Any] | None) -> Drawn | None:
    """A row's (or chance entry's) ``(value, low, high)``; ``None``: undefined value, not drawn."""
    if not row or row.get("value") is None:
        return None
    value, low, high = row["value"], row.get("ci_low"), row.get("ci_high")
    return value, value if low is None else low, value if high is None else high


def _panels(rows: list[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Chart panels: one per benchmark and scale, so years never share an axis with shares."""
    panels: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for benchmark in REGISTRY:  # the registry's order
        for row in rows:
            if row["benchmark"] == benchmark:
                scale = row.get("scale", "raw")
                panels.setdefault((benchmark, scale), []).append(row)
    return [(f"{benchmark} ({scale})", members) for (benchmark, scale), members in panels.items()]


def _figure(
    panels: Sequence[tuple[str, list[str]]], draw: Callable[[Any, int], None], title: str
) -> tuple[Any, Any]:
    """``(plt, figure)``: a panel per ``(title, labels)``, each as tall as its rows, one legend."""
    plt = pyplot()
    heights = [0.6 + 0.32 * len(labels) for _, labels in panels]
    figure, axes = plt.subplots(
        len(panels), 1, figsize=(7.5, 0.8 + sum(heights)), squeeze=False, height_ratios=heights
    )
    handles: dict[str, Any] = {}
    for index, (axis, (name, labels)) in enumerate(zip(axes[:, 0], panels, strict=True)):
        draw(axis, index)
        axis.set_yticks(range(len(labels)), labels, fontsize=8)
        axis.set_ylim(len(labels) - 0.5, -0.5)
        axis.set_title(name, loc="left", fontsize=9)
        axis.grid(axis="x", alpha=0.3)
        for handle, label in zip(*axis.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    axes[0, 0].legend(list(handles.values()), list(handles), loc="best", fontsize=7)
    figure.suptitle(title, fontsize=9)
    figure.tight_layout()
    return plt, figure


def _errorbar(axis: Any, points: Sequence[Drawn], positions: Sequence[float], **style: Any) -> None:
    """Values at ``positions`` with their intervals (a bare point where there is none)."""
    xerr = error_bars((value, (low, high)) for value, low, high in points)
    axis.errorbar([p[0] for p in points], positions, xerr=xerr, fmt="o", **style)


def _plot_chance(axis: Any, points: list[tuple[int, float]]) -> None:
    """Grey hollow diamonds at (value, row position): the chance answerer's values."""
    if points:
        values, positions = [v for _, v in points], [p for p, _ in points]
        axis.plot(values, positions, "D", markerfacecolor="none", color="grey", label="chance")


def draw_profile(profile: Mapping[str, Any], path: Path) -> Path:
    """One PNG: a panel per benchmark and scale, the model's values with 95 % intervals."""
    panels = _panels(list(profile["rows"]))
    paper = list(profile.get("paper", []))

    def draw(axis: Any, index: int) -> None:
        title, rows = panels[index]
        # A row whose replies mostly failed is hollow, with its failed share beside it.
        for position, row in enumerate(rows):
            if (point := drawable(row)) is None:
                axis.annotate("undefined", (0.0, position), fontsize=7, color="grey")
                continue
            failed = _failed_share(row) or 0.0
            style = {"capsize": 3, "color": "tab:blue", "markerfacecolor": "tab:blue"}
            if failed > MOSTLY_FAILED:
                style["markerfacecolor"] = "none"
            label = "model (hollow: over half its replies failed)"
            _errorbar(axis, [point], [position], **style, label=label)
            if failed > MOSTLY_FAILED:
                axis.annotate(f"failed {failed:.0%}", (point[0], position + 0.25), fontsize=7)
        chance = [(p, c[0]) for p, row in enumerate(rows) if (c := drawable(row.get("chance")))]
        _plot_chance(axis, chance)
        for position, row in enumerate(rows):
            if published := [entry["value"] for entry in _paper_entries(row, paper)]:
                band, span = [position - 0.3, position + 0.3], (min(published), max(published))
                style = {"color": "tab:green", "alpha": 0.15, "linewidth": 0}
                axis.fill_betweenx(band, *span, **style, label="published values")
        if title.endswith("(calibrated)"):
            axis.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
        if title.endswith("(kappa)"):
            axis.set_xlim(-1.05, 1.05)
        elif title.endswith("(raw)") and all(
            0.0 <= bound <= 1.0 for row in rows if (point := drawable(row)) for bound in point[1:]
        ):
            axis.set_xlim(-0.05, 1.05)

    _, figure = _figure(
        [(title, [row["measure"] for row in rows]) for title, rows in panels],
        draw,
        f"{profile['model']} ({profile['preset']}): values with 95 % intervals; "
        "hollow diamonds: chance on the same units; bands: the papers' published values",
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_closed(figure, path, dpi=110, layout=False)


def render_html(profile: Mapping[str, Any], chart: Path | None = None) -> str:
    """``profile.html``: the rows, the chart (embedded), the papers' values and the identities."""
    image = None
    if chart is not None and chart.is_file():
        image = base64.b64encode(chart.read_bytes()).decode("ascii")
    return render_template(
        "profile.html.j2",
        title=f"Cognitive profile: {profile['model']}",
        **_reading(profile),
        chart=image,
        runs=sorted({json.dumps(row["run"], sort_keys=True) for row in profile["rows"]}),
        identity=profile.get("identity") and json.dumps(profile["identity"], sort_keys=True),
    )


def write_views(profile: Mapping[str, Any], out: Path) -> None:
    """Write ``profile.md``, ``profile.png`` and ``profile.html`` into ``out``."""
    write_text_atomically(out / "profile.md", render_markdown(profile))
    chart = draw_profile(profile, out / "profile.png")
    write_text_atomically(out / "profile.html", render_html(profile, chart))


def row_keys(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, str, int]]:
    """What pairs profiles' rows: benchmark, measure, task (no version), and which occurrence."""
    seen: dict[tuple[str, str, str], int] = {}
    keys = []
    for row in rows:
        base = (row["benchmark"], row["measure"], row["run"]["task"].partition("@")[0])
        seen[base] = seen.get(base, 0) + 1
        keys.append((*base, seen[base]))
    return keys


@dataclass(frozen=True)
class CompareLine:
    """One headline across profiles: the columns every view of a comparison shows."""

    benchmark: str
    measure: str
    unit: str
    chance: str
    trivial: str
    paper: str
    values: tuple[str, ...]
    failed: tuple[str, ...]
    protocol: str
    rows: tuple[Mapping[str, Any] | None, ...]  # each profile's row (``None``: it has none)


def compare_lines(names: Sequence[str], profiles: Sequence[Mapping[str, Any]]) -> list[CompareLine]:
    """One :class:`CompareLine` per headline of any profile, in first-seen order."""
    columns = [dict(zip(row_keys(p["rows"]), p["rows"], strict=True)) for p in profiles]
    paper = next((list(p["paper"]) for p in profiles if p.get("paper")), [])
    lines = []
    for key in dict.fromkeys(key for column in columns for key in column):
        rows = [column.get(key) for column in columns]
        present = [row for row in rows if row is not None]
        first = present[0]
        counts = list(dict.fromkeys(row["n"] for row in present))
        if len(counts) == 1:
            unit = f"{counts[0]} {plural(first['unit'], counts[0])}"
        else:
            unit = " / ".join(str(row["n"]) if row else "-" for row in rows)
            unit += f" {plural(first['unit'], 2)}"
        protocol = ""
        if len({row["run"]["task"] for row in present}) > 1:
            tasks = [f"{r['run']['task']} ({n})" for n, r in zip(names, rows, strict=True) if r]
            protocol = "task versions differ: " + ", ".join(tasks)
        chance = next((row for row in present if row.get("chance")), first)
        values = tuple(format_row(row) if row else "-" for row in rows)
        failed = tuple(_failures_text(row) if row else "-" for row in rows)
        trivial, paper_text = _trivial_column(names, rows), _paper_text(first, paper)
        line = (*key[:2], unit, _chance_text(chance), trivial, paper_text, values, failed, protocol)
        lines.append(CompareLine(*line, tuple(rows)))
    return lines


def compare_table(names: Sequence[str], profiles: Sequence[Mapping[str, Any]]) -> list[str]:
    """The N-way Markdown table: a line per headline, a value column per profile."""
    header = ["benchmark", "measure", "unit", "chance", "best trivial", "paper", *names]
    header += ["failed replies (each profile, in column order)", "protocol"]
    table = [header]
    for line in compare_lines(names, profiles):
        cells = [line.benchmark, line.measure, line.unit, line.chance, line.trivial, line.paper]
        table.append([*cells, *line.values, " / ".join(line.failed), line.protocol or "same"])
    return markdown_table(table)


def draw_compare(names: Sequence[str], profiles: Sequence[Mapping[str, Any]]) -> bytes:
    """A PNG of the profiles side by side: a panel per benchmark and scale, a marker per profile."""
    columns = [dict(zip(row_keys(p["rows"]), p["rows"], strict=True)) for p in profiles]
    keys = list(dict.fromkeys(key for column in columns for key in column))
    scale = {key: next(c[key] for c in columns if key in c).get("scale", "raw") for key in keys}
    panels = [
        ((benchmark, name), [k for k in keys if k[0] == benchmark and scale[k] == name])
        for benchmark in REGISTRY
        for name in dict.fromkeys(scale[k] for k in keys if k[0] == benchmark)
    ]
    panels += [((k[0], scale[k]), [k]) for k in keys if k[0] not in REGISTRY]
    step = 0.6 / max(1, len(profiles))

    def draw(axis: Any, panel: int) -> None:
        (_, name), members = panels[panel]
        for index, (label, column) in enumerate(zip(names, columns, strict=True)):
            points = [(p, pt) for p, k in enumerate(members) if (pt := drawable(column.get(k)))]
            if not points:
                continue
            offset = -0.3 + step * (index + 0.5)
            positions = [p + offset for p, _ in points]
            style = {"capsize": 2, "markersize": 4, "label": label, "color": f"C{index}"}
            _errorbar(axis, [point for _, point in points], positions, **style)
        chance = [
            (p, c[0])
            for p, k in enumerate(members)
            if (c := drawable(next(column[k] for column in columns if k in column).get("chance")))
        ]
        _plot_chance(axis, chance)
        if name == "kappa":
            axis.set_xlim(-1.05, 1.05)

    labelled = [(f"{bench} ({name})", [k[1] for k in members]) for (bench, name), members in panels]
    plt, figure = _figure(labelled, draw, "values with 95 % intervals; hollow diamonds: chance")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


@cache
def _templates() -> Any:
    """The jinja2 environment of ``cog_tasks/commands/templates`` (HTML autoescaped)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("cog_tasks.commands", "templates"),
        autoescape=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render_template(name: str, **context: Any) -> str:
    """A page from ``cog_tasks/commands/templates/<name>``."""
    return _templates().get_template(name).render(**context)


def render_compare_html(
    title: str, names: Sequence[str], profiles: Sequence[Mapping[str, Any]], differences: list[str]
) -> str:
    """The page of ``profile compare --html``: the N-way table, the chart, the differences."""
    chart = base64.b64encode(draw_compare(names, profiles)).decode("ascii")
    return render_template(
        "compare.html.j2",
        title=title,
        names=list(names),
        lines=compare_lines(names, profiles),
        chart=chart,
        differences="\n".join(differences),
        identities=[
            (name, json.dumps(p.get("identity", {}), sort_keys=True), p.get("versions", {}))
            for name, p in zip(names, profiles, strict=True)
        ],
    )
