"""Published CogLM results (Wang et al., Table 9), used for the age fit and charts.

Values are calibrated accuracies in percent, in this package's canonical
ability order (const, early, semio, empat, rever, conse, induc, deduc, propo,
plan). The paper prints stage 3 as conse, induc, rever; the values were
re-ordered accordingly (Table 8 confirms the mapping for OPT-125M).

The paper's "LLaMA2-text 70B" row repeats the "LLaMA2-chat 70B" row digit for
digit, an evident copy error. It is kept for display with
``duplicate_of`` set, and left out of the age fit: fitting the remaining 12
rows (human row included) gives the published ratio of stage weights.
"""

from __future__ import annotations

from dataclasses import dataclass

from cog_tasks.coglm.abilities import ABILITIES


@dataclass(frozen=True)
class ReferenceRow:
    """One row of Table 9.

    Attributes:
        model: Model name as printed.
        abilities: Calibrated accuracy (%) per ability code.
        overall: The table's "Acc" column (%).
        age: The table's "Age" column (years).
        duplicate_of: Name of the row this one duplicates, if any.
    """

    model: str
    abilities: dict[str, float]
    overall: float
    age: float
    duplicate_of: str | None = None


def _row(model: str, values: str, duplicate_of: str | None = None) -> ReferenceRow:
    # values: const early semio empat conse induc rever deduc propo plan Acc Age (paper order)
    numbers = [float(v) for v in values.split()]
    const, early, semio, empat, conse, induc, rever, deduc, propo, plan, overall, age = numbers
    ordered = (const, early, semio, empat, rever, conse, induc, deduc, propo, plan)
    return ReferenceRow(
        model=model,
        abilities={a.code: v for a, v in zip(ABILITIES, ordered, strict=True)},
        overall=overall,
        age=age,
        duplicate_of=duplicate_of,
    )


TABLE9: tuple[ReferenceRow, ...] = (
    _row("OPT 125M", "-16.0 38.6 26.3 -19.0 16.2 9.3 4.0 5.6 4.0 2.2 7.1 4.8"),
    _row("OPT 1.3B", "-20.0 52.0 38.4 -11.0 1.0 12.0 13.3 -6.1 2.5 -3.0 7.9 5.2"),
    _row("OPT 2.7B", "-8.0 53.3 43.7 -9.5 9.4 12.0 21.1 -1.3 5.5 3.4 12.95 6.1"),
    _row("OPT 6.7B", "-4.0 64.2 41.1 -3.0 13.5 10.6 20.1 -0.8 -0.5 14.2 15.5 6.5"),
    _row("LLaMA2-text 7B", "16.0 82.6 43.7 -4.0 20.0 1.3 24.0 -16.8 14.5 24.4 20.5 7.3"),
    _row("LLaMA2-text 13B", "28.0 84.0 42.4 -3.0 13.0 13.5 24.0 -15.7 35.5 13.0 23.4 7.7"),
    _row(
        "LLaMA2-text 70B",
        "52.1 96.2 78.5 66.2 68.4 65.3 44.0 15.2 40.0 20.6 54.6 14.1",
        duplicate_of="LLaMA2-chat 70B",
    ),
    _row("LLaMA2-chat 7B", "32.0 78.6 74.5 54.9 -0.2 41.3 25.3 6.1 -2.0 -0.1 31.04 10.3"),
    _row("LLaMA2-chat 13B", "44.0 89.3 78.5 56.5 16.2 42.6 32.0 -0.2 17.5 1.5 37.8 11.35"),
    _row("LLaMA2-chat 70B", "52.1 96.2 78.5 66.2 68.4 65.3 44.0 15.2 40.0 20.6 54.6 14.1"),
    _row("GPT-3.5-Turbo", "92.0 97.3 90.6 85.5 65.9 64.0 61.3 27.5 49.0 6.7 64.0 16.1"),
    _row("GPT-4", "96.0 97.3 96.0 90.3 90.4 78.7 78.7 99.4 61.0 59.4 84.7 20.0"),
    _row("Human", "100.0 98.0 96.1 84.2 98.2 91.6 92.0 100.0 82.0 95.6 93.7 21.5"),
)


def fit_rows() -> tuple[ReferenceRow, ...]:
    """The 12 distinct rows of Table 9 used to fit the age mapping."""
    return tuple(row for row in TABLE9 if row.duplicate_of is None)
