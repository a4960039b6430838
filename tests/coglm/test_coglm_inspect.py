"""CogLM chat protocol in Inspect: extraction, metrics, self-consistency, erasure, CoC."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from coglm_chat_mock import scripted_model, system_text
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, get_model

from cog_tasks.coglm.inspect import coglm, coglm_chat
from cog_tasks.coglm.inspect.coc import rationales_from_log
from cog_tasks.coglm.prompts import ERASURE_PROMPTS, RATIONALE_HEADER, chat_prompt, erasure_prompt
from cog_tasks.coglm.records import load_records
from cog_tasks.coglm.voting import majority_vote
from cog_tasks.common.scripted import scripted_output


@pytest.fixture(scope="module")
def questions(shared_data: Path) -> dict[str, str]:
    """Question text of every record by id."""
    return {record.id: record.question for record in load_records(data_dir=shared_data)}


def record_id(prompt: str, questions: dict[str, str]) -> str:
    return next(rid for rid, question in questions.items() if prompt.startswith(question + "\n"))


def run(task, model, tmp_path: Path, **kwargs) -> EvalLog:
    log = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none", **kwargs)[0]
    assert log.status == "success", log.error
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    (score,) = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


def answers(log: EvalLog) -> dict[str, str]:
    return {str(s.id): s.scores["coglm_scorer"].answer for s in log.samples}


# --- prompts and voting (pure) ---------------------------------------------------------


def test_chat_prompt_letters_options_and_places_rationale() -> None:
    prompt = chat_prompt("Is it raining?", ["Yes", "No"], rationale="Clouds are grey.")
    assert "A. Yes\nB. No" in prompt
    assert prompt.index("Is it raining?") < prompt.index(RATIONALE_HEADER)
    assert prompt.index("Clouds are grey.") < prompt.index('"The answer is option"')
    assert "step by step" in chat_prompt("Q?", ["x", "y"], cot=True)
    assert "step by step" not in prompt


def test_erasure_prompts_cover_every_ability_once() -> None:
    assert len(set(ERASURE_PROMPTS.values())) == 10
    assert "own point of view" in erasure_prompt("empat")
    with pytest.raises(ValueError, match="unknown CogLM ability code 'empathy'"):
        erasure_prompt("empathy")


def test_majority_vote_tie_goes_to_the_option_voted_first() -> None:
    vote = majority_vote([2, None, 1, 1, 2])
    assert (vote.choice, vote.tie, vote.invalid, vote.counts) == (2, True, 1, {1: 2, 2: 2})
    clear = majority_vote([0, 1, 1])
    assert (clear.choice, clear.tie) == (1, False)
    nothing = majority_vote([None, None])
    assert (nothing.choice, nothing.invalid, nothing.tie) == (None, 2, False)


# --- scorer ----------------------------------------------------------------------------

REALISTIC_REPLIES = {
    # answer A (True): bold final line after an explanation
    "const-0000": "Covering the ball does not make it vanish.\n\n**The answer is option A.**",
    # answer B (False): "Answer:" header with the letter in brackets
    "const-0001": "Answer: (B) False\nExplanation: the ball was taken away.",
    # answer A (Round): no letter, only the option's text
    "early-0000": "A soccer ball is round, so the best description is: Round.",
    # answer D (Sun): a wrong option named with its letter
    "early-0001": "I'd go with option C (Orange), since it is round and bright.",
    # answer A (Phone): LaTeX box
    "semio-0000": "\\boxed{A}",
    # answer D: two options' texts and no letter -> invalid
    "semio-0001": "I cannot decide between the piano and the duck.",
    # answer B: chatty preface, final answer last
    "empat-0000": "Sure! I'd keep those jokes to myself.\n\nThe final answer is B",
    # answer B: "answer is a ..." uses the article, not a letter -> invalid
    "empat-0001": "The answer is a tricky one, honestly.",
}


@pytest.mark.slow
def test_extractor_on_realistic_chat_answers(tmp_path: Path, questions: dict[str, str]) -> None:
    model = scripted_model(lambda prompt, _: REALISTIC_REPLIES[record_id(prompt, questions)])
    log = run(coglm_chat(abilities="const,early,semio,empat", per_ability=2), model, tmp_path)
    assert answers(log) == {
        "const-0000": "A",
        "const-0001": "B",
        "early-0000": "A",
        "early-0001": "C",
        "semio-0000": "A",
        "semio-0001": "",
        "empat-0000": "B",
        "empat-0001": "",
    }
    values = metrics(log)
    assert values["const_acc"] == 1.0
    assert values["early_acc"] == 0.5
    assert values["semio_invalid"] == 0.5
    assert values["invalid"] == 0.25
    assert values["acc"] == 5 / 8  # invalid answers count as wrong
    # early: 1 of 2 right with 4 options -> (0.5 - 0.25) / 0.75
    assert values["early_calibrated_acc"] == pytest.approx(1 / 3)
    assert values["stage1"] == pytest.approx((1.0 + 1 / 3) / 2)


@pytest.mark.slow
def test_metrics_average_over_epochs(tmp_path: Path, questions: dict[str, str]) -> None:
    calls: Counter[str] = Counter()

    def reply(prompt: str, _config) -> str:
        rid = record_id(prompt, questions)
        calls[rid] += 1
        if rid == "const-0000":
            return "The answer is option A."  # right in both epochs
        if rid == "const-0001":  # right, then unparseable
            return "The answer is option B." if calls[rid] == 1 else "No idea."
        return "The answer is option A."  # propo items (answer B): wrong twice

    log = run(
        coglm_chat(abilities="const,propo", per_ability=2),
        scripted_model(reply),
        tmp_path,
        epochs=2,
    )
    assert set(calls.values()) == {2}
    values = metrics(log)
    assert values["const_acc"] == 0.75
    assert values["const_invalid"] == 0.25
    assert values["const_calibrated_acc"] == pytest.approx((0.75 - 0.5) / 0.5)
    assert values["propo_calibrated_acc"] == pytest.approx((0 - 1 / 3) / (2 / 3))
    assert values["stage1"] == pytest.approx(0.5)
    assert values["stage4"] == pytest.approx(-0.5)
    assert values["overall"] == pytest.approx(0.0)
    assert "cognitive_age" not in values  # needs all four stages
    # Below 10 items no interval: no bound in the log, never a NaN; a subset is flagged.
    assert not any(isinstance(v, float) and math.isnan(v) for v in values.values())
    for key in ("const_calibrated_acc", "overall", "stage1"):
        assert f"{key}_ci_low" not in values and f"{key}_ci_high" not in values
    assert values["overall_n"] == 4
    assert values["partial_run"] == 1.0


# --- self-consistency ------------------------------------------------------------------


@pytest.mark.slow
def test_self_consistency_majority_and_documented_tie(
    tmp_path: Path, questions: dict[str, str]
) -> None:
    # Completion i is drawn with seed 10 + i, so the script does not depend on scheduling.
    script = {
        "const-0000": ["The answer is option A.", "B", "The answer is option B.", "A."],
        "const-0001": ["Hmm.", "The answer is option B.", "(A)", "I choose B."],
    }
    temperatures: list[float | None] = []

    def reply(prompt: str, config) -> str:
        temperatures.append(config.temperature)
        return script[record_id(prompt, questions)][config.seed - 10]

    task = coglm_chat(
        abilities="const", per_ability=2, sc_samples=4, sc_temperature=0.3, sc_seed=10
    )
    log = run(task, scripted_model(reply), tmp_path)
    assert temperatures == [0.3] * 8
    scores = {str(s.id): s.scores["coglm_scorer"] for s in log.samples}
    tie = scores["const-0000"]
    assert tie.metadata["picks"] == ["A", "B", "B", "A"]
    assert tie.metadata["votes"] == {"A": 2, "B": 2}
    assert (tie.answer, tie.value["tie"]) == ("A", 1.0)  # tied: the option voted first wins
    majority = scores["const-0001"]
    assert majority.metadata["picks"] == [None, "B", "A", "B"]
    assert (majority.answer, majority.value["tie"]) == ("B", 0.0)
    outputs = {str(s.id): s.output.completion for s in log.samples}
    assert outputs["const-0001"] == "The answer is option B."  # first completion agreeing
    values = metrics(log)
    assert values["const_acc"] == 1.0
    assert values["tie_rate"] == 0.5


# --- erasure ---------------------------------------------------------------------------


@pytest.mark.slow
def test_erasure_prompt_reaches_the_model(tmp_path: Path) -> None:
    seen: list = []
    model = scripted_model(lambda prompt, _: "The answer is option A.", seen)
    log = run(coglm_chat(abilities="const,plan", per_ability=1, erase="empat"), model, tmp_path)
    assert len(seen) == 2
    assert all(system_text(messages) == ERASURE_PROMPTS["empat"] for messages in seen)
    for sample in log.samples:
        assert [m.role for m in sample.messages] == ["system", "user", "assistant"]
        assert sample.messages[0].text == ERASURE_PROMPTS["empat"]


@pytest.mark.slow
@pytest.mark.parametrize("temperature", [None, 0.5])
def test_decoding_is_the_authors_greedy_unless_the_eval_sets_a_temperature(
    tmp_path: Path, temperature: float | None
) -> None:
    # An eval's --temperature reaches the task in the model's config (as `inspect eval` builds it).
    model = get_model(
        "mockllm/model",
        config=GenerateConfig(temperature=temperature),
        custom_outputs=lambda messages, *_: scripted_output("The answer is option A.", messages),
        memoize=False,
    )
    log = run(coglm_chat(abilities="const", per_ability=1), model, tmp_path)
    calls = [e for s in log.samples for e in s.events if e.event == "model"]
    assert calls and {call.config.temperature for call in calls} == {temperature or 0}


@pytest.mark.slow
def test_no_system_prompt_without_erasure(tmp_path: Path) -> None:
    seen: list = []
    model = scripted_model(lambda p, _: "A", seen)
    run(coglm_chat(abilities="const", per_ability=1), model, tmp_path)
    assert [system_text(messages) for messages in seen] == [None]


# --- chain of cognition ----------------------------------------------------------------


@pytest.mark.slow
def test_chain_of_cognition_pairs_rationales_by_sample_id(
    tmp_path: Path, questions: dict[str, str]
) -> None:
    def strong(prompt: str, _config) -> str:
        return f"Rationale for {record_id(prompt, questions)}. The answer is option A."

    strong_log = run(
        coglm_chat(abilities="early,plan", per_ability=2),
        scripted_model(strong),
        tmp_path / "strong",
    )
    assert strong_log.location
    rationales = rationales_from_log(strong_log.location)
    assert rationales["plan-0001"] == "Rationale for plan-0001. The answer is option A."

    seen: list = []
    weak = scripted_model(lambda prompt, _: "The answer is option B.", seen)
    weak_log = run(
        coglm_chat(abilities="early,plan", per_ability=2, coc_log=strong_log.location),
        weak,
        tmp_path / "weak",
    )
    for sample in weak_log.samples:
        prompt = sample.messages[0].text
        rationale = prompt.split(RATIONALE_HEADER, 1)[1].split("\n\n", 1)[0]
        assert rationale == f"\nRationale for {sample.id}. […]"  # the answer statement is gone
        assert prompt.count("Rationale for") == 1
    assert len(seen) == 4

    with pytest.raises(ValueError, match="no rationale for 2 of 6 samples"):
        coglm_chat(abilities="early,plan,const", per_ability=2, coc_log=strong_log.location)


def test_rationale_loses_every_form_of_answer_statement() -> None:
    choices = ["a lion", "a zebra", "an eagle", "a tiger"]
    reply = (
        "Stripes point to two animals.\n"
        "Lions are plain, so the answer is \\boxed{D. a tiger}.\n"
        "The answer is option D. a tiger, since tigers have stripes.\n"
        "Option D is correct.\nI choose D.\n"
        "Option A is wrong because lions have manes."
    )

    def shown(form: str) -> str:
        prompt = chat_prompt(
            "Which animal has stripes?", choices, rationale=reply, rationale_form=form
        )
        return prompt.split(RATIONALE_HEADER, 1)[1].split("\n\nReply with", 1)[0]

    # "lions" and "tigers" are inflected forms of one-word options: hidden too
    assert shown("masked") == (
        "\nStripes point to two animals.\n[…] are plain.\nSince […] have stripes.\n"
        "An option is wrong because […] have manes."
    )
    assert shown("hidden") == "\nStripes point to two animals."  # and their sentences
    answer_only = chat_prompt("Q?", choices, rationale="The answer is option B.")
    assert "no reasoning beyond its choice" in answer_only
    raw = chat_prompt("Q?", choices, rationale=reply, rationale_form="raw")
    assert reply in raw


@pytest.mark.slow
def test_authors_extractor_in_the_task(tmp_path: Path) -> None:
    # Reads as B with ours; the authors' rule takes the first character, "O".
    model = scripted_model(lambda prompt, _: "Option B is the right one.")
    ours = run(coglm_chat(abilities="const", per_ability=2), model, tmp_path / "ours")
    authors = run(
        coglm_chat(abilities="const", per_ability=2, extractor="authors"),
        model,
        tmp_path / "authors",
    )
    assert set(answers(ours).values()) == {"B"}
    assert set(answers(authors).values()) == {""}
    assert metrics(authors)["invalid"] == 1.0
    assert authors.samples[0].scores["coglm_scorer"].metadata["extractor"] == "authors"
    with pytest.raises(ValueError, match="extractor must be one of ours, authors, authors-gpt"):
        coglm_chat(extractor="theirs")


@pytest.mark.slow
def test_deprecated_coglm_alias_warns_and_still_runs(tmp_path: Path) -> None:
    with pytest.warns(FutureWarning, match="now 'coglm_chat'"):
        task = coglm(abilities="const", per_ability=1)
    log = run(task, scripted_model(lambda prompt, _: "The answer is option A."), tmp_path)
    assert metrics(log)["const_acc"] == 1.0
