"""The seeded chance baseline: valid-format random answers, run through Inspect."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.cogeval.baseline import random_answer
from cog_tasks.cogeval.generator import generate_items
from cog_tasks.cogeval.headlines import checked_runs
from cog_tasks.cogeval.inspect.logs import read_inspect_runs
from cog_tasks.cogeval.scoring import score_response


def test_random_walker_answers_in_form_and_never_invents_a_connection() -> None:
    rng = random.Random(0)
    modes = set()
    correct = 0
    items = generate_items(domains=["ordRooms", "socialTies"])
    for item in items:
        result = score_response(
            random_answer(item.context, rng), item.expected, item.kind, item.context
        )
        modes.add(result.failure_mode)
        correct += result.score
    assert not modes & {"no_answer", "unparseable", "invalid_edge"}
    assert {"loop", "wrong_goal", "wrong_count"} <= modes
    assert 0 < correct < len(items) / 2


@pytest.mark.slow
def test_chance_command_writes_a_scored_inspect_log(tmp_path: Path) -> None:
    args = ["cogeval", "chance", "--log-dir", str(tmp_path), "--seed", "3", "--epochs", "2"]
    task = ["-T", "graphs=n7line", "-T", "domains=ordRooms", "-T", "temperatures=0,1"]
    assert main([*args, *task, "-T", "conditions=valuePath,nClusters"]) == 0
    (run,) = checked_runs(read_inspect_runs(tmp_path)[0])
    dialogs = run.dialogs()
    # one condition exists on n7line: its two prompts (one another model's wording),
    # two temperatures, two epochs; one task, both epochs averaged within each dialog
    assert len(dialogs) == 2 * 2 * 2 and run.tasks == ["n7line.ordRooms.valuePath"]
    assert run.coverage.epochs == 2 and len(run.checked.keys[run.tasks[0]]) == 4
    assert {row["model"] for row in dialogs} == {"mockllm/chance"}
    assert {row["failure_mode"] for row in dialogs} <= {None, "wrong_goal", "suboptimal"}
