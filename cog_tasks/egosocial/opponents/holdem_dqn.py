"""DQN hold'em opponents, trained by rlcard with shaped rewards per style (docs/games.md)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cog_tasks.common.errors import UserError
from cog_tasks.common.files import DataFileError, write_atomically
from cog_tasks.common.params import ParameterError
from cog_tasks.egosocial.holdem import ACTIONS, make_env

Style = Literal["aggressive", "conservative"]
STYLES: tuple[Style, ...] = ("aggressive", "conservative")
STATE_SIZE = 72
WEIGHTS_FORMAT = 1
TRAINING_RECORD = "training.json"


class OpponentWeightsError(DataFileError):
    """A hold'em opponent's weights or digest file that cannot be used; the message names it."""


@dataclass(frozen=True)
class ShapedReward:
    """Per-action bonuses (in big blinds) added to the hand's payoff during training."""

    bonus: Mapping[str, float]

    def __call__(self, action_name: str) -> float:
        """Return the bonus for one action."""
        return float(self.bonus.get(action_name, 0.0))


SHAPED_REWARDS: dict[Style, ShapedReward] = {
    "aggressive": ShapedReward({"raise": 1.0, "call": 0.5}),
    "conservative": ShapedReward({"fold": 4.5}),
}


@dataclass(frozen=True)
class FixedPlayer:
    """A training partner that plays the first legal action of its preference list."""

    preference: tuple[str, ...]
    use_raw = False

    def eval_step(self, state: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        """Rlcard's agent interface: the preferred legal action's id."""
        legal = [ACTIONS[action_id] for action_id in state["legal_actions"]]
        return ACTIONS.index(next(a for a in self.preference if a in legal)), {}

    def step(self, state: Mapping[str, Any]) -> int:
        """Rlcard's training interface: the same as :meth:`eval_step`."""
        return self.eval_step(state)[0]


#: Training partners by name: rlcard's random agent, one that always calls (or
#: checks) and one that always raises when it may.
PARTNERS = ("random", "caller", "raiser")
_FIXED_PARTNERS = {
    "caller": FixedPlayer(("check", "call")),
    "raiser": FixedPlayer(("raise", "call", "check")),
}


@dataclass(frozen=True)
class TrainingConfig:
    """Settings of one training run; with several ``partners`` each hand draws one (seeded)."""

    seed: int = 0
    episodes: int = 6000
    mlp_layers: tuple[int, ...] = (64, 64)
    learning_rate: float = 5e-4
    replay_memory_size: int = 20000
    replay_memory_init_size: int = 500
    update_target_every: int = 500
    epsilon_decay_steps: int = 10000
    batch_size: int = 32
    evaluation_hands: int = 1000
    partners: tuple[str, ...] = ("random",)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.partners) - set(PARTNERS))
        if unknown or not self.partners:
            raise UserError(f"training partners {unknown or '(none)'}: expected some of {PARTNERS}")


@dataclass(frozen=True)
class ActionRates:
    """How often an agent took each action when acting greedily."""

    decisions: int
    rates: dict[str, float] = field(default_factory=dict)

    def rate(self, action_name: str) -> float:
        """Share of decisions that were ``action_name``."""
        return self.rates.get(action_name, 0.0)


@contextlib.contextmanager
def single_thread() -> Iterator[None]:
    """Run torch on one thread so that results do not depend on the core count."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def train_agent(style: Style, config: TrainingConfig, shaping: ShapedReward | None = None) -> Any:
    """Train one DQN opponent (``shaping`` replaces the style's bonus) and return rlcard's agent."""
    import torch
    from rlcard.agents import DQNAgent, RandomAgent
    from rlcard.utils import reorganize

    shaping = shaping or SHAPED_REWARDS[style]
    with single_thread(), contextlib.redirect_stdout(io.StringIO()):  # rlcard's progress prints
        random.seed(config.seed)
        np.random.seed(config.seed)
        torch.manual_seed(config.seed)
        env = make_env(config.seed)
        agent = DQNAgent(
            num_actions=env.num_actions,
            state_shape=env.state_shape[0],
            mlp_layers=list(config.mlp_layers),
            learning_rate=config.learning_rate,
            replay_memory_size=config.replay_memory_size,
            replay_memory_init_size=config.replay_memory_init_size,
            update_target_estimator_every=config.update_target_every,
            epsilon_decay_steps=config.epsilon_decay_steps,
            batch_size=config.batch_size,
            device=torch.device("cpu"),
        )
        partners = {"random": RandomAgent(num_actions=env.num_actions), **_FIXED_PARTNERS}
        draw = np.random.default_rng(config.seed)
        env.set_agents([agent, partners[config.partners[0]]])
        for _ in range(config.episodes):
            if len(config.partners) > 1:
                chosen = config.partners[draw.integers(len(config.partners))]
                env.set_agents([agent, partners[chosen]])
            trajectories, payoffs = env.run(is_training=True)
            for state, action, reward, next_state, done in reorganize(trajectories, payoffs)[0]:
                shaped = reward + shaping(ACTIONS[action])
                agent.feed([state, action, shaped, next_state, done])
    return agent


class PolicyOpponent(ABC):
    """The opponent interface shared by the task, the chance runner and the ideal observer."""

    style: str
    sha256: str
    use_raw = False

    @abstractmethod
    def act_batch(self, observations: np.ndarray, legal: tuple[str, ...]) -> list[str]:
        """The action name chosen for each row of observations sharing the ``legal`` actions."""

    def act(self, state: Mapping[str, Any]) -> str:
        """The action name for rlcard's extracted state (``obs`` and ``legal_actions``)."""
        legal = tuple(ACTIONS[action_id] for action_id in state["legal_actions"])
        return self.act_batch(np.asarray(state["obs"]).reshape(1, -1), legal)[0]

    def eval_step(self, state: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        """Rlcard's agent interface, so the opponent can sit in ``env.run``."""
        return ACTIONS.index(self.act(state)), {}


@dataclass(frozen=True)
class DQNOpponent(PolicyOpponent):
    """A trained opponent, greedy on its Q-values, that checks instead of folding when free."""

    style: Style
    network: Any
    sha256: str = ""

    def act_batch(self, observations: np.ndarray, legal: tuple[str, ...]) -> list[str]:
        """The legal action with the highest Q-value for each observation, a free fold checked."""
        import torch

        # One thread: a small network on a shared machine is many times faster so.
        with single_thread(), torch.no_grad():
            values = self.network(torch.as_tensor(observations, dtype=torch.float32)).numpy()
        masked = np.full_like(values, -np.inf)
        ids = [ACTIONS.index(name) for name in legal]
        masked[:, ids] = values[:, ids]
        chosen = [ACTIONS[action_id] for action_id in masked.argmax(axis=1)]
        free = "check" in legal
        return ["check" if free and action == "fold" else action for action in chosen]


def opponent_from_agent(style: Style, agent: Any) -> DQNOpponent:
    """Wrap a freshly trained rlcard ``DQNAgent`` as an opponent."""
    return DQNOpponent(style=style, network=agent.q_estimator.qnet.eval())


def measure_action_rates(opponent: Any, hands: int, seed: int) -> ActionRates:
    """Play ``hands`` greedy hands against rlcard's random agent and count actions."""
    from rlcard.agents import RandomAgent

    np.random.seed(seed)
    env = make_env(seed)
    env.set_agents([opponent, RandomAgent(num_actions=env.num_actions)])
    counts: Counter[str] = Counter()
    for _ in range(hands):
        trajectories, _ = env.run(is_training=False)
        counts.update(ACTIONS[action] for action in trajectories[0][1::2])
    total = sum(counts.values())
    return ActionRates(
        decisions=total, rates={name: counts[name] / total for name in ACTIONS} if total else {}
    )


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_opponent(opponent: DQNOpponent, directory: Path, mlp_layers: tuple[int, ...]) -> Path:
    """Write ``dqn_<style>.pt`` (network, ``mlp_layers``) and its ``.sha256``; return its path."""
    import torch

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"dqn_{opponent.style}.pt"
    buffer = io.BytesIO()
    torch.save(
        {
            "format": WEIGHTS_FORMAT,
            "style": opponent.style,
            "mlp_layers": list(mlp_layers),
            "state_size": STATE_SIZE,
            "num_actions": len(ACTIONS),
            "state_dict": opponent.network.state_dict(),
        },
        buffer,
    )
    write_atomically(path, buffer.getvalue())
    digest = sha256_of(path)
    write_atomically(path.with_name(path.name + ".sha256"), f"{digest}  {path.name}\n".encode())
    return path


def shipped_weights_dir() -> Path:
    """Folder of the weights shipped inside the package."""
    return Path(str(resources.files("cog_tasks.egosocial.opponents.weights")))


def expected_sha256(weights_path: Path) -> str:
    """Read the recorded digest from ``<weights>.sha256`` (``sha256sum`` format)."""
    digest_path = weights_path.with_name(weights_path.name + ".sha256")
    if not digest_path.is_file():
        raise OpponentWeightsError(
            f"{digest_path}: missing, so {weights_path} cannot be checked; retrain with "
            f"cog-tasks egosocial train-opponents --out {weights_path.parent}"
        )
    fields = digest_path.read_text(encoding="utf-8", errors="replace").split()
    if not fields or len(fields[0]) != 64 or any(c not in "0123456789abcdef" for c in fields[0]):
        raise OpponentWeightsError(f"{digest_path}: expected '<64 hex digits>  <file name>'")
    return fields[0]


def load_opponent(style: Style, directory: Path | None = None) -> DQNOpponent:
    """Load a trained opponent after checking the SHA-256 of the bytes it loads (read once)."""
    import torch
    from rlcard.agents.dqn_agent import EstimatorNetwork

    if style not in STYLES:
        raise ParameterError(f"unknown opponent style {style!r}; expected one of {STYLES}")
    path = (directory or shipped_weights_dir()) / f"dqn_{style}.pt"
    if not path.is_file():
        raise FileNotFoundError(
            f"no weights at {path}; create them with: cog-tasks egosocial train-opponents "
            f"--out {path.parent}"
        )
    expected = expected_sha256(path)
    data = path.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise OpponentWeightsError(
            f"{path}: SHA-256 {actual} does not match the recorded {expected}"
        )
    foreign = f"{path}: not a format-{WEIGHTS_FORMAT} {style} opponent"
    try:
        payload = torch.load(io.BytesIO(data), weights_only=True)
    except Exception as error:  # torch raises many types for a file it cannot read
        raise OpponentWeightsError(f"{foreign} ({type(error).__name__}: {error})") from error
    if (
        not isinstance(payload, dict)
        or payload.get("format") != WEIGHTS_FORMAT
        or payload.get("style") != style
    ):
        raise OpponentWeightsError(foreign)
    try:
        network = EstimatorNetwork(
            num_actions=payload["num_actions"],
            state_shape=[payload["state_size"]],
            mlp_layers=list(payload["mlp_layers"]),
        )
        network.load_state_dict(payload["state_dict"])
    except (KeyError, TypeError, RuntimeError) as error:
        raise OpponentWeightsError(f"{foreign} ({type(error).__name__}: {error})") from error
    return DQNOpponent(style=style, network=network.eval(), sha256=actual)


def train_opponents(
    directory: Path,
    config: TrainingConfig,
    command: str | None = None,
    styles: tuple[Style, ...] = STYLES,
) -> dict[str, Any]:
    """Train, measure and save every style; write and return the ``training.json`` record."""
    import rlcard
    import torch

    record: dict[str, Any] = {
        "command": command if command is not None else " ".join(sys.argv),
        "config": asdict(config),
        "shaped_rewards": {style: dict(SHAPED_REWARDS[style].bonus) for style in styles},
        "versions": {"rlcard": rlcard.__version__, "torch": torch.__version__},
        "opponents": {},
    }
    for style in styles:
        opponent = opponent_from_agent(style, train_agent(style, config))
        path = save_opponent(opponent, directory, config.mlp_layers)
        rates = measure_action_rates(opponent, config.evaluation_hands, seed=config.seed + 1)
        record["opponents"][style] = {
            "file": path.name,
            "sha256": sha256_of(path),
            "bytes": path.stat().st_size,
            "greedy_action_rates_vs_random": rates.rates,
            "decisions": rates.decisions,
        }
    write_atomically(directory / TRAINING_RECORD, (json.dumps(record, indent=2) + "\n").encode())
    return record
