"""key_intervals and run_identity on a real Inspect run (scripted replies, no network)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, GenerateConfig
from inspect_ai.scorer import Score, Target, scorer
from inspect_ai.solver import TaskState, generate

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.logs import SUCCESS_ONLY, read_log, run_identity
from cog_tasks.common.scripted import ScriptedReplies, run_chance_model


class AlwaysA(ScriptedReplies):
    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        return "A"


@scorer(metrics=[key_intervals(unit="item", cluster="task")])
def letter_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        right = float(state.output.completion == target.text)
        return Score(value={"all": right, f"group:{state.metadata['group']}": right})

    return score


@task
def letters(judge_hint: str = "none", seed: int = 3) -> Task:
    samples = [
        Sample(
            id=f"s{i}",
            input="pick",
            target="A" if i % 3 else "B",
            metadata={"group": "x" if i < 20 else "y", "task": f"t{i // 2}"},
        )
        for i in range(40)
    ]
    return Task(dataset=samples, solver=generate(), scorer=letter_scorer())


def test_every_key_gets_an_interval_and_the_log_an_identity(tmp_path: Path) -> None:
    log = run_chance_model(letters(judge_hint="strict"), AlwaysA(), str(tmp_path))
    metrics = log.results.scores[0].metrics
    assert metrics["all"].value == 26 / 40
    for key in ("all", "group:x", "group:y"):
        low, high = metrics[f"{key}_ci_low"].value, metrics[f"{key}_ci_high"].value
        assert low < metrics[key].value < high
    # 20 samples of 0/1 in group x: a Wilson interval, whose bounds are known.
    assert metrics["group:x_ci_high"].value < 1.0
    read = read_log(log.location, tasks={"letters"}, statuses=SUCCESS_ONLY)
    identity = run_identity(read)
    assert identity.task.startswith("letters")
    assert identity.model == "mockllm/chance"
    assert dict(identity.arguments)["judge_hint"] == "strict"
    assert identity.seed == "3"
    assert "seed" not in dict(identity.arguments)


def test_a_chance_answerer_seed_is_part_of_the_identity(tmp_path: Path) -> None:
    class SeededA(AlwaysA):
        def __init__(self, seed: int) -> None:
            self.seed = seed

    identities = [
        run_identity(run_chance_model(letters(), SeededA(seed), str(tmp_path / str(seed))))
        for seed in (0, 1)
    ]
    # The answerer's seed is the run's seed; the task's own seed becomes an argument.
    assert [i.seed for i in identities] == ["0", "1"]
    assert all(dict(i.arguments)["seed"] == "3" for i in identities)
    assert identities[0].without_seed() == identities[1].without_seed()
