"""Inspect solvers, scorers and tasks for the interactive games (the history stays in the chat)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.params import choice, integer
from cog_tasks.common.progress import with_progress
from cog_tasks.common.provenance import DATA_PROVENANCE, DataReads, Provenance, recording_reads
from cog_tasks.egosocial.conversation import Ask
from cog_tasks.egosocial.holdem import RULES_TEXT as HOLDEM_RULES
from cog_tasks.egosocial.holdem import MatchRecord, play_match
from cog_tasks.egosocial.inspect import metrics
from cog_tasks.egosocial.inspect.version import TASK_VERSIONS
from cog_tasks.egosocial.number_guessing import (
    DEFAULT_ROUNDS,
    RULES_NAMES,
    NumberGuessingGame,
    Role,
    play_number_guessing,
    rules_named,
)
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, expected_sha256, shipped_weights_dir
from cog_tasks.egosocial.opponents.holdem_observer import OPPONENT_KINDS, shipped_opponents
from cog_tasks.egosocial.opponents.number_guessing import (
    LEVELS,
    NumberGuessingOpponent,
    opening_number,
)

NUMBER_GUESSING_KEY = "egosocial_number_guessing"
HOLDEM_KEY = "egosocial_holdem"


def _asker(state: TaskState, generate: Generate, role: Role = "user") -> Ask:
    """An ``ask`` coroutine that keeps every turn in ``state.messages``, sent in ``role``."""
    message = ChatMessageSystem if role == "system" else ChatMessageUser

    async def ask(text: str) -> str:
        nonlocal state
        state.messages.append(message(content=text))
        state = await generate(state)
        return state.output.completion

    return ask


@solver
def number_guessing_game() -> Solver:
    """Play the sample's Number Guessing game against its rule-based opponent, under its rules."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        level, rounds = state.metadata["level"], state.metadata["rounds"]
        opponent = NumberGuessingOpponent(level, opening=state.metadata["opening"])
        rules = rules_named(state.metadata["rules"], rounds)
        ask = _asker(state, generate, rules.role)

        def say(text: str) -> None:
            state.messages.append(ChatMessageSystem(content=text))

        told = say if rules.role == "system" else None
        game = await play_number_guessing(ask, opponent.choose, level, rounds, rules, told)
        state.store.set(NUMBER_GUESSING_KEY, game.to_dict())
        return state

    return solve


#: The hit rates under their measure names, over every level first (the headline).
HIT_RATES = {"accuracy": metrics.guessing_measure()} | {
    f"accuracy level:{level}": metrics.guessing_measure(f"L{level}") for level in LEVELS
}


@scorer(
    metrics=[
        key_intervals(unit="game", names=HIT_RATES),
        metrics.grouped_key_intervals(
            ("accuracy", "invalid_rate", "win_rate"), ("level",), unit="game", names=HIT_RATES
        ),
    ]
)
def number_guessing_scorer() -> Scorer:
    """Per game (the unit): prediction hit rate (``accuracy``), invalid-reply and win rates."""

    async def score(state: TaskState, target: Target) -> Score:
        game = NumberGuessingGame.from_dict(state.store.get(NUMBER_GUESSING_KEY))
        return Score(
            value={
                "accuracy": game.accuracy(),
                "invalid_rate": game.invalid_rate(),
                "win_rate": game.win_rate(),
            },
            answer=" ".join(str(r.prediction) for r in game.completed),
            explanation="opponent: " + " ".join(str(r.opponent_number) for r in game.completed),
            metadata=game.to_dict(),
        )

    return score


@task
def egosocial_number_guessing(
    level: int | None = None, rounds: int = DEFAULT_ROUNDS, games: int = 1, rules: str = "ours"
) -> Task:
    """EgoSocialArena Number Guessing against rule-based opponents (the authors' game)."""
    integer("rounds", rounds, 1, 100)
    integer("games", games, 1, 1000)
    levels = LEVELS if level is None else (choice("level", level, LEVELS),)
    with recording_reads() as reads:
        told = rules_named(str(choice("rules", rules, RULES_NAMES)), rounds).system
    samples = [
        Sample(
            id=f"number_guessing-L{value}-g{game}",
            input=[
                ChatMessageSystem(
                    content=told if games == 1 else f"{told} This is game {game + 1} of {games}."
                )
            ],
            target=f"level {value}",
            metadata={
                "scenario": "number_guessing",
                "ability": "tom",
                "level": value,
                "rounds": rounds,
                "game": game,
                "opening": opening_number(value, game),
                "rules": rules,
            },
        )
        for value in levels
        for game in range(games)
    ]
    return Task(
        dataset=MemoryDataset(samples, name="egosocial_number_guessing"),
        solver=with_progress(number_guessing_game(), task="egosocial_number_guessing", unit="game"),
        scorer=number_guessing_scorer(),
        version=TASK_VERSIONS["egosocial_number_guessing"],
        metadata={DATA_PROVENANCE: reads.metadata()} if reads.files else {},
    )


@solver
def holdem_match() -> Solver:
    """Play the sample's hold'em match against its opponent (DQN or rules), then ask its style."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        opponent = shipped_opponents(meta["opponents"])[meta["opponent"]]
        record = await play_match(
            _asker(state, generate), opponent, meta["hands"], meta["deal_seed"]
        )
        state.store.set(HOLDEM_KEY, record.to_dict())
        return state

    return solve


@scorer(
    metrics=[
        metrics.grouped_means("style_correct", "opponent", "match", total=metrics.HOLDEM_STYLE),
        metrics.ratio_intervals(
            (
                ("belief_correct", "belief_asked", metrics.HOLDEM_BELIEFS),
                ("holding_correct", "holding_asked", "holding_accuracy"),
                ("raise_correct", "raise_asked", "raise_accuracy"),
                ("invalid_actions", "model_actions", "invalid_action_rate"),
            ),
            unit="match",
        ),
        metrics.grouped_means("chips", "opponent", unit="match"),
    ]
)
def holdem_scorer() -> Scorer:
    """Style identification, belief-question accuracy, invalid-action rate and chips."""

    async def score(state: TaskState, target: Target) -> Score:
        data = state.store.get(HOLDEM_KEY)
        record = MatchRecord.from_dict(data)
        return Score(
            value=record.scores(),
            answer=record.style_answer or "",
            explanation=f"opponent style: {record.opponent_style}",
            metadata=data,
        )

    return score


def opponent_weights(styles: Sequence[str]) -> dict[str, object]:
    """The data provenance of the opponents' weights (each with its ``.sha256``'s digest)."""
    folder = shipped_weights_dir()
    paths = [folder / f"dqn_{style}.pt" for style in styles]
    return DataReads(
        [
            Provenance(p.name, "local", str(p), expected_sha256(p), "pinned", str(folder))
            for p in paths
        ]
    ).metadata()


@task
def egosocial_holdem(
    opponent: str | None = None,
    hands: int = 5,
    matches: int = 1,
    seed: int = 0,
    opponents: str = "rules",
) -> Task:
    """EgoSocialArena Limit Texas Hold'em against the DQN (or rule-based) opponents."""
    kind = str(choice("opponents", opponents, OPPONENT_KINDS))
    integer("hands", hands, 1, 1000)
    integer("matches", matches, 1, 1000)
    integer("seed", seed, 0)
    styles = STYLES if opponent is None else (str(choice("opponent", opponent, STYLES)),)
    shipped_opponents(kind)  # loaded and checked now, not in the first sample
    samples = [
        Sample(
            id=f"holdem-{style}-m{match}",
            input=[ChatMessageSystem(content=HOLDEM_RULES.format(hands=hands))],
            target=style,
            metadata={
                "scenario": "holdem",
                "ability": "tom",
                "opponent": style,
                "opponents": kind,
                "hands": hands,
                "deal_seed": seed + match,
            },
        )
        for style in styles
        for match in range(matches)
    ]
    return Task(
        dataset=MemoryDataset(samples, name="egosocial_holdem"),
        solver=with_progress(holdem_match(), task="egosocial_holdem", unit="match"),
        scorer=holdem_scorer(),
        version=TASK_VERSIONS["egosocial_holdem"],
        metadata={DATA_PROVENANCE: opponent_weights(styles)} if kind == "dqn" else {},
    )
