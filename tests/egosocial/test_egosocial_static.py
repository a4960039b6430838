from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, GenerateConfig, get_model

from cog_tasks.common.scripted import ScriptedReplies
from cog_tasks.egosocial.blackjack import (
    PROBABILITY_BANDS,
    basic_strategy,
    dealer_reaches_17,
    generate_blackjack,
    hand_value,
    probability_band,
)
from cog_tasks.egosocial.counterfactual import (
    REVERSED_BEATS,
    generate_counterfactual,
    winner,
    winning_move,
)
from cog_tasks.egosocial.daily_life import (
    Enter,
    Exit,
    Move,
    Seen,
    generate_daily_life,
    replay,
)
from cog_tasks.egosocial.inspect import egosocial_static
from cog_tasks.egosocial.inspect.static import record_to_sample
from cog_tasks.egosocial.new_world import all_norm_questions, generate_new_world
from cog_tasks.egosocial.records import parse_choice_letter
from cog_tasks.egosocial.static import build_static_items
from cog_tasks.egosocial.tomi import ToMiRecord, convert_record, read_tomi_file, to_second_person


def test_belief_tracker_on_a_classic_false_belief_story():
    events = [
        Enter("Ann"),
        Enter("Bob"),
        Seen("basket"),
        Exit("Ann"),
        Move("Bob", "box"),
        Exit("Bob"),
        Enter("Ann"),
        Move("Ann", "drawer"),
    ]
    tracker = replay(events)
    assert tracker.location == "drawer" and tracker.initial == "basket"
    assert tracker.first_order == {"Ann": "drawer", "Bob": "box"}
    assert tracker.second_order[("Bob", "Ann")] == "basket"  # Bob saw Ann leave first
    assert tracker.second_order[("Ann", "Bob")] == "basket"  # Ann never saw Bob's move
    with pytest.raises(ValueError, match="from outside the room"):
        replay([Enter("Ann"), Seen("basket"), Move("Bob", "box")])


def test_generated_stories_answer_from_the_world_state():
    everything = generate_daily_life(seed=4, stories=30)
    assert len(everything) == 180 + 5 * 30
    assert everything == generate_daily_life(seed=4, stories=30)
    assert everything != generate_daily_life(seed=5, stories=30)
    items = [i for i in everything if i.label in ("Belief", "Control")]
    assert len(items) == 180
    kinds = Counter((i.metadata["question_type"], i.perspective) for i in items)
    assert kinds[("first_order", "socialization")] == 30  # about "you"
    assert kinds[("first_order", "tom")] == 30
    assert kinds[("second_order", "tom")] == 60
    assert kinds[("memory", "control")] == kinds[("reality", "control")] == 30
    assert any(i.metadata["false_belief"] for i in items)
    for item in items:
        assert item.system.startswith(f"You are {item.metadata['you']}.")
        assert item.metadata["you"] not in item.story
        sentences = item.story.split(". ")
        answer = item.options[item.answer].removeprefix("the ")
        if item.metadata["question_type"] == "memory":
            first_seen = next(s for s in sentences if " is in the " in s)
            assert first_seen.endswith(answer) or first_seen.endswith(answer + ".")
        if item.metadata["question_type"] == "reality":
            last = [s for s in sentences if " is in the " in s or " to the " in s][-1]
            assert last.rstrip(".").endswith(answer)


def test_false_belief_when_you_leave_before_the_move():
    items = generate_daily_life(seed=0, stories=60)
    items = [i for i in items if i.metadata.get("plot") == "false_belief"]
    story_of_you_leaving = [
        i
        for i in items
        if i.metadata["question_type"] == "first_order"
        and i.perspective == "socialization"
        and "You exited" in i.story.split(" moved the ")[0]
    ]
    assert story_of_you_leaving
    for item in story_of_you_leaving:
        assert item.metadata["false_belief"] is True
        first_seen = item.story.split(" is in the ")[1].split(".")[0]
        assert item.options[item.answer] == f"the {first_seen}"


def test_converter_on_a_third_person_tomi_example():
    record = ToMiRecord(
        story=(
            "Oliver entered the porch.",
            "Emma entered the porch.",
            "Oliver likes the lime.",
            "The grapes is in the green_crate.",
            "Oliver exited the porch.",
            "Emma moved the grapes to the blue_box.",
            "Oliver's phone rang.",
        ),
        question="Where does Oliver think that Emma searches for the grapes?",
        answer="green_crate",
    )
    item = convert_record(record, item_id="tomi-1")
    assert item.story == (
        "You entered the porch. Emma entered the porch. You like the lime. "
        "The grapes is in the green_crate. You exited the porch. "
        "Emma moved the grapes to the blue_box. Your phone rang."
    )
    assert item.question == "Where do you think that Emma searches for the grapes?"
    assert set(item.options) == {"the green_crate", "the blue_box"}
    assert item.options[item.answer] == "the green_crate"
    assert item.perspective == "tom" and item.system.startswith("You are Oliver.")

    as_emma = convert_record(record, item_id="tomi-2", you="Emma")
    assert as_emma.question == "Where does Oliver think that you search for the grapes?"
    assert "You moved the grapes to the blue_box." in as_emma.story

    first_order = ToMiRecord(record.story, "Where will Oliver look for the grapes?", "green_crate")
    assert convert_record(first_order, item_id="tomi-3").perspective == "socialization"
    assert convert_record(first_order, item_id="tomi-4", you="Emma").perspective == "tom"
    with pytest.raises(ValueError, match="not a container"):
        convert_record(ToMiRecord(record.story, record.question, "attic"), item_id="tomi-5")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Jack hates the onion.", "You hate the onion."),
        ("Jack is in the hall.", "You are in the hall."),
        ("Chloe saw Jack.", "Chloe saw you."),
        ("Is Jack here?", "Are you here?"),
        ("Then, Jack searches the attic.", "Then, you search the attic."),
    ],
)
def test_second_person_agreement(sentence, expected):
    assert to_second_person(sentence, "Jack") == expected


def test_read_tomi_file(tmp_path: Path):
    path = tmp_path / "tomi.txt"
    path.write_text(
        "1 Ann entered the den.\n2 The ball is in the red_box.\n3 Ann moved the ball to the tin.\n"
        "4 Where is the ball really?\ttin\t3\n"
        "1 Bob entered the den.\n2 The key is in the tin.\n"
        "3 Where will Bob look for the key?\ttin\t2\n"
    )
    first, second = read_tomi_file(path)
    assert first.story[-1] == "Ann moved the ball to the tin."
    assert second.question == "Where will Bob look for the key?" and second.answer == "tin"
    assert convert_record(first, "r0").perspective == "control"
    path.write_text("1 Ann entered the den.\nbroken line\n")
    with pytest.raises(ValueError, match=r"tomi.txt:2"):
        read_tomi_file(path)


def test_counterfactual_rules_and_items():
    assert winner("scissors", "rock") == 0 and winner("rock", "scissors") == 1
    assert winner("paper", "paper") == -1
    assert winning_move("paper") == "rock"
    items = generate_counterfactual(seed=1, count=60)
    assert Counter(i.metadata["question_type"] for i in items)["best_move"] == 6
    for item in items:
        if item.metadata["question_type"] == "best_move":
            theirs = item.story.split(" will show ")[1].split(" ")[0]
            assert REVERSED_BEATS[item.options[item.answer]] == theirs
        if item.metadata["question_type"] == "round_winner":
            mine = item.story.split("You show ")[1].split(" ")[0]
            theirs = item.story.split(" shows ")[1].rstrip(".")
            expected = {0: "I win.", -1: "It is a draw."}.get(winner(mine, theirs), "wins.")
            assert item.options[item.answer].endswith(expected)


def test_new_world_items_need_the_stated_norm():
    pool = all_norm_questions()
    items = generate_new_world(seed=2, count=len(pool) + 5)
    assert len({i.metadata["question_index"] for i in items[: len(pool)]}) == len(pool)
    for item in items:
        _, question = pool[item.metadata["question_index"]]
        assert len(item.options) == 3
        assert item.perspective == question.perspective and item.label == "New World"
        assert item.story.startswith("In ")


def test_blackjack_rules():
    assert hand_value(["A", "6"]) == (17, True)
    assert hand_value(["A", "6", "T"]) == (17, False)
    assert hand_value(["A", "A", "9"]) == (21, True)
    assert hand_value(["K", "Q", "5"]) == (25, False)
    assert basic_strategy(["T", "6"], "7") == "hit"
    assert basic_strategy(["T", "6"], "6") == "stand"
    assert basic_strategy(["T", "2"], "3") == "hit" and basic_strategy(["T", "2"], "4") == "stand"
    assert basic_strategy(["A", "7"], "9") == "hit" and basic_strategy(["A", "7"], "8") == "stand"
    assert basic_strategy(["5", "6"], "6") == "hit"
    # Up-card 10 with your 10 and 9 seen: 49 unseen cards; 7-9, 10-value and ace make 17+:
    # 7s 4, 8s 4, 9s 3, 10-values 14, aces 4 -> 29/49.
    assert dealer_reaches_17("T", ["T", "9", "T"]) == Fraction(29, 49)
    assert PROBABILITY_BANDS[probability_band(Fraction(29, 49))] == "from 50% to 75%"
    assert probability_band(Fraction(1, 4)) == 1 and probability_band(Fraction(1)) == 3


def test_blackjack_items_come_from_rlcard_and_are_rule_checked():
    items = generate_blackjack(seed=7, hands=12)
    assert items == generate_blackjack(seed=7, hands=12)
    for item in items:
        ranks = item.metadata["player_cards"].split()
        total, _ = hand_value([card[1:] for card in ranks])
        answer = item.options[item.answer]
        if item.metadata["question_type"] == "total":
            assert answer == str(total)
        if item.metadata["question_type"] == "bust":
            assert answer.startswith("Yes") == (total > 21)
        if item.metadata["question_type"] == "strategy":
            assert total <= 21
    assert {i.label for i in items} == {"Self-Belief", "External-Belief"}


def test_record_to_sample_is_stable():
    item = build_static_items(source="generated", scenarios="new_world", seed=0, size=1)[0]
    sample = record_to_sample(item)
    assert sample.id == item.id == "new_world-s0-0000"
    assert sample.input[0].role == "system" and sample.input[0].text == item.system
    assert sample.target == item.answer_letter
    assert sample.metadata["scenario"] == "new_world" and sample.metadata["label"] == item.label
    with pytest.raises(ValueError, match="unknown scenario"):
        build_static_items(source="generated", scenarios="mars")


@pytest.mark.slow
def test_inspect_task_groups_scores_and_counts_invalid_answers(tmp_path: Path, scripted_model):
    items = build_static_items(source="generated", seed=0, size=2)
    replies = ["ANSWER: A", "I am not sure."] * len(items)
    [log] = inspect_eval(
        egosocial_static(source="generated", size=2),
        model=scripted_model(replies),
        log_dir=str(tmp_path),
        display="none",
        max_samples=1,
    )
    assert log.status == "success", log.error
    metrics = log.results.scores[0].metrics
    by_id = {item.id: item for item in items}
    answered_a = [s for s in log.samples if s.output.completion == "ANSWER: A"]
    expected = sum(by_id[s.id].answer == 0 for s in answered_a) / len(items)
    assert metrics["all"].value == pytest.approx(expected)
    assert metrics["invalid"].value == pytest.approx(1 - len(answered_a) / len(items))
    assert metrics["all_ci_low"].value <= metrics["all"].value <= metrics["all_ci_high"].value
    assert {len(s.scores["option_letter"].value) for s in log.samples} == {2}  # stable keys
    expected_keys = {"perspective:tom", "label:Emotion", "label:Non-li", "scenario:blackjack"}
    assert expected_keys <= set(metrics)
    emotion = [s for s in log.samples if by_id[s.id].label == "Emotion"]
    emotion_right = [s.scores["option_letter"].value["all"] for s in emotion]
    assert metrics["label:Emotion"].value == pytest.approx(sum(emotion_right) / len(emotion))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("ANSWER: B", "B"),
        ("B) I eat every spoonful in silence.", "B"),
        ("(C)", "C"),
        ("The answer is A", "A"),
        ("D) out of range", None),
        ("A good question.", None),
        ("I would rather not say.", None),
        ("A\nA sweatshirt in the cabinet", "A"),
        ("Answer: I think it is B", None),
    ],
)
def test_parse_choice_letter(reply, expected):
    options = ["Coat", "I eat every spoonful in silence.", "Carrot"]
    assert parse_choice_letter(reply, options) == expected


OPTIONS = ["Coat", "Carrot", "Hat", "Shoe"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # issue 39: hedges named two options and were read as the first
        ("Answer: A or B", None),
        ("B) or C)", None),
        ("ANSWER: A, C", None),
        ("ANSWER: A/B", None),
        # the last formal answer wins over an earlier mention
        ("I would not answer A. ANSWER: B", "B"),
        ("A) is tempting, but no.\nANSWER: D", "D"),
        # two different answer lines are invalid; the same one twice is read
        ("ANSWER: A\nANSWER: B", None),
        ("ANSWER: B\n\nFinal answer: b", "B"),
        # emphasis and case
        ("ANSWER: **C**", "C"),
        ("**Answer:** (C)", "C"),
        ("answer: d", "D"),
        # a letter and its option text agree or the reply is invalid
        ("ANSWER: B) Carrot", "B"),
        ("ANSWER: B) Coat", None),
        ("B. Hat", None),
        ("ANSWER: B (Carrot)", "B"),
        # an echoed option list names every option
        ("A) Coat\nB) Carrot\nC) Hat\nD) Shoe", None),
        ("A) Coat\nB) Carrot\nC) Hat\nD) Shoe\nANSWER: C", "C"),
        # no letter from prose
        ("I think A is right.", None),
        ("A coat, since she found it.", None),
        ("ANSWER: B because the carrot is gone", None),
        ("Answer: a blue hat", None),
        ("B. Because the carrot is gone.", "B"),
        ("E", None),
    ],
)
def test_static_answers_are_never_guessed(reply: str, expected: str | None) -> None:
    assert parse_choice_letter(reply, OPTIONS) == expected


@pytest.mark.parametrize("size", [0, -1])
def test_size_below_one_fails_when_the_task_is_built(size):
    with pytest.raises(ValueError, match=f"size must be an integer >= 1, got {size}"):
        egosocial_static(source="generated", size=size)


def test_scenarios_as_inspect_passes_them_a_list_or_comma_separated_text() -> None:
    # `-T scenarios=daily_life,blackjack` reaches the task as a list.
    listed = egosocial_static(source="generated", scenarios=["daily_life", "blackjack"], size=1)
    text = egosocial_static(source="generated", scenarios="daily_life,blackjack", size=1)
    assert [s.id for s in listed.dataset] == [s.id for s in text.dataset]
    assert {s.metadata["scenario"] for s in listed.dataset} == {"daily_life", "blackjack"}


class FirstOrderOnly(ScriptedReplies):
    """Answers A to an item's first prompt (its own option order) and nothing to the rotations."""

    model_name = "mockllm/model"

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        question = messages[-1].text.split("\n\nA) ", 1)[0]
        self.asked[question] += 1
        return "ANSWER: A" if self.asked[question] == 1 else "Maybe the first one."


@pytest.mark.slow
def test_circular_runs_count_invalid_over_the_rotations_they_score(
    tmp_path: Path, shared_data: Path
) -> None:
    model = get_model("mockllm/model", custom_outputs=FirstOrderOnly())
    [log] = inspect_eval(
        egosocial_static(circular=True),
        model=model,
        limit=4,
        max_samples=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    values = [s.scores["option_letter"].value for s in log.samples]
    # the first order was answered, every other rotation not: `invalid` goes with `all`
    assert [v["invalid"] for v in values] == [0.0] * 4
    assert [v["circular_invalid"] for v in values] == [1.0] * 4
    assert [v["all"] for v in values] == [float(s.target == "A") for s in log.samples]
    assert [v["circular"] for v in values] == [0.0] * 4
