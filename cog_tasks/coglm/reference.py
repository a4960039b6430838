"""Published CogLM results (Tables 9, 5 and 7, percent), for the age fit and charts."""

from __future__ import annotations

from dataclasses import dataclass

from cog_tasks.coglm.abilities import ABILITIES


@dataclass(frozen=True)
class ReferenceRow:
    """One row of Table 9 (percent; ``age`` in years; ``duplicate_of``: the row it copies)."""

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
    abilities = {a.code: v for a, v in zip(ABILITIES, ordered, strict=True)}
    return ReferenceRow(model, abilities, overall, age, duplicate_of)


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


@dataclass(frozen=True)
class SettingRow:
    """One row of the paper's Table 5 or Table 7 (one model under one setting, "Avg" as overall)."""

    setting: str
    abilities: dict[str, float]
    overall: float


def _setting_row(setting: str, values: str) -> SettingRow:
    # values: const early semio empat conse induc rever deduc propo plan Avg (paper order)
    row = _row(setting, f"{values} 0")
    return SettingRow(setting=setting, abilities=row.abilities, overall=row.overall)


TABLE5_MODEL = "GPT-3.5-Turbo"
TABLE5: tuple[SettingRow, ...] = (
    _setting_row("Base", "92.0 97.3 90.6 85.5 65.9 64.0 61.3 27.5 49.0 6.7 64.0"),
    _setting_row("w/ COT", "92.0 97.3 89.3 85.5 65.7 64.0 62.3 26.9 50.5 9.8 64.3"),
    _setting_row("w/ SC T=0.3", "91.0 97.6 90.3 86.0 65.7 66.0 61.0 27.9 53.5 4.8 64.4"),
    _setting_row("w/ SC T=0.7", "91.0 97.6 90.0 85.5 65.7 66.7 61.3 27.7 52.0 3.5 63.1"),
)
"""Table 5: GPT-3.5-Turbo with chain of thought and self-consistency (40 samples)."""
TABLE7_MODEL = "Llama-2-chat-7B, rationales from GPT-3.5-Turbo"
TABLE7: tuple[SettingRow, ...] = (
    _setting_row("w/o COC", "32.0 78.6 74.5 54.9 -0.2 41.3 25.3 6.1 -2.0 -0.1 31.0"),
    _setting_row("w/ COC", "54.2 57.3 53.3 69.4 34.1 41.9 34.7 8.1 26.9 1.5 38.1"),
)
"""Table 7: Llama-2-chat-7B with and without chain of cognition."""
