"""EgoSocialArena report: figures and a summary table from measurements.

Pure aggregation and plotting; reading Inspect logs into :class:`Measurement`
and :class:`GuessCurve` objects is the Inspect frontend's job (its
``egosocial/report.py``). :func:`write_report` writes:

- ``number_guessing_curves.png``: per level, the opponent's numbers and each
  model's per-round predictions (the paper's Figure 4 style);
- ``accuracy_by_scenario.png``: bars per scenario and ability, one per model;
- ``summary.json`` and ``summary.md``: the numbers behind the bars.

Static items count per ability label and scenario; Number Guessing counts
hits per game; Hold'em contributes style identification and per-question
belief accuracy; the blackjack beliefs count per belief type.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from cog_tasks.common.files import (
    pyplot,
    save_figure,
    write_json_atomically,
    write_text_atomically,
)


@dataclass(frozen=True)
class Measurement:
    """One bar: a model's score on one scenario and ability label.

    Attributes:
        model: Model name from the log.
        ability: Ability label (``Belief``, ``Emotion``, ..., ``ToM`` for the games).
        scenario: Scenario label (e.g. ``daily_life``, ``number_guessing L2``).
        correct: Correct answers (summed over samples and epochs).
        total: Questions asked.
    """

    model: str
    ability: str
    scenario: str
    correct: float
    total: float

    @property
    def accuracy(self) -> float:
        """Correct over total (NaN when nothing was asked)."""
        return self.correct / self.total if self.total else float("nan")


@dataclass(frozen=True)
class GuessCurve:
    """One played Number Guessing game.

    Attributes:
        model: Model name.
        level: Opponent level.
        epoch: Inspect epoch.
        opponent: The opponent's number per round.
        predictions: The model's prediction per round (``None`` if unparseable).
    """

    model: str
    level: int
    epoch: int
    opponent: tuple[float, ...]
    predictions: tuple[float | None, ...]


def sum_measurements(
    counts: Iterable[tuple[str, str, str, float, float]],
) -> list[Measurement]:
    """Add up ``(model, ability, scenario, correct, total)`` rows into measurements."""
    sums: dict[tuple[str, str, str], list[float]] = {}
    for model, ability, scenario, correct, total in counts:
        totals = sums.setdefault((model, ability, scenario), [0.0, 0.0])
        totals[0] += correct
        totals[1] += total
    return [
        Measurement(model, ability, scenario, correct, total)
        for (model, ability, scenario), (correct, total) in sorted(sums.items())
    ]


def plot_guess_curves(curves: list[GuessCurve], path: Path) -> None:
    """One panel per level: the opponent's numbers (solid) and the predictions (dashed).

    Levels 1 and 2 ignore the model, so one black line shows their numbers.
    Level 3 reacts to each model's picks, so every game gets its own solid
    line in the model's colour.
    """
    plt = pyplot()

    levels = sorted({curve.level for curve in curves})
    figure, axes = plt.subplots(1, len(levels), figsize=(5 * len(levels), 4), squeeze=False)
    models = sorted({curve.model for curve in curves})
    colours = {model: f"C{index}" for index, model in enumerate(models)}
    for axis, level in zip(axes[0], levels, strict=True):
        games = [curve for curve in curves if curve.level == level]
        shared_gold = len({game.opponent for game in games}) == 1
        if shared_gold:
            gold = games[0].opponent
            axis.plot(range(1, len(gold) + 1), gold, "k-o", linewidth=2, label="opponent")
        labelled: set[str] = set()
        for game in games:
            colour = colours[game.model]
            first = game.model not in labelled
            labelled.add(game.model)
            if not shared_gold:
                label = f"opponent vs {game.model}" if first else None
                rounds = range(1, len(game.opponent) + 1)
                axis.plot(rounds, game.opponent, "-o", color=colour, linewidth=2, label=label)
            rounds_with_guess = [
                r for r, p in enumerate(game.predictions, start=1) if p is not None
            ]
            guesses = [p for p in game.predictions if p is not None]
            label = f"{game.model} prediction" if first else None
            axis.plot(rounds_with_guess, guesses, "--x", color=colour, alpha=0.8, label=label)
        axis.set_title(f"Number Guessing, level {level}")
        axis.set_xlabel("round")
        axis.set_ylabel("number")
        axis.set_ylim(0, 101)
        axis.legend(fontsize=7)
    save_figure(figure, path)
    plt.close(figure)


def _ordered_groups(measurements: list[Measurement]) -> list[tuple[str, str]]:
    return sorted({(m.ability, m.scenario) for m in measurements}, key=lambda g: (g[1], g[0]))


def plot_accuracy_bars(measurements: list[Measurement], path: Path) -> None:
    """Horizontal grouped bars: one row per (ability, scenario), one bar per model."""
    plt = pyplot()

    groups = _ordered_groups(measurements)
    models = sorted({m.model for m in measurements})
    lookup = {(m.model, m.ability, m.scenario): m.accuracy for m in measurements}
    height = 0.8 / max(len(models), 1)
    figure, axis = plt.subplots(figsize=(8, 1.0 + 0.28 * len(groups) * max(len(models), 1)))
    for index, model in enumerate(models):
        widths = [
            lookup.get((model, ability, scenario), float("nan")) for ability, scenario in groups
        ]
        positions = [row + index * height for row in range(len(groups))]
        axis.barh(positions, widths, height=height, label=model)
    axis.set_yticks([row + 0.4 - height / 2 for row in range(len(groups))])
    axis.set_yticklabels([f"[{ability}] {scenario}" for ability, scenario in groups], fontsize=8)
    axis.invert_yaxis()
    axis.set_xlabel("accuracy")
    axis.set_xlim(0, 1)
    axis.set_title("EgoSocialArena accuracy by ability and scenario")
    axis.legend(fontsize=8, loc="lower right")
    save_figure(figure, path)
    plt.close(figure)


def summary_markdown(measurements: list[Measurement]) -> str:
    """A markdown table: rows are models, columns are (ability, scenario)."""
    groups = _ordered_groups(measurements)
    lookup = {(m.model, m.ability, m.scenario): m for m in measurements}
    header = "| model | " + " | ".join(f"{s} [{a}]" for a, s in groups) + " |"
    lines = [header, "|---" * (len(groups) + 1) + "|"]
    for model in sorted({m.model for m in measurements}):
        cells = []
        for ability, scenario in groups:
            found = lookup.get((model, ability, scenario))
            cells.append(f"{found.accuracy:.3f} (n={found.total:g})" if found is not None else "–")
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_report(
    measurements: list[Measurement], curves: list[GuessCurve], out_dir: Path
) -> list[Path]:
    """Write the figures and summaries.

    Args:
        measurements: Aggregated scores.
        curves: Every Number Guessing game.
        out_dir: Destination folder (created if missing).

    Returns:
        The files written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if curves:
        written.append(out_dir / "number_guessing_curves.png")
        plot_guess_curves(curves, written[-1])
    written.append(out_dir / "accuracy_by_scenario.png")
    plot_accuracy_bars(measurements, written[-1])
    summary = {
        "measurements": [asdict(m) | {"accuracy": m.accuracy} for m in measurements],
        "number_guessing_games": [asdict(curve) for curve in curves],
    }
    written.append(out_dir / "summary.json")
    write_json_atomically(written[-1], summary)
    written.append(out_dir / "summary.md")
    write_text_atomically(written[-1], summary_markdown(measurements))
    return written
