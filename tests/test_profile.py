"""``cog-tasks profile``: a chance profile end to end, and the paired comparison of two."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.commands.profile import BENCHMARKS, compare_profiles


@pytest.fixture(scope="module")
def chance_profiles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two smoke chance profiles with seeds 0 and 1."""
    folders = []
    for seed in (0, 1):
        out = tmp_path_factory.mktemp(f"chance{seed}")
        code = main(
            [
                "profile",
                "run",
                "--model",
                "chance",
                "--preset",
                "smoke",
                "--seed",
                str(seed),
                "--out",
                str(out),
            ]
        )
        assert code == 0
        folders.append(out)
    return folders[0], folders[1]


@pytest.mark.slow
def test_chance_profile_has_every_benchmark_with_intervals(chance_profiles) -> None:
    profile = json.loads((chance_profiles[0] / "profile.json").read_text())
    assert {row["benchmark"] for row in profile["rows"]} == set(BENCHMARKS)
    for row in profile["rows"]:
        if row["method"] == "none":  # one unit: no interval, and the JSON says so
            assert row["n"] == 1 and row["ci_low"] is None and row["ci_high"] is None
            continue
        assert row["ci_low"] <= row["value"] <= row["ci_high"], row
        assert row["n"] > 0 and row["unit"] and row["run"]["model"]
    assert {row["benchmark"] for row in profile["paper"]} == set(BENCHMARKS)
    markdown = (chance_profiles[0] / "profile.md").read_text()
    assert "| coglm |" in markdown and "## Published values for the same measures" in markdown
    assert (chance_profiles[0] / "profile.png").stat().st_size > 10_000


@pytest.mark.slow
def test_two_chance_profiles_differ_by_noise_only(chance_profiles, capsys) -> None:
    first, second = (json.loads((f / "profile.json").read_text()) for f in chance_profiles)
    comparisons = [c for c in compare_profiles(first, second) if c.difference is not None]
    assert len(comparisons) >= 5
    containing = sum(not c.difference.excludes(0.0) for c in comparisons)
    assert containing >= 0.9 * len(comparisons)
    assert main(["profile", "compare", str(chance_profiles[0]), str(chance_profiles[1])]) == 0
    out = capsys.readouterr().out
    assert "paired over shared units: a bootstrap" in out
    # A row whose units are all-or-nothing alike in both runs names its interval.
    alike = [c for c in comparisons if c.difference.method != "bootstrap"]
    for comparison in alike:
        assert f"n={comparison.difference.n} {comparison.difference.method}" in out


def test_compare_refuses_a_file_that_is_not_a_profile(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "profile.json"
    bad.write_text('{"model": "x"}')
    assert main(["profile", "compare", str(bad), str(bad)]) == 2
    assert f"{bad}: not a profile.json" in capsys.readouterr().err
