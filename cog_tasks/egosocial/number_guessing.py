"""Number Guessing (the number closer to 0.8 x the average wins): rules, game state, parsing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from cog_tasks.common import reading
from cog_tasks.egosocial.conversation import Ask, Conversation

LOWEST_NUMBER = 1
HIGHEST_NUMBER = 100
DEFAULT_ROUNDS = 10
#: Number used for the model's own pick when its reply has none (counted invalid).
FALLBACK_NUMBER = 50
TARGET_FRACTION_TEXT = "0.8"
#: A prediction hits when it is at most this far from the opponent's number.
HIT_TOLERANCE = 0.05
#: Each player's starting health points.
INITIAL_HEALTH = 10
Number = int | float

Player = Literal["model", "opponent"]
Outcome = Literal["model", "opponent", "tie"]

RULES_TEXT = (
    "You are playing a survival game of number guessing against one opponent for {rounds} "
    f"rounds. In every round both of you secretly choose a whole number from {LOWEST_NUMBER} "
    f"to {HIGHEST_NUMBER}. The target is {TARGET_FRACTION_TEXT} times the average of the two "
    "numbers; whoever is closer to the target wins the round, and the other player loses one "
    f"health point (if you both choose the same number, you both lose one). Each of you "
    f"starts with {INITIAL_HEALTH} health points. The same opponent plays every round. "
    "Before you choose, you say which number you believe your opponent will choose in this "
    "round; it counts as right only when it is exactly the opponent's number."
)
ROUND_PROMPT = (
    "Round {round} of {rounds}; you have {hp} health points. Which number will your opponent "
    "choose this round, and which number do you choose? Reply in exactly this form:\n"
    "Prediction: <number>; Choice: <number>"
)
RESULT_TEXT = (
    "Round {round} result: your opponent chose {opponent}, you chose {model}. "
    "Target: {target}. {verdict} Health points after this round: you {model_health}, "
    "your opponent {opponent_health}."
)
_VERDICTS: dict[Outcome, str] = {
    "model": "You won this round.",
    "opponent": "Your opponent won this round.",
    "tie": "This round is a tie.",
}

REPLY_FORMAT = "Reply in exactly this form:\nPrediction: <number>; Choice: <number>"
RULES_NAMES = ("ours", "authors")

Role = Literal["user", "system"]


@dataclass(frozen=True)
class Rules:
    """How a game is told: system message, each round's question and the role of round messages."""

    name: str
    system: str
    round_prompt: str
    role: Role = "user"


def our_rules(rounds: int) -> Rules:
    """Our rules, for a game of ``rounds`` rounds."""
    return Rules("ours", RULES_TEXT.format(rounds=rounds), ROUND_PROMPT)


def authors_rules() -> Rules:
    """The authors' game, its text read at run time (:mod:`cog_tasks.egosocial.authors_game`)."""
    from cog_tasks.egosocial.authors_game import PLAYER_NAME, read_authors_game

    game = read_authors_game()
    question = game.inquiry.replace("{name}", PLAYER_NAME)
    return Rules("authors", game.persona + game.setting, f"{question}\n{REPLY_FORMAT}", "system")


def rules_named(name: str, rounds: int) -> Rules:
    """The rules called ``name`` (:data:`RULES_NAMES`) for a game of ``rounds`` rounds."""
    return authors_rules() if name == "authors" else our_rules(rounds)


_NUMBER_TEXT = r"-?\d+(?:\.\d+)?"
# A labelled number stands alone: not a range or a hedge ("40-45", "40 to 45", "40 or 45", "40, 45")
# and not the start of other notation ("1e2").
_ALONE = r"(?!\.?\d|[eE][+-]?\d|\s*(?:[-\u2013\u2014/~,]|\bor\b|\bto\b)\s*-?\d)"
_LABELLED = {
    key: re.compile(rf"{key}\s*[:=]?\s*({_NUMBER_TEXT}){_ALONE}", re.IGNORECASE)
    for key in ("prediction", "choice")
}
_LABELS = re.compile(r"prediction|choice", re.IGNORECASE)
# A reply that is only two numbers, prediction then choice.
_BARE_PAIR = re.compile(
    rf"^\s*({_NUMBER_TEXT})\s*(?:[,;]\s*|\s+and\s+|\s+)({_NUMBER_TEXT})\s*\.?\s*$", re.IGNORECASE
)


def parse_number(text: str) -> Number:
    """A decimal as an ``int`` when it is whole (``"45.0"`` -> 45), else a ``float``."""
    value = float(text)
    return int(value) if value.is_integer() else value


def exact(number: Number) -> Fraction:
    """A number as an exact fraction of its decimal text (``20.8`` -> 104/5)."""
    return Fraction(str(number))


def round_target(first: Number, second: Number) -> Fraction:
    """The round's target, ``0.8 * (first + second) / 2``, exactly."""
    return Fraction(2, 5) * (exact(first) + exact(second))


def round_outcome(model_number: Number, opponent_number: Number) -> Outcome:
    """Decide a round exactly: the number closer to 0.8 x the average wins (or ``"tie"``)."""
    target = round_target(model_number, opponent_number)
    model_distance = abs(exact(model_number) - target)
    opponent_distance = abs(exact(opponent_number) - target)
    if model_distance < opponent_distance:
        return "model"
    if opponent_distance < model_distance:
        return "opponent"
    return "tie"


def in_range(number: Number | None) -> bool:
    """Whether ``number`` is a legal pick (a number from 1 to 100)."""
    return number is not None and LOWEST_NUMBER <= number <= HIGHEST_NUMBER


@dataclass(frozen=True)
class RoundReply:
    """What the model said in one round (``None`` for a missing number)."""

    prediction: Number | None
    choice: Number | None


def _hedged_after(text: str, end: int) -> bool:
    """Whether the rest of a labelled number's clause hedges or corrects it ("40 (or maybe 41)")."""
    clause = re.split(r"[;\n]|\b(?=prediction|choice)", text[end:], maxsplit=1, flags=re.I)[0]
    return reading.hedged(clause) or reading.retracted(clause)


def parse_round_reply(text: str) -> RoundReply:
    """Read ``Prediction: <n>; Choice: <n>`` from a reply; missing numbers are ``None``."""
    text = reading.normalize(text)
    if _LABELS.search(text):
        values: dict[str, Number | None] = {}
        for key, pattern in _LABELLED.items():
            found = list(pattern.finditer(text))
            hedged = any(_hedged_after(text, match.end()) for match in found)
            agreed = reading.one_answer(parse_number(match.group(1)) for match in found)
            values[key] = None if hedged else agreed.value
        return RoundReply(prediction=values["prediction"], choice=values["choice"])
    pair = _BARE_PAIR.match(text)
    if pair is None:
        return RoundReply(prediction=None, choice=None)
    return RoundReply(prediction=parse_number(pair.group(1)), choice=parse_number(pair.group(2)))


@dataclass(frozen=True)
class CompletedRound:
    """One finished round; ``prediction`` is ``None`` for an invalid reply (never a hit)."""

    round: int
    opponent_number: Number
    prediction: Number | None
    model_number: Number
    invalid: bool
    outcome: Outcome

    @property
    def correct(self) -> bool:
        """The prediction is within :data:`HIT_TOLERANCE` of the opponent's number."""
        if self.prediction is None:
            return False
        return abs(exact(self.prediction) - exact(self.opponent_number)) <= exact(HIT_TOLERANCE)


@dataclass(frozen=True)
class OpponentView:
    """What the opponent may know before choosing: public numbers only."""

    round: int
    model_numbers: tuple[Number, ...]
    own_numbers: tuple[Number, ...]


@dataclass(frozen=True)
class ModelView:
    """What the model may know before choosing: earlier ``(model, opponent, outcome)`` rounds."""

    round: int
    rounds: int
    history: tuple[tuple[Number, Number, Outcome], ...]


@dataclass(frozen=True)
class NumberGuessingGame:
    """Immutable state of one game (``integers``: whole picks only, from Number Guessing 5.0.0)."""

    level: int
    rounds: int = DEFAULT_ROUNDS
    completed: tuple[CompletedRound, ...] = ()
    integers: bool = True

    @property
    def current_round(self) -> int:
        """The 1-based number of the next round."""
        return len(self.completed) + 1

    @property
    def is_over(self) -> bool:
        """All rounds have been played."""
        return len(self.completed) >= self.rounds

    def view_as(self, player: Player) -> OpponentView | ModelView:
        """Return what ``player`` may see before the next round (never the model's predictions)."""
        if player == "opponent":
            return OpponentView(
                round=self.current_round,
                model_numbers=tuple(r.model_number for r in self.completed),
                own_numbers=tuple(r.opponent_number for r in self.completed),
            )
        if player == "model":
            return ModelView(
                round=self.current_round,
                rounds=self.rounds,
                history=tuple(
                    (r.model_number, r.opponent_number, r.outcome) for r in self.completed
                ),
            )
        raise ValueError(f"unknown player {player!r}; expected 'model' or 'opponent'")

    def legal(self, number: Number | None) -> bool:
        """Whether ``number`` is a legal pick: from 1 to 100, whole where :attr:`integers`."""
        return in_range(number) and not (self.integers and not isinstance(number, int))

    def health(self) -> tuple[int, int]:
        """Health points lost so far by the model and by the opponent (both lose on a tie)."""
        return (
            sum(r.outcome != "model" for r in self.completed),
            sum(r.outcome != "opponent" for r in self.completed),
        )

    def play_round(self, reply: RoundReply, opponent_number: Number) -> NumberGuessingGame:
        """Record one round; return the new state (``ValueError`` if over or illegal)."""
        if self.is_over:
            raise ValueError(f"the game already had its {self.rounds} rounds")
        if not in_range(opponent_number):
            raise ValueError(f"opponent number {opponent_number} is outside 1..100")
        valid = self.legal(reply.prediction) and self.legal(reply.choice)
        model_number = reply.choice if self.legal(reply.choice) else FALLBACK_NUMBER
        played = CompletedRound(
            round=self.current_round,
            opponent_number=opponent_number,
            prediction=reply.prediction if valid else None,
            model_number=model_number,
            invalid=not valid,
            outcome=round_outcome(model_number, opponent_number),
        )
        return replace(self, completed=(*self.completed, played))

    def to_dict(self) -> dict[str, Any]:
        """Plain-data form, for Inspect's store and logs."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NumberGuessingGame:
        """Rebuild a game from :meth:`to_dict` output."""
        completed = tuple(CompletedRound(**played) for played in data["completed"])
        integers = bool(data.get("integers", False))  # absent: a game before 5.0.0
        return cls(data["level"], data["rounds"], completed, integers)

    def accuracy(self) -> float:
        """Exact-match predictions divided by the number of rounds in the game."""
        return sum(r.correct for r in self.completed) / self.rounds

    def invalid_rate(self) -> float:
        """Rounds whose reply lacked a legal prediction or choice, over all rounds."""
        return sum(r.invalid for r in self.completed) / self.rounds

    def win_rate(self) -> float:
        """Rounds won by the model over all rounds."""
        return sum(r.outcome == "model" for r in self.completed) / self.rounds


def round_result_text(game: NumberGuessingGame) -> str:
    """Describe the last round and the health left to the model (kept in the conversation)."""
    played, lost = game.completed[-1], game.health()
    target = round_target(played.model_number, played.opponent_number)
    return RESULT_TEXT.format(
        model_health=INITIAL_HEALTH - lost[0],
        opponent_health=INITIAL_HEALTH - lost[1],
        round=played.round,
        opponent=f"{played.opponent_number:g}",
        model=f"{played.model_number:g}",
        target=f"{float(target):g}",
        verdict=_VERDICTS[played.outcome],
    )


async def play_number_guessing(
    ask: Ask,
    choose: Callable[[OpponentView], Number],
    level: int,
    rounds: int = DEFAULT_ROUNDS,
    rules: Rules | None = None,
    say: Callable[[str], None] | None = None,
) -> NumberGuessingGame:
    """Play a whole game; results are told by ``say`` when given, else before the next question."""
    rules = rules or our_rules(rounds)
    game = NumberGuessingGame(level=level, rounds=rounds)
    conversation = Conversation(ask)
    while not game.is_over:
        view = game.view_as("model")
        opponent_number = choose(game.view_as("opponent"))
        health = INITIAL_HEALTH - game.health()[0]
        prompt = rules.round_prompt.format(round=view.round, rounds=view.rounds, hp=health)
        reply = await conversation.ask(prompt)
        game = game.play_round(parse_round_reply(reply), opponent_number)
        (say or conversation.tell)(round_result_text(game))
    return game
