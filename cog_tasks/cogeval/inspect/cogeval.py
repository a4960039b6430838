"""CogEval (Momennejad et al. 2023): cognitive maps and planning, multi-turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cog_tasks.cogeval.generator import COT_MODES, DESIGNS, generate_items, split_names
from cog_tasks.cogeval.headlines import CLUSTER, SUCCESS
from cog_tasks.cogeval.inspect.version import TASK_VERSION
from cog_tasks.cogeval.published import select_published
from cog_tasks.cogeval.scoring import FAILURE_MODES, GraphContext, score_response
from cog_tasks.common.errors import UserError
from cog_tasks.common.generation import eval_model, sampling_settings
from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.params import ParameterError
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads

DEFAULT_TEMPERATURES: tuple[float, ...] = (0.0, 0.5, 1.0)
#: The paper's nucleus sampling, sent with every call where the provider takes it.
PAPER_TOP_P = 0.95
#: The published runs' cap per reply: the largest any used, GPT-4's on most tasks.
PAPER_MAX_TOKENS = 2048
#: Providers that refuse ``top_p`` beside a temperature (recent Claude models).
NO_TOP_P_APIS: frozenset[str] = frozenset({"anthropic"})
SOURCES: tuple[str, ...] = ("published", "generated")
DEFAULT_SOURCE = "published"
MAX_TEMPERATURE = 2.0


def parse_temperatures(value: str | float | Sequence[float] | None) -> list[float]:
    """The ``temperatures`` parameter as a list of numbers from 0 to 2."""
    if value is None:
        return list(DEFAULT_TEMPERATURES)
    listed = value.split(",") if isinstance(value, str) else value
    parts = [listed] if isinstance(listed, int | float) else list(listed)
    valid = f"numbers from 0 to {MAX_TEMPERATURE:g}, comma-separated (default 0,0.5,1)"
    temperatures = []
    for part in parts:
        try:
            temperature = float(part)
        except (TypeError, ValueError):
            raise ParameterError(
                f"CogEval temperatures: {part!r} is not a number; valid: {valid}"
            ) from None
        if not 0 <= temperature <= MAX_TEMPERATURE:
            raise ParameterError(
                f"CogEval temperatures: {temperature:g} is out of range; valid: {valid}"
            )
        temperatures.append(temperature)
    if not temperatures or len(set(temperatures)) != len(temperatures):
        raise ParameterError(f"CogEval temperatures: {value!r} is empty or repeats; valid: {valid}")
    return temperatures


def _check_parameters(
    cot: object, seed: object, max_tokens: object, design: object, source: object
) -> None:
    """Type and range checks of the scalar task parameters, naming the valid values."""

    def invalid(name: str, value: object, valid: str) -> ParameterError:
        return ParameterError(f"CogEval {name}: {value!r} is not valid; valid: {valid}")

    if source not in SOURCES:
        raise invalid("source", source, ", ".join(SOURCES))
    if cot is not None and cot not in COT_MODES:
        raise invalid("cot", cot, f"{', '.join(COT_MODES)}, or unset")
    if design not in DESIGNS:
        raise invalid("design", design, ", ".join(DESIGNS))
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise invalid("seed", seed, "an integer >= 0")
    if source == "published" and seed != 0:
        raise ParameterError(
            f"CogEval seed: {seed!r} relabels generated tasks only; valid with source=published "
            "(the default): 0, or pass -T source=generated"
        )
    if max_tokens is not None and (
        isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1
    ):
        raise invalid("max_tokens", max_tokens, "an integer >= 1, or unset")


def record_to_sample(record: dict[str, Any], temperature: float) -> Sample:
    """Turn an item record into a sample; follow-up turns travel in ``metadata["followups"]``."""
    turns = record["turns"]
    return Sample(
        id=f"{record['id']}.t{temperature:g}",
        input=[ChatMessageSystem(content=record["system"]), ChatMessageUser(content=turns[0])],
        target=record["expected"],
        metadata={
            "graph": record["graph"],
            "domain": record["domain"],
            "condition": record["condition"],
            "family": record["family"],
            "cot": record["cot"],
            "seed": record["seed"],
            CLUSTER: record.get("task", record["id"]),
            "item": record["id"],
            "temperature": temperature,
            "followups": turns[1:],
            "scored_reply": record.get("scored_reply", len(turns)),
            "source": record.get("source", "generated"),
            "kind": record.get("kind") or record["graph_context"]["kind"],
            "start": record.get("start"),
            "graph_context": record["graph_context"],
        },
    )


def refuse_temperature(user: GenerateConfig | None) -> None:
    """Refuse an eval-wide ``--temperature``: each sample sets its own."""
    if user is not None and user.temperature is not None:
        raise UserError(
            f"CogEval: --temperature {user.temperature:g} would be overridden by each sample's "
            f"own temperature; pass -T temperatures={user.temperature:g} instead"
        )


def turn_settings(temperature: float, api: str, user: GenerateConfig) -> dict[str, Any]:
    """One sample's settings: its temperature, and the paper's ``top_p`` unless set or refused."""
    refuse_temperature(user)  # a task built outside its eval learns the model here
    settings = sampling_settings(temperature, api)
    if user.top_p is None and api not in NO_TOP_P_APIS:
        settings["top_p"] = PAPER_TOP_P
    return settings


@solver
def dialog_solver() -> Solver:
    """Answer the first turn, then each follow-up turn, at the sample's temperature."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        # The active model's config holds the eval's --temperature and --top-p.
        temperature = float(state.metadata["temperature"])
        settings = turn_settings(temperature, state.model.api, get_model().config)
        state = await generate(state, **settings)
        for text in state.metadata["followups"]:
            state.messages.append(ChatMessageUser(content=text))
            state = await generate(state, **settings)
        return state

    return solve


def scored_reply(state: TaskState) -> str:
    """The reply the paper scored: ``metadata["scored_reply"]`` (1-based), else the last."""
    replies = [message.text for message in state.messages if message.role == "assistant"]
    number = state.metadata.get("scored_reply") or len(replies)
    return replies[number - 1] if 0 < number <= len(replies) else state.output.completion


@scorer(metrics=[key_intervals(unit="item", cluster=CLUSTER, names={"acc": SUCCESS})])
def cogeval_scorer() -> Scorer:
    """Graph-aware scorer: ``acc`` (logged ``success``) and failure-mode indicators, task CIs."""

    async def score(state: TaskState, target: Target) -> Score:
        facts = state.metadata["graph_context"]
        context = GraphContext.from_dict(facts) if facts is not None else None
        result = score_response(
            scored_reply(state),
            list(target.target),
            state.metadata["kind"],
            context,
            start=state.metadata.get("start"),
        )
        value = {"acc": float(result.score)}
        value.update({mode: float(result.failure_mode == mode) for mode in FAILURE_MODES})
        return Score(
            value=value,
            answer=result.answer,
            explanation=f"failure mode: {result.failure_mode}"
            if result.failure_mode
            else "correct",
            metadata={"failure_mode": result.failure_mode},
        )

    return score


@task
def cogeval(
    graphs: str | list[str] | None = None,
    domains: str | list[str] | None = None,
    conditions: str | list[str] | None = None,
    cot: str | None = None,
    temperatures: str | float | list[float] | None = None,
    seed: int = 0,
    max_tokens: int | None = None,
    design: str = "all",
    source: str = DEFAULT_SOURCE,
    experiment: int | None = None,
    unscorable: bool = False,
) -> Task:
    """CogEval cognitive-map and planning dialogs."""
    _check_parameters(cot, seed, max_tokens, design, source)
    refuse_temperature(model.config if (model := eval_model()) else None)
    chosen_temperatures = parse_temperatures(temperatures)
    names = {
        "graphs": split_names(graphs),
        "domains": split_names(domains),
        "conditions": split_names(conditions),
        "cot": cot,
        "design": design,
        "experiment": experiment,
    }
    with recording_reads() as reads:
        if source == "published":
            chosen = select_published(**names, unscorable=unscorable)
            records = [task.to_record() for task in chosen]
        else:
            names["cot"] = cot or "none"
            records = [item.to_record() for item in generate_items(seed=seed, **names)]
    samples = [
        record_to_sample(record, temperature)
        for record in records
        for temperature in chosen_temperatures
    ]
    return Task(
        dataset=MemoryDataset(samples, name="cogeval"),
        solver=dialog_solver(),
        scorer=cogeval_scorer(),
        config=GenerateConfig(max_tokens=max_tokens or PAPER_MAX_TOKENS),
        version=TASK_VERSION,
        metadata={DATA_PROVENANCE: reads.metadata()},
    )
