import hashlib
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from cog_tasks.common.provenance import DATA_PROVENANCE
from cog_tasks.common.scripted import run_chance_model
from cog_tasks.egosocial.inspect import egosocial_number_guessing
from cog_tasks.egosocial.inspect.chance import ChanceAnswerer
from cog_tasks.egosocial.number_guessing import (
    HIT_TOLERANCE,
    RULES_TEXT,
    CompletedRound,
    NumberGuessingGame,
    OpponentView,
    RoundReply,
    authors_rules,
    parse_round_reply,
    play_number_guessing,
    round_outcome,
)
from cog_tasks.egosocial.opponents.number_guessing import (
    LEVELS,
    OPENING_RANGE,
    REFERENCE_REPLIES,
    NumberGuessingOpponent,
    constant_reply_game,
    opening_number,
)


def play_scripted(level, replies, run, scripted_ask, rounds=10):
    opponent = NumberGuessingOpponent(level)
    ask = scripted_ask(replies)
    return run(play_number_guessing(ask, opponent.choose, level, rounds)), ask


def test_level_1_always_plays_50(run, scripted_ask):
    game, _ = play_scripted(1, ["Prediction: 50; Choice: 40"], run, scripted_ask)
    assert [r.opponent_number for r in game.completed] == [50] * 10


def test_level_2_is_the_arithmetic_sequence(run, scripted_ask):
    game, _ = play_scripted(2, ["Prediction: 1; Choice: 1"], run, scripted_ask)
    assert [r.opponent_number for r in game.completed] == [50, 45, 40, 35, 30, 25, 20, 15, 10, 5]
    # past round 10 the sequence would reach 0; the opponent stays at the lowest legal number
    assert NumberGuessingOpponent(2).choose(OpponentView(11, (), ())) == 1


def test_level_3_follows_the_previous_target_of_a_scripted_model(run, scripted_ask):
    # Model numbers 30, 60, 10, 99; hand-worked (the target rounded down, as the authors'
    # integer-only opponent): r1 50, r2 0.4*(30+50) = 32, r3 0.4*(60+32) = 36.8 -> 36,
    # r4 0.4*(10+36) = 18.4 -> 18.
    replies = [f"Prediction: 50; Choice: {n}" for n in (30, 60, 10, 99)]
    game, _ = play_scripted(3, replies, run, scripted_ask, rounds=4)
    assert [r.opponent_number for r in game.completed] == [50, 32, 36, 18]
    assert [r.model_number for r in game.completed] == [30, 60, 10, 99]


def test_accuracy_on_scripted_guesses_matches_hand_worked_values(run, scripted_ask):
    level1 = [f"Prediction: {p}; Choice: 40" for p in (50, 50, 40, 50, 50, 50, 50, 50, 60, 50)]
    assert play_scripted(1, level1, run, scripted_ask)[0].accuracy() == pytest.approx(0.8)

    # gold 50, 45, 40, ..., 5: rounds 3, 5 and 9 are missed
    level2 = [f"Prediction: {p}; Choice: 10" for p in (50, 45, 41, 35, 50, 25, 20, 15, 12, 5)]
    assert play_scripted(2, level2, run, scripted_ask)[0].accuracy() == pytest.approx(0.7)

    # Level 3 with a model that always plays 20 and predicts the previous target rounded
    # down: opponent 50, 28, 19 (19.2), 15 (15.6), 14 (0.4 * (20 + previous)).
    predictions = (50, 28, 19, 15, 14)
    level3 = [f"Prediction: {p}; Choice: 20" for p in predictions]
    game, _ = play_scripted(3, level3, run, scripted_ask, rounds=5)
    assert [r.opponent_number for r in game.completed] == [50, 28, 19, 15, 14]
    assert game.accuracy() == 1.0


def test_history_reaches_the_model_and_predictions_stay_private(run, scripted_ask):
    game, ask = play_scripted(1, ["Prediction: 77; Choice: 40"], run, scripted_ask, rounds=3)
    assert ask.questions[0].startswith("Round 1 of 3")
    assert ask.questions[1].startswith("Round 1 result: your opponent chose 50, you chose 40")
    view = game.view_as("opponent")
    assert view == OpponentView(round=4, model_numbers=(40, 40, 40), own_numbers=(50, 50, 50))
    assert 77 not in view.model_numbers
    model_view = game.view_as("model")
    assert model_view.history == ((40, 50, "model"),) * 3 and model_view.round == 4


def test_invalid_replies_are_wrong_and_counted(run, scripted_ask):
    game, _ = play_scripted(
        1, ["I like turtles", "Prediction: 50; Choice: 400", "Prediction: 50"], run, scripted_ask, 3
    )
    assert [r.invalid for r in game.completed] == [True, True, True]
    assert [r.model_number for r in game.completed] == [50, 50, 50]  # the fallback
    assert game.accuracy() == 0.0  # an invalid reply never scores a hit, even "Prediction: 50"
    assert game.invalid_rate() == 1.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Prediction: 45; Choice: 36", RoundReply(45, 36)),
        ("prediction=45, choice = 36.", RoundReply(45, 36)),
        ("45; 36", RoundReply(45, 36)),
        ("45 and 36.", RoundReply(45, 36)),
        # Numbers in other text are never read: a guess, or the prompt echoed back.
        ("I think 45 and I pick 36", RoundReply(None, None)),
        ("Round 2 of 5. Which number will your opponent choose", RoundReply(None, None)),
        ("Round 1 result: your opponent chose 20, you chose", RoundReply(None, None)),
        ("Choice: 12", RoundReply(None, 12)),
        ("no idea", RoundReply(None, None)),
        ("Prediction: 7.5; Choice: 12.25", RoundReply(7.5, 12.25)),
        ("Prediction: 45.0; Choice: 3", RoundReply(45, 3)),
        ("20.8, 9.6", RoundReply(20.8, 9.6)),
        ("I guess 20.8, I play 9.6", RoundReply(None, None)),
        # issue 39: a hedge, a range or other notation is no number
        ("Prediction: 40 or 45; Choice: 30", RoundReply(None, 30)),
        ("Prediction: 40-45; Choice: 30", RoundReply(None, 30)),
        ("Prediction: 40 to 45; Choice: 2", RoundReply(None, 2)),
        ("Prediction: 40, 45; Choice: 2", RoundReply(None, 2)),
        ("40-45", RoundReply(None, None)),
        ("Prediction: 1e2; Choice: 3", RoundReply(None, 3)),
        ("Prediction: 40. Choice: 30.", RoundReply(40, 30)),
        # a label given two different numbers gives none; the same number twice is read
        ("Prediction: 40; Choice: 30\nPrediction: 45; Choice: 30", RoundReply(None, 30)),
        ("Prediction: 40; Choice: 30\nPrediction: 40.0; Choice: 30", RoundReply(40, 30)),
    ],
)
def test_parse_round_reply(text, expected):
    assert parse_round_reply(text) == expected


def test_round_outcome_uses_exact_arithmetic():
    assert round_outcome(30, 50) == "model"  # target 32
    assert round_outcome(50, 30) == "opponent"
    assert round_outcome(40, 40) == "tie"
    assert round_outcome(1, 100) == "model"  # target 40.4


def test_game_round_trips_through_plain_data(run, scripted_ask):
    game, _ = play_scripted(3, ["Prediction: 50; Choice: 30"], run, scripted_ask, rounds=3)
    assert NumberGuessingGame.from_dict(game.to_dict()) == game
    with pytest.raises(ValueError, match="already had its 3 rounds"):
        game.play_round(RoundReply(1, 1), 50)


@pytest.mark.slow
def test_inspect_task_scores_a_scripted_model(tmp_path: Path, scripted_model) -> None:
    # Level 3 over 3 rounds; model plays 30, 60, 10 -> opponent 50, 32, 36 (36.8 rounded down).
    replies = [f"Prediction: {p}; Choice: {c}" for p, c in ((50, 30), (40, 60), (36, 10))]
    [log] = inspect_eval(
        egosocial_number_guessing(level=3, rounds=3),
        model=scripted_model(replies),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    score = sample.scores["number_guessing_scorer"]
    assert score.value["accuracy"] == pytest.approx(2 / 3)
    assert score.explanation == "opponent: 50 32 36"
    metrics = log.results.scores[0].metrics
    assert metrics["number_guessing_hit_rate_L3"].value == pytest.approx(2 / 3)
    hit_rate = "number_guessing_hit_rate"
    assert metrics[hit_rate].value == pytest.approx(2 / 3)  # one game: n = 1, not 3 rounds
    # One game says nothing about sampling variation: no interval, not a point.
    assert f"{hit_rate}_ci_low" not in metrics and f"{hit_rate}_ci_high" not in metrics
    assert metrics[f"{hit_rate}_n"].value == 1
    assert not any(math.isnan(metric.value) for metric in metrics.values())
    user_turns = [m.text for m in sample.messages if m.role == "user"]
    assert len(user_turns) == 3 and "Round 2 result" in user_turns[2]


@pytest.mark.slow
def test_smollm2_plays_a_short_game(tmp_path: Path, smollm2_path: Path) -> None:
    [log] = inspect_eval(
        egosocial_number_guessing(level=2, rounds=2),
        model="hf/smollm2",
        model_args={"model_path": str(smollm2_path), "do_sample": False},
        max_connections=1,  # batch size 1: Inspect's hf queue then skips its 2 s wait
        log_dir=str(tmp_path),
        max_tokens=12,
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    rounds = sample.scores["number_guessing_scorer"].metadata["completed"]
    assert [r["opponent_number"] for r in rounds] == [50, 45]
    assert sum(m.role == "assistant" for m in sample.messages) == 2
    assert 0.0 <= sample.scores["number_guessing_scorer"].value["accuracy"] <= 1.0


def test_unknown_level_is_refused_when_the_task_is_built():
    with pytest.raises(ValueError, match="level must be one of 1, 2, 3; got 4"):
        egosocial_number_guessing(level=4)


def test_level_3_plays_whole_numbers_so_a_perfect_predictor_hits_every_round(run, scripted_ask):
    # Model plays 2, 9, 30: opponent 50, 0.4*(2+50) = 20.8 -> 20, 0.4*(9+20) = 11.6 -> 11.
    replies = [f"Prediction: {p}; Choice: {c}" for p, c in ((50, 2), (20, 9), (11, 30))]
    game = run(play_number_guessing(scripted_ask(replies), NumberGuessingOpponent(3).choose, 3, 3))
    assert [r.opponent_number for r in game.completed] == [50, 20, 11]
    assert all(isinstance(r.opponent_number, int) for r in game.completed)
    assert game.accuracy() == 1.0 and game.invalid_rate() == 0.0
    # a decimal is no legal pick: the reply is invalid and never hits
    decimal = run(
        play_number_guessing(
            scripted_ask(["Prediction: 50.0; Choice: 2.5"]), NumberGuessingOpponent(1).choose, 1, 1
        )
    )
    assert decimal.completed[0].invalid and decimal.accuracy() == 0.0


def test_hit_tolerance_is_below_one_step_of_whole_numbers():
    assert HIT_TOLERANCE < 1 and "exactly the opponent's number" in RULES_TEXT

    def played(prediction):
        return CompletedRound(1, 20.8, prediction, 10, False, "model")

    assert played(20.85).correct and played(20.75).correct
    assert not played(20.86).correct and not played(21).correct and not played(None).correct


@pytest.mark.parametrize("rounds", [0, -2])
def test_rounds_below_one_fail_when_the_task_is_built(rounds):
    message = f"rounds must be an integer >= 1 and <= 100, got {rounds}"
    with pytest.raises(ValueError, match=message):
        egosocial_number_guessing(rounds=rounds)


def test_in_two_player_play_the_lower_number_always_wins() -> None:
    # 0.8 x the average of two numbers is nearer the lower one: checked on every integer pair.
    outcomes = {
        (a < b, round_outcome(a, b)) for a in range(1, 101) for b in range(1, 101) if a != b
    }
    assert outcomes == {(True, "model"), (False, "opponent")}


def test_constant_reply_reference_games() -> None:
    def rows(name: str) -> list[tuple[float, float]]:
        reply = REFERENCE_REPLIES[name]
        games = [constant_reply_game(reply, level) for level in LEVELS]
        return [(game.accuracy(), game.win_rate()) for game in games]

    # a constant prediction of 50 hits every Level 1 round and the first of Levels 2 and 3
    assert rows("constant prediction 50") == [(1.0, 0.0), (0.1, 0.0), (0.1, 0.0)]
    # the lowest choice wins every round on Levels 1 and 2; on Level 3 it ties once the
    # opponent reaches 1 (50, 20, 8, 3, then 1)
    assert rows("constant lowest choice") == [(1.0, 1.0), (0.1, 1.0), (0.1, 0.4)]


def test_games_make_separate_samples_with_their_own_prompts() -> None:
    task = egosocial_number_guessing(level=2, rounds=3, games=3)
    ids = [sample.id for sample in task.dataset]
    assert ids == ["number_guessing-L2-g0", "number_guessing-L2-g1", "number_guessing-L2-g2"]
    prompts = [sample.input[0].text for sample in task.dataset]
    assert len(set(prompts)) == 3 and prompts[1].endswith("This is game 2 of 3.")
    assert egosocial_number_guessing(level=2).dataset[0].input[0].text == RULES_TEXT.format(
        rounds=10
    )
    with pytest.raises(ValueError, match="games"):
        egosocial_number_guessing(games=0)


def test_each_game_after_the_first_has_its_own_seeded_opening(run, scripted_ask) -> None:
    task = egosocial_number_guessing(rounds=3, games=6)
    openings = {
        (s.metadata["level"], s.metadata["game"]): s.metadata["opening"] for s in task.dataset
    }
    assert all(openings[(level, 0)] == 50 for level in LEVELS)  # the paper's opponents
    assert openings == {key: opening_number(*key) for key in openings}  # the same every run
    low, high = OPENING_RANGE
    assert all(low <= number <= high for number in openings.values())
    for level in LEVELS:
        # a deterministic player (the same reply every round) now plays different games
        games = {
            tuple(
                r.opponent_number
                for r in run(
                    play_number_guessing(
                        scripted_ask(["Prediction: 40; Choice: 30"]),
                        NumberGuessingOpponent(level, opening=openings[(level, game)]).choose,
                        level,
                        3,
                    )
                ).completed
            )
            for game in range(6)
        }
        assert len(games) == len({openings[(level, game)] for game in range(6)}) >= 4


@pytest.mark.slow
def test_games_give_intervals_over_games_in_the_log(tmp_path: Path) -> None:
    log = run_chance_model(
        egosocial_number_guessing(level=3, rounds=3, games=10),
        ChanceAnswerer(seed=0),
        str(tmp_path),
    )
    metrics = log.results.scores[0].metrics
    values = [s.scores["number_guessing_scorer"].value["win_rate"] for s in log.samples]
    assert len(values) == 10 and len({s.id for s in log.samples}) == 10
    assert metrics["win_rate level:3"].value == pytest.approx(sum(values) / 10)
    # ten games (SMALL_N): the hit rate (the headline) and the win rate have intervals over games
    for name in ("number_guessing_hit_rate", "win_rate"):
        assert metrics[f"{name}_n"].value == 10
        low, high = metrics[f"{name}_ci_low"].value, metrics[f"{name}_ci_high"].value
        assert not math.isnan(low) and low <= metrics[name].value <= high and low < high


# Invented stand-ins for the authors' interactive/reasoning_player.py and main.py (their
# text is never committed): the same classes, attributes and assignments, other words.
FAKE_GAME_FILE = """
class Player:
    GAME_SETTING = "not this class"


class AgentPlayer(Player):
    GAME_SETTING = "An old rule text."
    GAME_SETTING = ("Invented rules: two of you, Jack and you, pick whole numbers. "
                    "The one nearer 0.8 of the mean keeps health.")
    GAME_EXAMPLE = "Invented example: everyone starts with 10 health."
    INQUIRY = "Hello {name}, round {round}, health {hp}. Say Jack's number and yours."
"""
FAKE_MAIN_FILE = """
def main(args):
    PERSONA_A = "Invented persona: you are John. "
    PERSONA_B = "Invented persona: you are Jack. "
"""


@pytest.fixture
def authors_game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data root holding the invented game files; downloads are switched off."""
    folder = tmp_path / "egosocial" / "interactive"
    folder.mkdir(parents=True)
    (folder / "reasoning_player.py").write_text(FAKE_GAME_FILE, encoding="utf-8")
    (folder / "main.py").write_text(FAKE_MAIN_FILE, encoding="utf-8")
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return folder / "reasoning_player.py"


def test_the_authors_game_is_read_from_their_files(authors_game_file: Path) -> None:
    task = egosocial_number_guessing(level=1, rules="authors")
    system = task.dataset[0].input[0].text
    # their persona, then their rules; their unsent example is not sent either
    assert system.startswith("Invented persona: you are John. Invented rules: two of you")
    assert "example" not in system and "Jack. " not in system
    assert "An old rule text" not in system and "not this class" not in system
    assert task.dataset[0].metadata["rules"] == "authors"
    # both files' SHA-256 are in the run's data provenance
    files = task.metadata[DATA_PROVENANCE]["files"]
    assert {f["path"] for f in files} == {"interactive/main.py", "interactive/reasoning_player.py"}
    main = authors_game_file.with_name("main.py").read_bytes()
    assert hashlib.sha256(main).hexdigest() in {f["sha256"] for f in files}
    assert egosocial_number_guessing(level=1).dataset[0].input[0].text == RULES_TEXT.format(
        rounds=10
    )  # ours stays the default, with no data file read
    assert DATA_PROVENANCE not in egosocial_number_guessing(level=1).metadata


def test_the_authors_game_asks_with_health_and_takes_whole_numbers(
    run, scripted_ask, authors_game_file: Path
) -> None:
    ask = scripted_ask([f"Prediction: 50; Choice: {choice}" for choice in ("60", "20.5", "1")])
    game = run(play_number_guessing(ask, NumberGuessingOpponent(1).choose, 1, 3, authors_rules()))
    questions = ask.questions
    assert questions[0].startswith("Hello John, round 1, health 10.")
    assert questions[0].endswith("Prediction: <number>; Choice: <number>")
    # round 1: 60 loses to 50, so the model has 9 points and the opponent 10
    assert "Health points after this round: you 9, your opponent 10." in questions[1]
    assert "Hello John, round 2, health 9." in questions[1]
    # a decimal is not a legal pick here: invalid, played as 50 (a tie: both lose a point)
    assert [r.invalid for r in game.completed] == [False, True, False]
    assert game.completed[1].model_number == 50 and game.completed[1].prediction is None
    assert "you 8, your opponent 9" in questions[2]
    assert game.health() == (2, 2) and game.to_dict()["integers"]
    assert NumberGuessingGame.from_dict(game.to_dict()) == game


@pytest.mark.slow
def test_the_authors_game_sends_questions_and_results_as_system_messages(
    tmp_path: Path, scripted_model, authors_game_file: Path
) -> None:
    [log] = inspect_eval(
        egosocial_number_guessing(level=3, rounds=2, rules="authors"),
        model=scripted_model(["Prediction: 50; Choice: 30"] * 2),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    roles = [m.role for m in log.samples[0].messages]
    # persona and rules, question 1, reply, result, question 2, reply, result: no user turn
    assert roles == ["system", "system", "assistant", "system", "system", "assistant", "system"]
    texts = [m.text for m in log.samples[0].messages]
    assert texts[1].startswith("Hello John, round 1, health 10.")
    assert texts[3].startswith("Round 1 result: your opponent chose 50, you chose 30")
    assert texts[4].startswith("Hello John, round 2, health 10.")
    # the Level 3 opponent plays whole numbers: 0.4 * (30 + 50) = 32
    assert log.samples[0].scores["number_guessing_scorer"].explanation == "opponent: 50 32"


def test_a_missing_or_foreign_authors_game_file_is_one_clear_error(
    authors_game_file: Path,
) -> None:
    authors_game_file.write_text("class AgentPlayer:\n    INQUIRY = 'round {round}'\n")
    with pytest.raises(ValueError, match="reasoning_player.py: AgentPlayer has no string"):
        egosocial_number_guessing(rules="authors")
    authors_game_file.unlink()
    with pytest.raises(ValueError, match="could not fetch .*interactive/reasoning_player.py"):
        egosocial_number_guessing(rules="authors")
    with pytest.raises(ValueError, match="rules"):
        egosocial_number_guessing(rules="theirs")


@pytest.mark.slow
def test_the_authors_game_runs_in_inspect_and_reports(
    tmp_path: Path, scripted_model, authors_game_file: Path
) -> None:
    from cog_tasks.egosocial.inspect.report import build_report

    [log] = inspect_eval(
        egosocial_number_guessing(level=1, rounds=2, rules="authors"),
        model=scripted_model(["Prediction: 50; Choice: 49.5", "Prediction: 50; Choice: 1"]),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    system_turns = [m.text for m in sample.messages if m.role == "system"]
    assert system_turns[1].startswith("Hello John, round 1, health 10.")
    assert "you 9, your opponent 9" in system_turns[2]  # 49.5 is no whole number: 50, a tie
    value = sample.scores["number_guessing_scorer"].value
    assert (value["invalid_rate"], value["win_rate"], value["accuracy"]) == (0.5, 0.5, 0.5)
    cells = {(c.row.split(" · ")[-1], c.column): c for c in build_report([log]).cells}
    assert cells[("constant lowest choice", "win rate")].interval().value == 1.0
