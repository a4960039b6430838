"""Blackjack belief facts (rlcard's rules) and the judge-graded beliefs task, scripted judge."""

import math
from fractions import Fraction
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from cog_tasks.common.scripted import scripted_output
from cog_tasks.egosocial.beliefs import (
    is_echo,
    judge_prompt,
    label_facts,
    load_labelled_beliefs,
    parse_grade,
    split_beliefs,
)
from cog_tasks.egosocial.blackjack import (
    BlackjackHand,
    belief_facts,
    bust_risk,
    dealer_bust_probability,
)
from cog_tasks.egosocial.inspect import egosocial_blackjack_beliefs
from cog_tasks.egosocial.inspect.report import checked_runs


def test_facts_follow_rlcards_rules_on_hand_worked_hands() -> None:
    # 10 and 6 against a 7: 49 unseen cards; 6 (3 left), 7 (3), 8, 9 (4 each) and
    # 10-values (15 left) bust: 29/49.
    assert bust_risk(["T", "6"], "7") == Fraction(29, 49)
    soft = belief_facts(BlackjackHand(player=("HA", "S6"), dealer_up="D6"))
    assert (soft.total, soft.soft, soft.bust, soft.move) == (17, True, False, "hit")
    assert soft.bust_risk == 0  # an ace can always drop to 1
    bust = belief_facts(BlackjackHand(player=("HK", "SQ", "D5"), dealer_up="CA"))
    assert (bust.total, bust.bust, bust.move) == (25, True, None)
    assert bust.dealer_up == "the ace of clubs" and bust.dealer_up_value == 11
    # a 6 up-card busts far more often than a 10 (about 42% and 21% in one deck)
    weak = dealer_bust_probability("6", ["T", "7", "6"])
    strong = dealer_bust_probability("T", ["T", "7", "T"])
    assert 0.38 < weak < 0.46 and 0.18 < strong < 0.26
    assert "17, a soft" in soft.self_text() and "basic strategy" in soft.self_text().lower()
    assert "worth 6" in soft.external_text() and f"{float(soft.dealer_bust):.0%}" in (
        soft.external_text()
    )


def test_split_beliefs_and_parse_grade() -> None:
    reply = "Self-Belief is {I hold 15, so I hit}. External-Belief is {the dealer shows a 6}."
    assert split_beliefs(reply) == {
        "self_belief": "I hold 15, so I hit",
        "external_belief": "the dealer shows a 6",
    }
    assert split_beliefs("self belief: 12") == {"self_belief": "12", "external_belief": None}
    assert split_beliefs("I would hit.") == {"self_belief": None, "external_belief": None}
    assert parse_grade("reasoning...\nGRADE: C") is True
    assert parse_grade("GRADE: C\nGRADE: I") is None
    assert parse_grade("correct") is None


def test_judge_prompt_holds_the_rubric_and_the_facts() -> None:
    facts = belief_facts(BlackjackHand(player=("HT", "S6"), dealer_up="D7"))
    prompt = judge_prompt("self_belief", "situation text", facts, "I have 16")
    assert "situation text" in prompt and "I have 16" in prompt
    assert "total is 16" in prompt and "hit" in prompt and "GRADE: C" in prompt
    assert "dealer's face-up card" not in prompt


def scripted_player(input, tools, tool_choice, config):
    """States a total of 20 and a strong dealer card, whatever the cards, after restating the
    instruction (issue 39's reply); no External-Belief when the dealer shows a 5."""
    restated = (
        "I will first analyze my own cards in Self-belief and then the dealer in "
        "External-belief.\n**Self-Belief** is {my total is 20, so I stand}."
    )
    if "{Heart 5}" in input[-1].text:
        return scripted_output(restated, input)
    return scripted_output(
        f"{restated} **External-Belief** is "
        "{the dealer's up-card is worth 10, so the dealer rarely busts}.",
        input,
    )


class ScriptedJudge:
    """Grades C when the facts in its prompt match the belief's claim, in judges' formats
    (``**GRADE:** C``, ``Grade: incorrect``); counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, input, tools, tool_choice, config):
        self.calls += 1
        prompt = input[-1].text
        if "The player's Self-Belief" in prompt:
            grade = "**GRADE:** C" if "The player's total is 20," in prompt else "Grade: incorrect"
        else:
            right = "card is the " in prompt and ", worth 10." in prompt
            grade = "GRADE: **c**" if right else "GRADE: maybe"
        return scripted_output(f"Compared with the facts.\n{grade}", input)


@pytest.mark.slow
def test_beliefs_task_with_a_scripted_judge(tmp_path: Path, shared_data: Path) -> None:
    judge = ScriptedJudge()
    [log] = inspect_eval(
        egosocial_blackjack_beliefs(),
        model=get_model("mockllm/model", custom_outputs=scripted_player),
        model_roles={"judge": get_model("mockllm/judge", custom_outputs=judge)},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    samples = log.samples
    assert len(samples) == 50
    facts = {
        s.id: belief_facts(
            BlackjackHand(tuple(s.metadata["player_cards"].split()), s.metadata["dealer_up"])
        )
        for s in samples
    }
    total_20 = sum(fact.total == 20 for fact in facts.values())
    no_external = [s for s in samples if "{Heart 5}" in s.input[-1].text]
    up_10 = [s for s in samples if facts[s.id].dealer_up_value == 10 and s not in no_external]
    assert no_external and up_10 and 0 < total_20 < 50
    metrics = {name: metric.value for name, metric in log.results.scores[0].metrics.items()}
    assert metrics["blackjack_self_belief"] == pytest.approx(total_20 / 50)
    assert metrics["blackjack_external_belief"] == pytest.approx(len(up_10) / 50)
    assert metrics["all"] == pytest.approx((total_20 + len(up_10)) / 100)
    assert metrics["not_stated"] == pytest.approx(len(no_external) / 100)
    # a missing belief is not sent to the judge; a reply without a grade is asked again once
    unparsed = 50 - len(no_external) - len(up_10)
    assert judge.calls == 100 - len(no_external) + unparsed
    # The judge decodes greedily by its own config (a role's model takes no eval settings).
    judged = [e for s in samples for e in s.events if e.event == "model" and e.role == "judge"]
    assert len(judged) == judge.calls and {e.config.temperature for e in judged} == {0}
    assert metrics["blackjack_judge_unparsed_rate"] == pytest.approx(unparsed / 100)
    # the report counts each prompt once: an unread grade first, then a belief not stated
    (run,) = checked_runs([log])
    counts = run.checked.coverage.counts
    assert (counts["judge_invalid"], counts["invalid"]) == (unparsed, len(no_external))
    assert run.checked.coverage.units == 50 and not run.checked.coverage.partial


@pytest.mark.slow
def test_without_a_judge_the_run_fails_and_the_report_skips_it(
    tmp_path: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cog_tasks.cli import main

    [log] = inspect_eval(
        egosocial_blackjack_beliefs(),
        model=get_model("mockllm/model", custom_outputs=scripted_player),
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "error" and "'judge' is required" in str(log.error)
    assert main(["egosocial", "report", str(tmp_path)]) == 2
    assert "skipped 1 log(s) with status error" in capsys.readouterr().err


def test_echoed_templates_are_not_stated() -> None:
    # A template of our own in the shape of the authors' output format.
    prompt = (
        "Reply like this: Self-Belief is {what you think of your own hand}. "
        "External-Belief is {what you think the dealer holds}."
    )
    echoed = (
        "Self-Belief is {what you think of your own hand}. "
        "External-Belief is {what you think the dealer holds}."
    )
    assert split_beliefs(echoed, prompt) == {"self_belief": None, "external_belief": None}
    mine = "Self-Belief is {I have 16, I hit}. External-Belief is " + echoed.split("is ")[-1]
    assert split_beliefs(mine, prompt) == {
        "self_belief": "I have 16, I hit",
        "external_belief": None,
    }
    assert is_echo("", prompt)


def test_card_facts_agree_with_every_hand_label() -> None:
    statements = load_labelled_beliefs()
    assert len(statements) >= 30
    assert {s.kind for s in statements} == {"right", "wrong", "borderline"}
    assert {s.correct for s in statements} == {True, False}
    for statement in statements:
        facts = label_facts(belief_facts(statement.hand), statement.belief_type)
        assert facts == statement.facts, statement.id


@pytest.mark.slow
def test_a_judge_without_grades_is_retried_once_then_counted(tmp_path: Path) -> None:
    player = get_model(
        "mockllm/model",
        custom_outputs=[
            scripted_output("Self-Belief is {I hold 20 and stand}. External-Belief is {a ten}.")
        ]
        * 2,
    )
    judge_replies = ["no grade here", "GRADE: C", "still nothing", "nothing again"]
    grader = get_model(
        "mockllm/model", custom_outputs=[scripted_output(text) for text in judge_replies]
    )
    [log] = inspect_eval(
        egosocial_blackjack_beliefs(),
        model=player,
        model_roles={"grader": grader},  # the former role name, still read alone
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert metrics["blackjack_self_belief"] == 1.0 and metrics["blackjack_external_belief"] == 0.0
    assert metrics["blackjack_judge_unparsed_rate"] == 0.5 and metrics["not_stated"] == 0.0
    # one hand is below SMALL_N: the log carries its count and no interval (never a NaN)
    assert metrics["blackjack_judge_unparsed_rate_n"] == 1
    assert not {k for k in metrics if k.endswith(("_stderr", "_ci_low", "_ci_high"))}
    assert not any(math.isnan(value) for value in metrics.values())


@pytest.mark.slow
def test_smollm2_as_judge_reports_its_agreement_with_the_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cog_tasks.common.models import embedded_model_path
    from cog_tasks.egosocial.inspect import judge_check

    # 10 of the labelled statements and 12 tokens keep this end-to-end run short (all 35
    # took 289 s in CI); reading judge replies is tested with scripted replies above
    subset = load_labelled_beliefs()[:10]
    monkeypatch.setattr(judge_check, "load_labelled_beliefs", lambda: subset)
    result = judge_check.judge_agreement(
        "hf/smollm2", {"model_path": str(embedded_model_path("smollm2")), "do_sample": False}, 12
    )
    print("\n".join(result.lines()))
    assert result.agreement.n == len(subset) == len(result.grades)
    assert 0 <= result.agreement.value <= 1 and 0 <= result.unparsed <= result.agreement.n
