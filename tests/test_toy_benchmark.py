"""A fifth benchmark is one folder and one registry line: the toy runs its profile, report
and compare with nothing else changed, and its trivial strategy stands beside its headline."""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path

import pytest
import toy_benchmark

import cog_tasks.cli
from cog_tasks.benchmarks import REGISTRY
from cog_tasks.cli import main
from cog_tasks.commands.profile import PRESETS, Preset


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry line, and the toy's preset (only the toy declares steps for it)."""
    monkeypatch.setitem(REGISTRY, toy_benchmark.NAME, toy_benchmark.SPEC)
    monkeypatch.setitem(PRESETS, "toy", Preset("toy", "seconds"))
    groups = (*cog_tasks.cli.COMMAND_GROUPS, import_module(toy_benchmark.SPEC.cli))
    monkeypatch.setattr(cog_tasks.cli, "COMMAND_GROUPS", groups)


@pytest.mark.slow
def test_a_toy_fifth_benchmark_runs_its_profile_report_and_compare(
    toy_registered: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folders = [tmp_path / f"seed{seed}" for seed in (0, 1)]
    for seed, out in enumerate(folders):
        arguments = ["profile", "run", "--model", "chance", "--preset", "toy"]
        assert main([*arguments, "--seed", str(seed), "--out", str(out)]) == 0
    profile = json.loads((folders[0] / "profile.json").read_text())
    (row,) = profile["rows"]
    assert (row["benchmark"], row["measure"], row["n"]) == ("toy", "accuracy", 12)
    assert row["chance"]["value"] == row["value"]
    # The best trivial strategy on the row's own 12 items: constant A is right on 8.
    trivial = row["trivial"]
    assert trivial["name"] == "constant A" and trivial["value"] == pytest.approx(8 / 12)
    assert trivial["difference"]["value"] == pytest.approx(row["value"] - 8 / 12)
    assert trivial["beaten"] is False  # a chance answerer never beats it
    assert [paper["benchmark"] for paper in profile["paper"]][-1] == "toy"
    markdown = (folders[0] / "profile.md").read_text()
    assert "| toy | accuracy |" in markdown and "constant A: 0.667; model minus it" in markdown
    assert "NOT BEATEN" in markdown

    capsys.readouterr()
    assert main(["toy", "report", str(folders[0] / "logs")]) == 0
    assert f"accuracy {row['value']:.3f}" in capsys.readouterr().out

    assert main(["profile", "compare", *map(str, folders)]) == 0
    compared = capsys.readouterr().out
    assert "toy accuracy:" in compared and "1 rows tested; 0 not paired" in compared


def test_the_registry_declares_each_benchmark_once() -> None:
    """Every registered spec names real modules, and every task of a preset is one of its own."""
    assert list(REGISTRY) == ["coglm", "cogeval", "cogbench", "egosocial"]
    for name, spec in REGISTRY.items():
        assert spec.name == name and spec.unit and spec.cli == f"cog_tasks.{name}.cli"
        assert all(
            step.benchmark == name and step.task in spec.tasks
            for steps in spec.presets.values()
            for step in steps
        )
        assert {row.benchmark for row in spec.paper_rows()} == {name}
        assert spec.data is not None and spec.data.description
