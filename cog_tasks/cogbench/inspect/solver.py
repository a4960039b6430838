"""Solver: run one CogBench agent through one (topic, profile) trajectory."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessageAssistant,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from cog_tasks.cogbench.agents import (
    AgentSettings,
    IterationResult,
    make_agent,
    run_iteration,
    warn_missing_flows,
)
from cog_tasks.cogbench.generation import Reply
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.errors import UserError
from cog_tasks.common.generation import JUDGE_ROLE, greedy_config

STORE_KEY = "cogbench_iterations"


def check_judge_role(self_judge: bool) -> None:
    """Refuse a ``judge`` role left unbound without ``self_judge``, or bound beside it."""
    if (JUDGE_ROLE in model_roles()) == self_judge:
        raise UserError(
            "-T self_judge=true and --model-role judge both name a judge; give one"
            if self_judge
            else "CogBench's Rationality needs a judge: pass --model-role judge=MODEL, or -T "
            "self_judge=true to let the evaluated model judge itself, or -T judge=false to skip "
            "Rationality"
        )


def hit_token_limit(output: ModelOutput, max_tokens: int) -> bool:
    """Whether a reply stopped at its token limit (or, without a stop reason, used them all)."""
    if output.stop_reason != "unknown":
        return output.stop_reason == "max_tokens"
    return output.usage is not None and output.usage.output_tokens >= max_tokens


class ModelGenerator:
    """Adapt an Inspect :class:`Model` to the agents' ``TextGenerator`` protocol."""

    def __init__(self, model: Model) -> None:
        """Wrap ``model``, greedy unless its config sets a temperature (:func:`greedy_config`)."""
        self.model, self.config = model, greedy_config(model)

    @property
    def greedy(self) -> bool:
        """Whether the model decodes greedily (temperature 0, or ``-M do_sample=false``)."""
        return (
            0 in (self.model.config.temperature, self.config.temperature)
            or self.config.top_k == 1
            or self.model.model_args.get("do_sample") is False
        )

    async def __call__(self, prompt: str, max_tokens: int) -> Reply:
        """Generate a reply to ``prompt`` as one user turn, noting a cut at ``max_tokens``."""
        config = self.config.merge(GenerateConfig(max_tokens=max_tokens))
        output = await self.model.generate(prompt, config=config)
        return Reply(output.completion, hit_token_limit(output, max_tokens))


def _ratings(values: list[int | None]) -> str:
    return " ".join("?" if value is None else str(value) for value in values)


def iteration_lines(records: list[dict[str, Any]]) -> str:
    """One line per iteration: ``t1: agent 4 2 ? | human 3 2 5`` (``?`` = no readable rating)."""
    return "\n".join(
        f"t{record['iteration']}: agent {_ratings([a['rating'] for a in record['answers']])} | "
        f"human {_ratings([a['human_rating'] for a in record['answers']])}"
        for record in records
    )


@solver
def cogbench_agent(
    agent: str = "coggpt", settings: AgentSettings | None = None, judge: bool = False
) -> Solver:
    """Run ``agent`` through the sample's iterations, one span each (judge role checked first)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if judge:
            check_judge_role(self_judge=False)
        trajectory = Trajectory.from_metadata(state.metadata)
        if state.epoch == 1:
            warn_missing_flows(trajectory)
        model = get_model()
        name = f"{state.sample_id}-e{state.epoch}"
        runner = make_agent(agent, ModelGenerator(model), trajectory.profile, settings, name)
        results: list[IterationResult] = []
        try:
            for step in trajectory.steps:
                async with span(f"iteration {step.iteration}"):
                    result = await run_iteration(runner, step, results[-1] if results else None)
                results.append(result)
                state.store.set(STORE_KEY, [r.to_record() for r in results])
        finally:
            runner.close()
        text = iteration_lines([r.to_record() for r in results])
        state.messages.append(ChatMessageAssistant(content=text, model=model.name))
        state.output = ModelOutput.from_content(model=model.name, content=text)
        return state

    return solve
