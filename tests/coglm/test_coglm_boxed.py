"""The ``boxed`` prompt (the authors' GPT protocol) and its ``authors-gpt`` pairing."""

from __future__ import annotations

from pathlib import Path

import pytest
from coglm_chat_mock import conversation_model, user_text
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage

from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.inspect.report import load_inspect_runs
from cog_tasks.coglm.prompts import (
    BOXED_COT_INSTRUCTION,
    BOXED_INSTRUCTION,
    WORKED_EXAMPLES,
    chat_turns,
)
from cog_tasks.coglm.records import load_records


def run(task, model, tmp_path: Path) -> EvalLog:
    log = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success", log.error
    return log


def test_boxed_prompt_shows_four_examples_then_the_item() -> None:
    turns = chat_turns("Which is heavier?", ["A kilo of lead", "A gram of gold"], prompt="boxed")
    assert [role for role, _ in turns] == ["user", "assistant"] * 4 + ["user"]
    pairs = zip(turns[:-1:2], turns[1::2], WORKED_EXAMPLES, strict=True)
    for (_, asked), (_, answered), example in pairs:
        assert asked.startswith(example.question)
        assert BOXED_INSTRUCTION in asked
        assert answered == f"The answer is \\boxed{{{LETTERS[example.answer]}}}."
    item = turns[-1][1]
    assert "Which is heavier?" in item
    assert "A. A kilo of lead\nB. A gram of gold" in item
    assert item.endswith(BOXED_INSTRUCTION)
    reasoned = chat_turns("Q?", ["x", "y"], prompt="boxed", cot=True)
    assert reasoned[-1][1].endswith(BOXED_COT_INSTRUCTION)
    assert reasoned[1][1].startswith(WORKED_EXAMPLES[0].reasoning)
    assert chat_turns("Q?", ["x", "y"]) == [("user", chat_turns("Q?", ["x", "y"])[0][1])]
    with pytest.raises(ValueError, match="unknown CogLM prompt 'fancy'"):
        chat_turns("Q?", ["x", "y"], prompt="fancy")


def test_worked_examples_are_no_coglm_items(shared_data: Path) -> None:
    questions = {record.question.strip().lower() for record in load_records(data_dir=shared_data)}
    assert all(example.question.lower() not in questions for example in WORKED_EXAMPLES)
    assert sorted(example.answer for example in WORKED_EXAMPLES) == [0, 1, 2, 3]


@pytest.mark.slow
def test_boxed_replies_score_through_the_task_under_authors_gpt(
    tmp_path: Path, shared_data: Path
) -> None:
    first_question = load_records("const", data_dir=shared_data)[0].question
    seen: list[list[ChatMessage]] = []

    def respond(messages: list[ChatMessage], _config: object) -> str:
        # A boxed B on the first item, the same letter unboxed on the second.
        boxed = user_text(messages).startswith(first_question)
        return "The answer is \\boxed{B}." if boxed else "The answer is option B."

    model = conversation_model(respond, seen)
    log = run(coglm_chat(abilities="const", per_ability=2, prompt="boxed"), model, tmp_path)
    assert len(seen[0]) == 9  # four worked examples, then the item
    (score,) = log.results.scores
    assert score.metrics["const_invalid"].value == 0.5  # the unboxed reply: invalid and counted
    by_id = {str(s.id): s.scores["coglm_scorer"] for s in log.samples}
    assert by_id["const-0000"].answer == "B" and by_id["const-0001"].answer == ""
    assert by_id["const-0000"].metadata["extractor"] == "authors-gpt"
    assert by_id["const-0001"].value["invalid"] == 1.0
    [report_run], _ = load_inspect_runs([log.location])
    assert "[boxed prompt, authors-gpt extractor]" in report_run.label
    assert "boxed prompt, authors-gpt answer reader" in report_run.protocol
    assert report_run.summary["abilities"]["const"]["invalid"] == 1  # a count


def test_boxed_prompt_is_a_checked_parameter() -> None:
    known = "answer-is, boxed, llama-text"
    with pytest.raises(ValueError, match=f"prompt must be one of {known}, got 'box'"):
        coglm_chat(prompt="box")
