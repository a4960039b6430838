import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from cog_tasks.egosocial.holdem import (
    ACTIONS,
    BeliefReply,
    HoldemTable,
    MatchRecord,
    TableAction,
    holding_class,
    make_env,
    parse_action,
    parse_beliefs,
    parse_style,
    play_match,
)
from cog_tasks.egosocial.inspect import egosocial_holdem
from cog_tasks.egosocial.opponents.holdem_dqn import (
    STYLES,
    FixedPlayer,
    ShapedReward,
    TrainingConfig,
    expected_sha256,
    load_opponent,
    measure_action_rates,
    opponent_from_agent,
    sha256_of,
    shipped_weights_dir,
    train_agent,
)


def test_shipped_weights_load_with_matching_hash() -> None:
    directory = shipped_weights_dir()
    record = json.loads((directory / "training.json").read_text())
    assert record["command"].startswith("cog-tasks egosocial train-opponents --seed ")
    assert record["config"]["seed"] == int(record["command"].split("--seed ")[1].split()[0])
    for style in STYLES:
        path = directory / f"dqn_{style}.pt"
        assert path.stat().st_size < 1_000_000
        assert sha256_of(path) == expected_sha256(path) == record["opponents"][style]["sha256"]
        opponent = load_opponent(style)
        assert opponent.style == style


def test_tampered_weights_are_refused(tmp_path: Path) -> None:
    source = shipped_weights_dir() / "dqn_aggressive.pt"
    shutil.copy(source, tmp_path / source.name)
    shutil.copy(source.with_name(source.name + ".sha256"), tmp_path)
    load_opponent("aggressive", tmp_path)  # an intact copy loads
    data = bytearray((tmp_path / source.name).read_bytes())
    data[-20] ^= 0xFF
    (tmp_path / source.name).write_bytes(bytes(data))
    with pytest.raises(ValueError, match="does not match the recorded"):
        load_opponent("aggressive", tmp_path)
    with pytest.raises(FileNotFoundError, match="train-opponents"):
        load_opponent("conservative", tmp_path)


def test_shaped_rewards_give_different_raise_rates_after_short_training() -> None:
    config = TrainingConfig(
        seed=3,
        episodes=300,
        replay_memory_init_size=100,
        epsilon_decay_steps=500,
        update_target_every=100,
    )
    rates = {
        style: measure_action_rates(opponent_from_agent(style, train_agent(style, config)), 150, 7)
        for style in STYLES
    }
    assert rates["aggressive"].rate("raise") > rates["conservative"].rate("raise") + 0.2
    assert rates["conservative"].rate("fold") > rates["aggressive"].rate("fold") + 0.2


def test_training_partners_are_drawn_per_hand_and_checked() -> None:
    caller, raiser = FixedPlayer(("check", "call")), FixedPlayer(("raise", "call", "check"))
    env = make_env(1)
    state, _ = env.reset()
    assert caller.eval_step(state)[0] == ACTIONS.index("call")  # nothing to check: it calls
    assert raiser.step(state) == ACTIONS.index("raise")
    config = TrainingConfig(
        seed=1, episodes=60, replay_memory_init_size=50, partners=("caller", "raiser")
    )
    shaped = ShapedReward({"fold": 0.5})
    assert opponent_from_agent("conservative", train_agent("conservative", config, shaped))
    with pytest.raises(ValueError, match="training partners \\['shark'\\]"):
        TrainingConfig(partners=("random", "shark"))


def test_shipped_opponents_play_their_styles() -> None:
    rates = {style: measure_action_rates(load_opponent(style), 200, 11) for style in STYLES}
    assert rates["aggressive"].rate("raise") > rates["conservative"].rate("raise")
    assert rates["conservative"].rate("fold") > rates["aggressive"].rate("fold")


@pytest.mark.parametrize(
    ("cards", "expected"),
    [(("S7", "H7"), 0), (("SA", "DK"), 0), (("ST", "H2"), 1), (("C9", "H2"), 2), (("CQ", "C3"), 1)],
)
def test_holding_class(cards, expected):
    assert holding_class(cards) == expected


@pytest.mark.parametrize(
    ("text", "legal", "expected"),
    [
        ("raise", ("call", "raise", "fold"), "raise"),
        ("I will Call.", ("call", "raise", "fold"), "call"),
        ("Action: check", ("raise", "fold", "check"), "check"),
        ("I bet", ("raise", "fold", "check"), "raise"),
        ("check", ("call", "raise", "fold"), None),
        ("hmm, tough spot", ("call", "fold"), None),
        # Several actions named, or the prompt repeated: no action is read.
        ("call, raise, fold", ("call", "raise", "fold"), None),
        ("I could call or fold", ("call", "fold"), None),
        ("assistant: Legal actions: call, raise, fold. Reply with one", ("call", "fold"), None),
        # A negated action is no action; the labelled form is still read.
        ("I will not fold.", ("call", "raise", "fold"), None),
        ("Don\u2019t call", ("call", "raise", "fold"), None),
        ("No doubt. Action: call", ("call", "raise", "fold"), "call"),
        # issue 39: common verb forms name their action; past forms are no action
        ("Calling.", ("call", "raise", "fold"), "call"),
        ("Raising", ("call", "raise", "fold"), "raise"),
        ("I'm calling", ("call", "raise", "fold"), "call"),
        ("I’m raising.", ("call", "raise", "fold"), "raise"),
        ("Checking.", ("raise", "fold", "check"), "check"),
        ("Action: folding", ("call", "raise", "fold"), "fold"),
        ("They raised, so I call.", ("call", "raise", "fold"), "call"),
        ("Calling or folding", ("call", "raise", "fold"), None),
    ],
)
def test_parse_action(text, legal, expected):
    assert parse_action(text, legal) == expected


def test_parse_beliefs_and_style():
    assert parse_beliefs("Cards: B; Raise: yes") == BeliefReply(1, 0)
    assert parse_beliefs("C, no") == BeliefReply(2, 1)
    assert parse_beliefs("I cannot tell") == BeliefReply(None, None)
    assert parse_beliefs("B") == BeliefReply(1, None)
    # Letters and yes/no inside other text are not read.
    assert parse_beliefs("A pair of kings, no doubt") == BeliefReply(None, None)
    assert parse_beliefs("Chips: <A, B or C>; Raise: <yes or no>") == BeliefReply(None, None)
    assert parse_style("B") == "conservative"
    assert parse_style("A conservative player") == "conservative"
    assert parse_style("aggressive") == "aggressive"
    assert parse_style("not sure") is None
    assert parse_style("A tough one to call") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # issue 39: the reply template without its brackets answers nothing
        ("Cards: A, B or C; Raise: yes or no", BeliefReply(None, None)),
        ("Cards: A or B; Raise: no", BeliefReply(None, 1)),
        ("Cards: C; Raise: yes/no", BeliefReply(2, None)),
        # no letter or yes/no from prose
        ("I'd discard a few.", BeliefReply(None, None)),
        ("Cards: a pair, I guess; Raise: no", BeliefReply(None, 1)),
        ("I will raise no matter what", BeliefReply(None, None)),
        # the labelled form with emphasis and case
        ("**Cards:** C\n**Raise:** no", BeliefReply(2, 1)),
        ("cards = (b), raise = YES", BeliefReply(1, 0)),
        ("Cards: B. Raise: yes", BeliefReply(1, 0)),
    ],
)
def test_belief_replies_are_never_guessed(text: str, expected: BeliefReply) -> None:
    assert parse_beliefs(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Not aggressive.", None),
        ("It is conservative, not aggressive.", "conservative"),
        ("Aggressive, never conservative", "aggressive"),
        ("I don't think it is aggressive", None),
        ("It isn’t very conservative", None),
        ("A) aggressive: raises and calls a lot\nB) conservative", None),
        ("aggressive", "aggressive"),
    ],
)
def test_negation_is_applied_to_style_answers(text: str, expected: str | None) -> None:
    assert parse_style(text) == expected


def test_the_bracketless_template_scores_no_belief_in_a_match(run):
    async def ask(question: str) -> str:
        if "Cards: <A, B or C>" in question:
            return "Cards: A, B or C; Raise: yes or no"
        if "Legal actions" in question:
            return "call" if "call" in question.rsplit("Legal actions:", 1)[-1] else "check"
        return "A or B"

    record = run(play_match(ask, load_opponent("aggressive"), hands=5, seed=0))
    scores = record.scores()
    assert scores["raise_asked"] > 0 and scores["holding_asked"] > 0
    assert scores["belief_correct"] == 0 and record.style_answer is None


def test_views_hide_the_other_seats_cards():
    table = HoldemTable(
        hand_number=1,
        hands=2,
        stage="flop",
        hole_cards=(("SA", "SK"), ("H2", "D7")),
        board=("C3", "C4", "C5"),
        chips_in=(4, 4),
        small_blind_seat=1,
        actions=(TableAction(1, "preflop", "call"), TableAction(0, "preflop", "check")),
        legal_actions=("raise", "fold", "check"),
    )
    model, opponent = table.view_as("model"), table.view_as("opponent")
    assert model.own_cards == ("SA", "SK") and "ace of spades" in model.describe()
    assert "2 of hearts" not in model.describe() and "7 of diamonds" not in model.describe()
    assert opponent.own_cards == ("H2", "D7") and "ace of spades" not in opponent.describe()
    assert model.position == "big blind" and opponent.position == "small blind"
    assert model.history == ("your opponent called (preflop)", "you checked (preflop)")
    with pytest.raises(ValueError, match="unknown player"):
        table.view_as("dealer")


def test_invalid_actions_are_reasked_once_then_defaulted(run, scripted_ask):
    ask = scripted_ask(["Cards: A; Raise: no", "banana"])
    record = run(play_match(ask, load_opponent("aggressive"), hands=3, seed=5))
    scores = record.scores()
    assert scores["model_actions"] > 0
    assert scores["invalid_actions"] == scores["model_actions"]
    model_actions = [a for h in record.hands for a in h.actions if a.seat == 0]
    assert all(a.action in ("check", "fold") for a in model_actions)
    reasks = [q for q in ask.questions if "is not one of the legal actions" in q]
    assert len(reasks) == len(model_actions)
    assert record.style_answer is None and scores["style_correct"] == 0.0
    assert MatchRecord.from_dict(record.to_dict()) == record


def test_belief_answers_are_checked_against_the_hand(run):
    async def ask(question: str) -> str:
        if "Cards: <A, B or C>" in question:
            return "Cards: B; Raise: yes"
        return "check" if "check" in question.rsplit("Legal actions:", 1)[-1] else "call"

    record = run(play_match(ask, load_opponent("aggressive"), hands=4, seed=2))
    assert record.scores()["invalid_actions"] == 0
    asked = [hand for hand in record.hands if hand.beliefs]
    assert asked
    for hand in asked:
        holding, raised = hand.beliefs  # the model never folds first here: both are scored
        assert holding.gold == holding_class(hand.opponent_cards)
        assert holding.correct == (holding.gold_letter == "B")  # letters are shuffled per hand
        assert raised.answer == 0
    assert sum(hand.chips for hand in record.hands) == record.scores()["chips"]


def test_letters_are_shuffled_per_hand_and_echoes_answer_nothing(run):
    questions: list[str] = []

    async def ask(question: str) -> str:
        questions.append(question)
        if "Legal actions" in question:
            return "call" if "call" in question.rsplit("Legal actions:", 1)[-1] else "check"
        return question  # an echoed prompt

    record = run(play_match(ask, load_opponent("aggressive"), hands=12, seed=1))
    letters = {
        b.gold_letter for hand in record.hands for b in hand.beliefs if b.question == "holding"
    }
    assert len(letters) > 1
    assert all(b.answer is None for hand in record.hands for b in hand.beliefs)
    assert record.style_answer is None
    assert parse_style("A") in ("aggressive", "conservative")
    assert parse_beliefs("Cards: A; Raise: no", (2, 0, 1)) == BeliefReply(2, 1)


def test_raise_is_not_scored_after_the_models_own_fold(run):
    async def ask(question: str) -> str:
        if "Cards: <A, B or C>" in question:
            return "Cards: A; Raise: no"
        return "fold" if "fold" in question.rsplit("Legal actions:", 1)[-1] else "check"

    record = run(play_match(ask, load_opponent("aggressive"), hands=6, seed=3))
    for hand in record.hands:
        first = next((a for a in hand.actions if a.seat == 0), None)
        if first is not None and first.action == "fold":
            assert [b.question for b in hand.beliefs] == ["holding"]
    assert record.scores()["raise_asked"] < record.scores()["holding_asked"]


def test_the_opponent_never_folds_when_checking_is_free():
    opponent = load_opponent("conservative")
    env = make_env(0)
    checked_free, folded_free = 0, 0
    for _ in range(300):
        env.reset()
        while not env.is_over():
            seat = env.get_player_id()
            state = env.get_state(seat)
            legal = list(env.game.get_legal_actions())
            action = opponent.act(state)
            if "check" in legal:
                checked_free += 1
                folded_free += action == "fold"
            env.step(action, raw_action=True)
    assert checked_free > 0 and folded_free == 0


def test_rlcard_lets_the_small_blind_act_first_after_the_flop():
    # Heads-up rules have the big blind act first after the flop; rlcard 1.2's
    # limit hold'em starts every later round with the small blind. This is rlcard's
    # order, kept (the DQN opponents were trained on it) and named in docs/games.md.
    env = make_env(4)
    env.reset()
    small_blind = 0 if env.game.players[0].in_chips < env.game.players[1].in_chips else 1
    assert env.get_player_id() == small_blind
    env.step("call", raw_action=True)
    env.step("check", raw_action=True)
    assert env.game.round_counter == 1
    assert env.get_player_id() == small_blind


@pytest.mark.slow
def test_inspect_task_scores_a_scripted_model(tmp_path: Path, scripted_model) -> None:
    replies = ["Cards: C; Raise: no"] + ["call"] * 40
    [log] = inspect_eval(
        egosocial_holdem(opponent="conservative", hands=2),
        model=scripted_model(iter(replies)),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    assert sample.messages[-1].role == "assistant"
    assert "play style" in sample.messages[-2].text
    metrics = log.results.scores[0].metrics
    assert metrics["style_correct_conservative"].value == 0.0  # "call" names no style
    assert {"holdem_belief_accuracy", "invalid_action_rate", "chips_conservative"} <= set(metrics)
    # one match is below SMALL_N: its count is logged, no interval (never a NaN)
    assert metrics["holdem_belief_accuracy_n"].value == 1
    assert not {k for k in metrics if k.endswith(("_stderr", "_ci_low", "_ci_high"))}


@pytest.mark.slow
def test_smollm2_plays_one_hand(tmp_path: Path, smollm2_path: Path) -> None:
    [log] = inspect_eval(
        egosocial_holdem(opponent="aggressive", hands=1),
        model="hf/smollm2",
        model_args={"model_path": str(smollm2_path), "do_sample": False},
        max_connections=1,  # batch size 1: Inspect's hf queue then skips its 2 s wait
        log_dir=str(tmp_path),
        max_tokens=10,
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    value = sample.scores["holdem_scorer"].value
    assert value["model_actions"] >= 1
    assert 0 <= value["invalid_actions"] <= value["model_actions"]
    assert sample.scores["holdem_scorer"].metadata["opponent_style"] == "aggressive"


def test_unknown_opponent_is_refused_when_the_task_is_built():
    with pytest.raises(
        ValueError, match="opponent must be one of aggressive, conservative; got 'reckless'"
    ):
        egosocial_holdem(opponent="reckless")


@pytest.mark.parametrize(("hands", "matches", "name"), [(0, 1, "hands"), (2, 0, "matches")])
def test_hands_and_matches_below_one_fail_when_the_task_is_built(hands, matches, name):
    with pytest.raises(ValueError, match=f"{name} must be an integer >= 1"):
        egosocial_holdem(hands=hands, matches=matches)
