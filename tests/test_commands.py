"""Shared commands: ``cog-tasks list`` and the headline scores of ``chance``."""

import re
from pathlib import Path

import pytest

from cog_tasks.cli import main


def listing_rows(output: str) -> dict[str, list[str]]:
    rows = {}
    for line in output.split("\n\n")[0].splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[1].strip("`")] = cells
    return rows


@pytest.mark.slow  # 31.0 s CPU: lm-eval indexes every task (issue 46)
def test_list_shows_every_lm_eval_task_with_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--framework", "lm-eval"]) == 0
    rows = listing_rows(capsys.readouterr().out)
    families = [name for name in rows if name in ("cogeval", "coglm", "coglm_gen")]
    assert families == ["cogeval", "coglm", "coglm_gen"]  # benchmark folders listed in name order
    assert rows["coglm"][2:4] == ["lm-eval, log-likelihood of each option (group)", "1,220"]
    assert rows["coglm_plan"][3] == "210"
    assert rows["coglm_stage4"][3] == "560"
    assert rows["coglm_gen_plan"][2] == "lm-eval, generation"
    from cog_tasks.cogeval.generator import generate_items
    from cog_tasks.cogeval.published import select_published

    assert rows["cogeval"][3] == f"{len(select_published()):,}"  # the paper's tasks
    # The families partition the paper's tasks (Exp. 2's cot variants are within its tasks).
    assert rows["cogeval_families"][3] == f"{len(select_published()):,}"
    members = [name for name in rows if name.startswith("cogeval_family_")]
    assert sum(int(rows[name][3].replace(",", "")) for name in members) == len(select_published())
    assert rows["cogeval_generated"][3] == f"{len(generate_items()):,}"
    assert rows["cogeval_n7line"][4].startswith("[cog_tasks/cogeval/README.md]")
    for cells in rows.values():
        readme = cells[4].split("](")[1].rstrip(")")
        assert (Path(__file__).resolve().parents[1] / readme).is_file()


@pytest.mark.slow
def test_list_shows_inspect_tasks(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.delenv("COG_TASKS_COGBENCH_HUB", raising=False)
    assert main(["list", "--framework", "inspect"]) == 0
    output = capsys.readouterr().out
    rows = listing_rows(output)
    assert {"cog_tasks/cogeval", "cog_tasks/cogbench", "cog_tasks/egosocial_static"} <= set(rows)
    assert all(cells[2].startswith("Inspect, chat") for cells in rows.values())
    # Without CogBench data offline, the count says why instead of failing the listing,
    # and a note under the table gives the whole reason, its ways out included.
    assert rows["cog_tasks/cogbench"][3] == "n/a (DataSourceError) [1]"
    note = output.split("\n\nWhy a count is n/a:\n")[1].splitlines()[0]
    assert note.startswith("[1] DataSourceError: could not fetch the CogBench file")
    assert "Ways out: (1)" in note and note.endswith("(not human data).")


@pytest.mark.slow
def test_chance_prints_headline_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["cogeval", "chance", "-T", "graphs=n7line", "--limit", "4"]
    assert main([*arguments, "--log-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    # The task name carries the registry prefix when the entry point was loaded first.
    assert re.search(r"chance baseline on (cog_tasks/)?cogeval \(seed 0, 4 samples\):", out)
    # Every headline comes with its 95 % interval; the 4 samples are 1 task (the
    # independent unit), too few for one, and the line says so instead of "nan".
    assert re.search(r"^  \w+: success=[0-9.]+ \[no interval: 1 unit\], ", out, flags=re.M)
    assert re.search(r", no_answer=[0-9.]+ \[no interval: 1 unit\]", out)
    assert "nan" not in out
    log_line = out.strip().splitlines()[-1]
    assert log_line.startswith("log: ") and Path(log_line[5:]).is_file()
