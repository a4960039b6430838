"""Limit Texas Hold'em against a trained opponent: table state, prompts, parsing, match loop."""

from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol

from cog_tasks.common import reading
from cog_tasks.egosocial.cards import cards_words
from cog_tasks.egosocial.conversation import Ask, Conversation

ENV_NAME = "limit-holdem"
#: rlcard's action ids for limit hold'em, in order.
ACTIONS = ("call", "raise", "fold", "check")
STAGES = ("preflop", "flop", "turn", "river")
BIG_BLIND = 2
MODEL_SEAT, OPPONENT_SEAT = 0, 1
HIGH_RANKS = "TJQKA"
STYLE_OPTIONS = (
    ("aggressive", "aggressive: raises and calls a lot"),
    ("conservative", "conservative: folds often and seldom raises"),
)
HOLDING_OPTIONS = (
    "a pair, or two cards that are both 10 or higher",
    "exactly one card that is 10 or higher (not a pair)",
    "two cards that are both below 10 (not a pair)",
)
YES_NO = ("yes", "no")

Player = Literal["model", "opponent"]

RULES_TEXT = (
    "You are playing heads-up Limit Texas Hold'em against one opponent for {hands} hands. "
    "Blinds are 1 and 2 chips. Bets and raises are 2 chips before the flop and on the flop "
    "and 4 chips on the turn and river, with at most four raises per betting round. "
    "Actions: call (match the opponent's bet), raise, check (when there is nothing to call) "
    "and fold (give up the hand). The same opponent plays every hand. After the last hand "
    "you will be asked about your opponent's play style."
)
HOLDING_QUESTION = "Which best describes your opponent's two hidden cards?"
STYLE_QUESTION = "Which best describes your opponent's play style?"
BELIEF_PROMPT = (
    "Before you act, two questions about your opponent.\n"
    f"1. {HOLDING_QUESTION}\n"
    "A) {0}\nB) {1}\nC) {2}\n"
    "2. Will your opponent raise at any point during the rest of this hand? (yes or no)\n"
    "Reply in exactly this form:\nCards: <A, B or C>; Raise: <yes or no>"
)
ACTION_PROMPT = "Legal actions: {legal}. Reply with one word: the action you take."
REASK_PROMPT = "{reply!r} is not one of the legal actions ({legal}). Reply with one of them."
STYLE_PROMPT = (
    f"All {{hands}} hands have been played. {STYLE_QUESTION}\n"
    "A) {0}\nB) {1}\nReply with the letter only."
)

#: The words naming an action: the action, its -s and -ing forms ("Calling.", "I'm raising"),
#: and bet for raise. Past forms are not actions ("they raised, so I call" is a call).
_ACTION_WORDS = {
    "call": "call", "calls": "call", "calling": "call",
    "raise": "raise", "raises": "raise", "raising": "raise",
    "bet": "raise", "bets": "raise", "betting": "raise",
    "fold": "fold", "folds": "fold", "folding": "fold",
    "check": "check", "checks": "check", "checking": "check",
}  # fmt: skip
_LABELLED_ACTION = re.compile(reading.label("action") + r"([a-z]+)")
# An unlabelled reply that negates an action ("I will not fold", "don't call") names no
# action; a negation elsewhere ("I call because I have no pair") does not matter.
_NEGATION = re.compile(
    r"\b(?:not|never|no|don't|won't|wouldn't|shouldn't|can't|cannot)\s+(?:[a-z']+\s+){0,2}?"
    r"(?:" + "|".join(_ACTION_WORDS) + r")\b"
)
# "Cards: B", "cards = (c)"; the letter must end its answer: "Cards: a pair", "discard a few"
# and "Cards: A, B or C" (the template without its brackets) name no class.
_CARDS_LABEL = re.compile(
    r"\bcards?[*_]*\s*(?:[:=]|is\b)\s*[*_]*\s*[(\[]?([abc])\b[*_)\]]*(?:[ \t]*\([^()\n]*\))?"
    r"(?!\s*(?:,|/|\bor\b|\band\b)\s*\(?[abc]\b)(?=\s*(?:$|[;,.\n]|raise\b))",
    re.IGNORECASE,
)
# "Raise: yes"; "Raise: yes or no" (the template without its brackets) is no answer.
_RAISE_LABEL = re.compile(
    r"\braise[*_]*\s*[:=]\s*[*_]*\s*(yes|no)\b(?!\s*(?:,|/|\bor\b)\s*(?:yes|no)\b)", re.IGNORECASE
)
# A style word after a negation in the same clause: "not aggressive", "isn't very conservative".
_NEGATED_STYLE = re.compile(
    r"\b(?:not|never|no|hardly|\w+n't)(?:\s+\w+){0,3}?\s+(aggressive|conservative)\b"
)
_STYLE_WORD = re.compile(r"aggressive|conservative")
# Unlabelled answers are read only from a reply that is nothing else: "C, no", "B".
_BARE_BELIEFS = re.compile(r"^\s*\(?([A-C])\)?\s*(?:[,;.]?\s*(yes|no))?\s*\.?\s*$", re.IGNORECASE)
_BARE_STYLE_LETTER = re.compile(r"^\s*\(?([AB])\)?\s*\.?\s*$")
# Parts of the prompts: a reply holding one repeats the prompt instead of answering.
_PROMPT_PARTS = (
    HOLDING_QUESTION, STYLE_QUESTION, "<A, B or C>", "<yes or no>", "Legal actions:",
    "Reply with one word",
)  # fmt: skip


class Opponent(Protocol):
    """A hold'em opponent: its style and a policy on rlcard's per-player state."""

    style: str

    def act(self, state: dict[str, Any]) -> str:
        """Return an action name for rlcard's extracted state of the opponent's seat."""


def make_env(seed: int) -> Any:
    """Create a seeded two-player limit hold'em environment."""
    import rlcard

    return rlcard.make(ENV_NAME, config={"seed": seed})


def holding_class(cards: tuple[str, ...]) -> int:
    """Index into :data:`HOLDING_OPTIONS` for two hole cards (rlcard notation)."""
    ranks = [card[1] for card in cards]
    high = sum(rank in HIGH_RANKS for rank in ranks)
    if ranks[0] == ranks[1] or high == 2:
        return 0
    return 1 if high == 1 else 2


@dataclass(frozen=True)
class TableAction:
    """One action at the table (``invalid``: a default played after two failed replies)."""

    seat: int
    stage: str
    action: str
    invalid: bool = False


@dataclass(frozen=True)
class SeatView:
    """What one seat may see: never the other seat's hidden cards."""

    hand_number: int
    hands: int
    stage: str
    position: str
    own_cards: tuple[str, ...]
    board: tuple[str, ...]
    own_chips: int
    opponent_chips: int
    history: tuple[str, ...]
    legal_actions: tuple[str, ...]

    def describe(self) -> str:
        """The view as text for the model."""
        history = "; ".join(self.history) if self.history else "no actions yet"
        return (
            f"Hand {self.hand_number} of {self.hands}, {self.stage}. You are the {self.position}.\n"
            f"Your cards: {cards_words(self.own_cards)}.\n"
            f"Board: {cards_words(self.board)}.\n"
            f"Chips in the pot this hand: you {self.own_chips}, "
            f"your opponent {self.opponent_chips}.\n"
            f"So far this hand: {history}."
        )


@dataclass(frozen=True)
class HoldemTable:
    """Immutable snapshot of the table."""

    hand_number: int
    hands: int
    stage: str
    hole_cards: tuple[tuple[str, ...], tuple[str, ...]]
    board: tuple[str, ...]
    chips_in: tuple[int, int]
    small_blind_seat: int
    actions: tuple[TableAction, ...]
    legal_actions: tuple[str, ...]

    def view_as(self, player: Player) -> SeatView:
        """Return what ``player`` (``"model"`` or ``"opponent"``) may see."""
        if player not in ("model", "opponent"):
            raise ValueError(f"unknown player {player!r}; expected 'model' or 'opponent'")
        seat = MODEL_SEAT if player == "model" else OPPONENT_SEAT

        def told(action: TableAction) -> str:
            who = "you" if action.seat == seat else "your opponent"
            verb = {"call": "called", "raise": "raised", "fold": "folded", "check": "checked"}
            return f"{who} {verb[action.action]} ({action.stage})"

        return SeatView(
            hand_number=self.hand_number,
            hands=self.hands,
            stage=self.stage,
            position="small blind" if seat == self.small_blind_seat else "big blind",
            own_cards=self.hole_cards[seat],
            board=self.board,
            own_chips=self.chips_in[seat],
            opponent_chips=self.chips_in[1 - seat],
            history=tuple(told(action) for action in self.actions),
            legal_actions=self.legal_actions,
        )


def read_table(
    env: Any, hand_number: int, hands: int, small_blind_seat: int, actions: list[TableAction]
) -> HoldemTable:
    """Snapshot an rlcard limit hold'em environment."""
    game = env.game
    return HoldemTable(
        hand_number=hand_number,
        hands=hands,
        stage=STAGES[min(game.round_counter, len(STAGES) - 1)],
        hole_cards=tuple(
            tuple(card.get_index() for card in player.hand) for player in game.players
        ),  # type: ignore[arg-type]
        board=tuple(card.get_index() for card in game.public_cards),
        chips_in=(game.players[0].in_chips, game.players[1].in_chips),
        small_blind_seat=small_blind_seat,
        actions=tuple(actions),
        legal_actions=tuple(game.get_legal_actions()),
    )


def parse_action(text: str, legal: tuple[str, ...]) -> str | None:
    """The one legal action a reply names (``Action: <word>`` wins), else ``None``."""
    if any(part in text for part in _PROMPT_PARTS):
        return None
    lower = reading.normalize(text).lower()
    labelled = [word for word in _LABELLED_ACTION.findall(lower) if word in _ACTION_WORDS]
    if not labelled and _NEGATION.search(lower.replace("\u2019", "'")):
        return None
    words = labelled or re.findall(r"[a-z]+\b(?!\s*:)", lower)  # "Raise:" labels a belief
    named = {_ACTION_WORDS[word] for word in words if word in _ACTION_WORDS}
    if len(named) != 1:
        return None
    action = named.pop()
    return action if action in legal else None


@dataclass(frozen=True)
class BeliefReply:
    """The model's answers to one hand's belief questions (indices; ``None`` if unparseable)."""

    holding: int | None
    raise_: int | None


def parse_beliefs(text: str, order: tuple[int, ...] = (0, 1, 2)) -> BeliefReply:
    """Read ``Cards: <A-C>; Raise: <yes/no>``, or a reply that is only a letter and yes/no."""
    if any(part in text for part in _PROMPT_PARTS):
        return BeliefReply(None, None)
    text = reading.normalize(text)
    bare = _BARE_BELIEFS.match(text)
    cards = _CARDS_LABEL.search(text)
    raised = _RAISE_LABEL.search(text)
    letter = cards.group(1) if cards else bare.group(1) if bare else None
    answer = raised.group(1) if raised else bare.group(2) if bare else None
    return BeliefReply(
        holding=order["ABC".index(letter.upper())] if letter else None,
        raise_=YES_NO.index(answer.lower()) if answer else None,
    )


def parse_style(text: str, order: tuple[str, ...] = ("aggressive", "conservative")) -> str | None:
    """The one style word a reply affirms (not after a negation), else a reply of A or B alone."""
    if any(part in text for part in _PROMPT_PARTS):
        return None
    lower = text.lower().replace("\u2019", "'")
    negated = {match.start(1) for match in _NEGATED_STYLE.finditer(lower)}
    mentions = list(_STYLE_WORD.finditer(lower))
    affirmed = {match.group() for match in mentions if match.start() not in negated}
    if mentions:
        return affirmed.pop() if len(affirmed) == 1 else None
    letter = _BARE_STYLE_LETTER.match(text)
    return order["AB".index(letter.group(1))] if letter else None


@dataclass(frozen=True)
class BeliefResult:
    """A scored belief question; ``gold_letter`` is how the right option was shown."""

    question: str
    answer: int | None
    gold: int
    gold_letter: str = ""

    @property
    def correct(self) -> bool:
        """The answer equals the gold option."""
        return self.answer == self.gold


@dataclass(frozen=True)
class HandResult:
    """One finished hand; ``chips`` is what the model won (negative when it lost)."""

    hand_number: int
    model_cards: tuple[str, ...]
    opponent_cards: tuple[str, ...]
    board: tuple[str, ...]
    actions: tuple[TableAction, ...]
    chips: int
    beliefs: tuple[BeliefResult, ...]


@dataclass(frozen=True)
class MatchRecord:
    """A finished match and its scores (``style_answer`` ``None`` if unparseable)."""

    opponent_style: str
    hands: tuple[HandResult, ...]
    style_answer: str | None

    def scores(self) -> dict[str, float]:
        """Counts and totals for Inspect metrics (rates are ratios of these sums)."""
        model_actions = [a for hand in self.hands for a in hand.actions if a.seat == MODEL_SEAT]
        beliefs = {"belief": [b for hand in self.hands for b in hand.beliefs]}
        for question in ("holding", "raise"):
            beliefs[question] = [b for b in beliefs["belief"] if b.question == question]
        return {
            "style_correct": float(self.style_answer == self.opponent_style),
            "belief_correct": float(sum(b.correct for b in beliefs["belief"])),
            "belief_asked": float(len(beliefs["belief"])),
            "holding_asked": float(len(beliefs["holding"])),
            "raise_asked": float(len(beliefs["raise"])),
            "holding_correct": float(sum(b.correct for b in beliefs["holding"])),
            "raise_correct": float(sum(b.correct for b in beliefs["raise"])),
            "invalid_actions": float(sum(a.invalid for a in model_actions)),
            "model_actions": float(len(model_actions)),
            "chips": float(sum(hand.chips for hand in self.hands)),
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain-data form, for Inspect's store and logs."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRecord:
        """Rebuild a record from :meth:`to_dict` output."""
        hands = tuple(
            HandResult(
                **{
                    key: tuple(value) if isinstance(value, list) else value
                    for key, value in hand.items()
                }
                | {
                    "actions": tuple(TableAction(**action) for action in hand["actions"]),
                    "beliefs": tuple(BeliefResult(**belief) for belief in hand["beliefs"]),
                }
            )
            for hand in data["hands"]
        )
        return cls(data["opponent_style"], hands, data["style_answer"])


def _hand_news(hand: HandResult, total_chips: int) -> str:
    opponent_moves = [f"{a.action} ({a.stage})" for a in hand.actions if a.seat == OPPONENT_SEAT]
    last = hand.actions[-1]
    if last.action == "fold":
        ending = "You folded." if last.seat == MODEL_SEAT else "Your opponent folded."
    else:
        ending = (
            f"Showdown: your opponent showed {cards_words(hand.opponent_cards)}; "
            f"the board was {cards_words(hand.board)}."
        )
    result = "won" if hand.chips >= 0 else "lost"
    return (
        f"Hand {hand.hand_number} is over. {ending} Your opponent's actions this hand: "
        f"{', '.join(opponent_moves) or 'none'}. You {result} {abs(hand.chips)} "
        f"chip{'' if abs(hand.chips) == 1 else 's'} in this hand; your running total is "
        f"{total_chips:+d} chips."
    )


async def _model_action(
    conversation: Conversation, view: SeatView, show_table: bool
) -> TableAction:
    """Ask for an action (re-asking once); ``show_table`` repeats the table first."""
    legal = view.legal_actions
    prompt = ACTION_PROMPT.format(legal=", ".join(legal))
    reply = await conversation.ask(f"{view.describe()}\n{prompt}" if show_table else prompt)
    action = parse_action(reply, legal)
    if action is None:
        retry = REASK_PROMPT.format(reply=reply.strip()[:60], legal=", ".join(legal))
        action = parse_action(await conversation.ask(retry), legal)
    fallback = "check" if "check" in legal else "fold"  # rlcard's own
    return TableAction(MODEL_SEAT, view.stage, action or fallback, invalid=action is None)


async def _play_hand(
    env: Any,
    conversation: Conversation,
    opponent: Opponent,
    hand_number: int,
    hands: int,
    order: tuple[int, ...],
) -> HandResult:
    """Deal and play one hand; ``order`` is the holding class shown at each letter."""
    env.reset()
    small_blind_seat = 0 if env.game.players[0].in_chips < env.game.players[1].in_chips else 1
    actions: list[TableAction] = []
    belief_reply: BeliefReply | None = None
    asked_at = 0
    while not env.is_over():
        table = read_table(env, hand_number, hands, small_blind_seat, actions)
        if env.get_player_id() == OPPONENT_SEAT:
            choice = opponent.act(env.get_state(OPPONENT_SEAT))
            action = TableAction(OPPONENT_SEAT, table.stage, choice)
        else:
            view = table.view_as("model")
            first_decision = belief_reply is None
            if first_decision:
                asked_at = len(actions)
                shown = (HOLDING_OPTIONS[index] for index in order)
                question = f"{view.describe()}\n\n{BELIEF_PROMPT.format(*shown)}"
                belief_reply = parse_beliefs(await conversation.ask(question), order)
            action = await _model_action(conversation, view, show_table=not first_decision)
        actions.append(action)
        env.step(action.action, raw_action=True)
    table = read_table(env, hand_number, hands, small_blind_seat, actions)
    opponent_cards = table.hole_cards[OPPONENT_SEAT]
    beliefs: tuple[BeliefResult, ...] = ()
    if belief_reply is not None:
        later = actions[asked_at:]
        raised = any(a.seat == OPPONENT_SEAT and a.action == "raise" for a in later)
        gold = holding_class(opponent_cards)
        beliefs = (BeliefResult("holding", belief_reply.holding, gold, "ABC"[order.index(gold)]),)
        if later[0].action != "fold":
            answer = "yes" if raised else "no"
            beliefs += (BeliefResult("raise", belief_reply.raise_, YES_NO.index(answer), answer),)
    return HandResult(
        hand_number=hand_number,
        model_cards=table.hole_cards[MODEL_SEAT],
        opponent_cards=opponent_cards,
        board=table.board,
        actions=tuple(actions),
        chips=round(env.get_payoffs()[MODEL_SEAT] * BIG_BLIND),
        beliefs=beliefs,
    )


async def play_match(ask: Ask, opponent: Opponent, hands: int, seed: int) -> MatchRecord:
    """Play ``hands`` hands against ``opponent`` (seeded deal) and ask for its style."""
    env = make_env(seed)
    letters = random.Random(f"holdem-letters-{seed}")
    conversation = Conversation(ask)
    results: list[HandResult] = []
    for hand_number in range(1, hands + 1):
        order = tuple(letters.sample(range(len(HOLDING_OPTIONS)), len(HOLDING_OPTIONS)))
        results.append(await _play_hand(env, conversation, opponent, hand_number, hands, order))
        conversation.tell(_hand_news(results[-1], sum(hand.chips for hand in results)))
    styles = letters.sample(STYLE_OPTIONS, len(STYLE_OPTIONS))
    style_reply = await conversation.ask(
        STYLE_PROMPT.format(*(text for _, text in styles), hands=hands)
    )
    style = parse_style(style_reply, tuple(name for name, _ in styles))
    return MatchRecord(opponent.style, tuple(results), style)
