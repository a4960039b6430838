"""EgoSocialArena's trivial strategies, each replayed on exactly a model row's declared units."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from functools import partial
from typing import Any

import cog_tasks.egosocial.inspect as tasks
from cog_tasks.common.logs import DATA_ARGUMENT
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy, load
from cog_tasks.common.stats import UnitValue
from cog_tasks.egosocial.blackjack import BlackjackHand, belief_facts
from cog_tasks.egosocial.holdem import HOLDING_OPTIONS, play_match
from cog_tasks.egosocial.inspect.static import rotation_targets
from cog_tasks.egosocial.number_guessing import RoundReply
from cog_tasks.egosocial.opponents.holdem_observer import shipped_opponents
from cog_tasks.egosocial.opponents.number_guessing import REFERENCE_REPLIES, constant_reply_game

Scores = dict[str, dict[str, UnitValue]]
#: The letters a constant-letter strategy answers (every released item has at most four options).
CONSTANT_LETTERS = ("A", "B", "C", "D")
#: The holding class with the most of the 1,326 holdings (640): exactly one card 10 or higher.
MAJORITY_HOLDING = 1
HOLDEM_ACTIONS = ("call", "fold", "raise")


def _argument(text: str) -> object:
    """An identity's argument back as the task got it (JSON where it parses)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def declared(run: RunIdentity) -> dict[str, Any]:
    """The samples the run's task arguments build, by id (``ValueError`` for another benchmark)."""
    name = run.task.partition("@")[0]
    factory = getattr(tasks, name, None)
    if factory is None:
        raise ValueError(f"{run.task}: not an EgoSocialArena task")
    arguments = {
        key: _argument(value)
        for key, value in run.arguments
        if key != DATA_ARGUMENT and not key.startswith("generate.")
    }
    if name == "egosocial_holdem" and "seed" not in arguments and run.seed is not None:
        arguments["seed"] = int(run.seed)  # a model run's identity holds the task seed as its seed
    return {str(sample.id): sample for sample in factory(**arguments).dataset}


def _samples(units: Collection[str], run: RunIdentity, task: str) -> dict[str, Any]:
    """The samples of ``units`` when ``run`` is of ``task``, else none."""
    if run.task.partition("@")[0] != task:
        return {}
    samples = declared(run)
    unknown = sorted(set(units) - set(samples))
    if unknown:
        raise ValueError(
            f"{run.task}: units {', '.join(unknown[:3])} are not declared by its arguments"
        )
    return {unit: samples[unit] for unit in units}


def _static(letter: str | None, units: Collection[str], run: RunIdentity) -> Scores:
    """Always ``letter`` (``None``: the majority letter of the units) on static items."""
    samples = _samples(units, run, "egosocial_static")
    circular = dict(run.arguments).get("circular") == "true"
    targets = {
        u: rotation_targets(str(s.target), len(s.choices or []), True) for u, s in samples.items()
    }
    first = {unit: rotated[0] for unit, rotated in targets.items()}
    chosen = letter or (Counter(first.values()).most_common(1)[0][0] if first else "A")
    scores: Scores = {}
    for unit, sample in samples.items():
        source = sample.metadata.get("source", "generated")
        scores.setdefault(f"static_accuracy_{source}", {})[unit] = float(first[unit] == chosen)
        if circular:
            every = all(t == chosen for t in targets[unit])
            scores.setdefault(f"static_circular_accuracy_{source}", {})[unit] = float(every)
    return scores


def beliefs_majority(units: Collection[str], run: RunIdentity) -> Scores:
    """The most common situation of the units, stated for every prompt."""
    samples = _samples(units, run, "egosocial_blackjack_beliefs")
    facts = {u: belief_facts(BlackjackHand.from_metadata(s.metadata)) for u, s in samples.items()}
    classes: dict[str, Callable[[Any], object]] = {
        "blackjack_self_belief": lambda f: (f.total, f.soft, f.move),
        "blackjack_external_belief": lambda f: f.dealer_up_value,
    }
    scores: Scores = {}
    for measure, key in classes.items():
        if not facts:
            break
        majority = Counter(key(f) for f in facts.values()).most_common(1)
        scores[measure] = {u: float(key(f) == majority[0][0]) for u, f in facts.items()}
    return scores


def _copy_previous(view: Any) -> Any:
    previous = view.history[-1][1] if view.history else 50
    return RoundReply(prediction=previous, choice=50)


def _guessing(
    reply: str | Callable[[Any], Any], units: Collection[str], run: RunIdentity
) -> Scores:
    """A scripted player (or a named reference reply) replayed against each unit's opponent."""
    scores: Scores = {}
    for unit, sample in _samples(units, run, "egosocial_number_guessing").items():
        meta = sample.metadata
        given = REFERENCE_REPLIES[reply] if isinstance(reply, str) else reply
        game = constant_reply_game(given, meta["level"], meta["rounds"], meta["opening"])
        for measure in ("number_guessing_hit_rate", f"number_guessing_hit_rate_L{meta['level']}"):
            scores.setdefault(measure, {})[unit] = game.accuracy()
    return scores


_HOLDING_LETTER = re.compile(r"^([ABC])\) (.+)$", re.MULTILINE)
_STYLE_LETTER = re.compile(r"^([AB])\) aggressive", re.MULTILINE)


def _holdem_player(action: str) -> Callable[[str], Any]:
    """An ``ask`` that plays ``action`` when legal (else checks) and gives fixed beliefs."""

    async def ask(text: str) -> str:
        if "Cards: <A, B or C>" in text:
            letters = {option: letter for letter, option in _HOLDING_LETTER.findall(text)}
            return f"Cards: {letters[HOLDING_OPTIONS[MAJORITY_HOLDING]]}; Raise: yes"
        style = _STYLE_LETTER.search(text)
        if style:
            return style.group(1)
        legal = re.search(r"Legal actions: ([a-z, ]+)\.", text)
        actions = legal.group(1).split(", ") if legal else []
        return action if action in actions else "check" if "check" in actions else actions[0]

    return ask


def _holdem(action: str, units: Collection[str], run: RunIdentity) -> Scores:
    """Always ``action``, replayed on each unit's own deal against its own opponent."""
    scores: Scores = {}
    for unit, sample in _samples(units, run, "egosocial_holdem").items():
        meta = sample.metadata
        opponent = shipped_opponents(meta["opponents"])[meta["opponent"]]
        match = play_match(_holdem_player(action), opponent, meta["hands"], meta["deal_seed"])
        counts = asyncio.run(match).scores()
        scores.setdefault("holdem_style_accuracy", {})[unit] = counts["style_correct"]
        pair = (counts["belief_correct"], counts["belief_asked"])
        scores.setdefault("holdem_belief_accuracy", {})[unit] = pair
    return scores


always_A, always_B, always_C, always_D = (partial(_static, letter) for letter in CONSTANT_LETTERS)
majority_letter = partial(_static, None)
guess_constant_50 = partial(_guessing, "constant prediction 50")
guess_lowest_choice = partial(_guessing, "constant lowest choice")
guess_copy_previous = partial(_guessing, _copy_previous)
always_call, always_fold, always_raise = (partial(_holdem, a) for a in HOLDEM_ACTIONS)

_MODULE = __name__
STRATEGIES: tuple[TrivialStrategy, ...] = (
    *(TrivialStrategy(f"constant {x}", f"{_MODULE}:always_{x}") for x in CONSTANT_LETTERS),
    TrivialStrategy("majority letter", f"{_MODULE}:majority_letter"),
    TrivialStrategy("majority situation stated", f"{_MODULE}:beliefs_majority"),
    TrivialStrategy("Prediction: 50; Choice: 50 every round", f"{_MODULE}:guess_constant_50"),
    TrivialStrategy("Prediction: 50; Choice: 1 every round", f"{_MODULE}:guess_lowest_choice"),
    TrivialStrategy("predict the opponent's last number", f"{_MODULE}:guess_copy_previous"),
    *(
        TrivialStrategy(f"always {a}; one card 10+, raise yes, aggressive", f"{_MODULE}:always_{a}")
        for a in HOLDEM_ACTIONS
    ),
)
"""Every trivial strategy; each returns ``{}`` for the tasks it does not apply to."""


def best(units: Collection[str], run: RunIdentity) -> Mapping[str, tuple[str, float]]:
    """The best strategy per measure on ``units`` (name, mean value), for reports and tests."""
    found: dict[str, tuple[str, float]] = {}
    for strategy in STRATEGIES:
        for measure, values in load(strategy.score)(units, run).items():
            pairs = [v if isinstance(v, tuple) else (v, 1.0) for v in values.values()]
            total = sum(d for _, d in pairs)
            mean = sum(n for n, _ in pairs) / total if total else 0.0
            if measure not in found or mean > found[measure][1]:
                found[measure] = (strategy.name, mean)
    return found
