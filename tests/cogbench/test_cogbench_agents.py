import asyncio
import dataclasses
import json

import pytest

from cog_tasks.cogbench.agents import (
    AGENTS,
    AgentSettings,
    IterationResult,
    make_agent,
    run_iteration,
    warn_missing_flows,
)
from cog_tasks.cogbench.agents.authors import authors_prompts
from cog_tasks.cogbench.agents.coggpt import FORMAT_REMINDERS
from cog_tasks.cogbench.agents.prompts import EXPLANATIONS
from cog_tasks.cogbench.generation import Reply
from cog_tasks.cogbench.loader import load_trajectories


class ScriptedModel:
    """Replies by prompt kind and records every prompt."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        self.prompts.append(prompt)
        if "json.loads" in prompt:  # the authors' distillation prompt
            facts = [("Rescue teams blame poor planning.", 5), ("Hills calm workers.", 4)]
            return json.dumps(
                [{"thoughts": "I agree.", "knowledge": k, "score": s} for k, s in facts]
            )
        if "<score> | <statement>" in prompt:
            return (
                "5 | Rescue teams say most accidents come from poor planning.\n"
                "4 | Hikers who walk twice a month report less stress.\n"
                "3 | A psychologist says effort and fresh air rest the mind.\n"
                "2 | Many city workers head for the hills at weekends.\n"
                "1 | The article was published on a weekend.\n"
            )
        if "Updated Profile:" in prompt:
            return "Assessment: planning matters.\nUpdated Profile:\nHobbies: Trail running, hiking"
        if prompt.rstrip().endswith("Reflection:"):
            return "I was too negative; people like me value the calm of the hills."
        return "Thoughts: It fits my experience as a rescuer.\nRating: 4"


def _run(
    agent_name: str, iterations: int = 2, settings: AgentSettings | None = None
) -> tuple[ScriptedModel, list[IterationResult]]:
    trajectories, _ = load_trajectories(
        "a", source="sample", topics=["Outdoor Adventures"], max_iteration=iterations
    )
    trajectory = trajectories[0]
    model = ScriptedModel()
    agent = make_agent(agent_name, model, trajectory.profile, settings, "test")

    async def go() -> list[IterationResult]:
        results: list[IterationResult] = []
        try:
            for step in trajectory.steps:
                results.append(await run_iteration(agent, step, results[-1] if results else None))
        finally:
            agent.close()
        return results

    return model, asyncio.run(go())


def test_registry_and_unknown_agent() -> None:
    assert sorted(AGENTS) == ["coggpt", "cot", "react", "reflexion"]
    with pytest.raises(ValueError, match="unknown CogBench agent"):
        make_agent("gpt", ScriptedModel(), {"Name": "x"})


def test_cot_sees_profile_and_only_the_current_flow() -> None:
    model, results = _run("cot")
    assert len(model.prompts) == 15  # 3 iterations x 5 questions, nothing else
    assert "You have not read anything" in model.prompts[0]
    iteration_two = [p for p in model.prompts if "A Crowded Summit" in p]
    assert len(iteration_two) == 5
    assert not any("Why the Mountains Keep Calling" in p for p in iteration_two)
    assert all("Name: Daniel Okafor" in p for p in model.prompts)
    assert [a.rating for a in results[1].answers] == [4] * 5
    record = results[1].to_record()
    assert record["answers"][0]["human_rating"] == 3 and record["iteration"] == 1


@pytest.mark.parametrize(
    ("feedback", "expected"),
    [
        ("rating", "you rated this statement 4; people with your profile rated it 3."),
        (
            "direction",
            "you rated this statement 4; compared with people with your profile, "
            "your rating was too high.",
        ),
        ("none", "you rated this statement 4."),
    ],
)
def test_react_feedback_variants(feedback: str, expected: str) -> None:
    model, results = _run("react", iterations=1, settings=AgentSettings(feedback=feedback))
    observed = [p for p in model.prompts if "Observation from last round" in p]
    assert len(observed) == 5
    assert results[0].step.human_ratings[0] == 3
    assert expected in observed[0]
    if feedback != "rating":
        assert not any("rated it 3" in p for p in model.prompts)


def test_reflexion_reflects_once_per_iteration_with_feedback() -> None:
    model, results = _run("reflexion")
    reflections = [p for p in model.prompts if p.rstrip().endswith("Reflection:")]
    assert len(reflections) == 2  # iterations 1 and 2, none at iteration 0
    assert results[2].state["reflection"].startswith("I was too negative")
    answer_prompts = [p for p in model.prompts if "Statement:" in p]
    assert sum("Your reflection on last round" in p for p in answer_prompts) == 10


OURS = AgentSettings(prompts="ours", recall="nearest")


@pytest.mark.slow  # 14.9 s CPU (issue 46: over 10 s on idle cores)
def test_coggpt_distills_forgets_stores_updates_and_recalls() -> None:
    model, results = _run("coggpt", settings=OURS)
    perception = results[1].perception
    assert perception["distilled"] == 5
    assert perception["forgotten"] == 2
    assert [line[:4] for line in perception["stored"]] == ["[5] ", "[4] ", "[3] "]
    assert perception["profile_changed"] == ["Hobbies"]
    assert results[1].state["profile"]["Hobbies"] == "Trail running, hiking"
    assert results[0].answers[0].recalled == ()
    assert results[1].answers[0].recalled  # memory is used once it holds something
    answer_prompts = [p for p in model.prompts if "long-term memory" in p]
    assert "Hobbies: Trail running, hiking" in answer_prompts[-1]
    # the scripted model repeats its facts: the store keeps 3 per iteration, it does not merge
    assert results[2].perception["ltm_size"] == 6


def test_coggpt_uses_the_authors_prompts_by_default() -> None:
    """The authors' three prompts, their JSON distillation and their recall rule."""
    model, results = _run("coggpt", iterations=1)
    authors = authors_prompts()
    distill_end = authors.distill.rstrip().splitlines()[-1]
    grade_end = authors.grade.rstrip().splitlines()[-1]
    assert sum(p.rstrip().endswith(distill_end) for p in model.prompts) == 1
    assert "Updated Profile: Update your profile." in "\n".join(model.prompts)
    graded = [p for p in model.prompts if p.rstrip().endswith(grade_end)]
    assert len(graded) == 10 and "Profile:\nName: " in graded[0]
    assert results[1].perception["distilled"] == 2 and results[1].perception["ltm_size"] == 1
    assert results[1].answers[0].rating == 4
    assert results[1].answers[0].recalled == ("Rescue teams blame poor planning.",)


def _perceive_with(settings: AgentSettings, flow: str) -> tuple[ScriptedModel, dict]:
    model = ScriptedModel()
    agent = make_agent("coggpt", model, {"Name": "Ada", "Hobbies": "Chess"}, settings, "stm")
    try:
        notes = asyncio.run(agent.perceive(1, flow))
    finally:
        agent.close()
    return model, notes


def test_coggpt_distills_the_whole_flow_in_one_call_by_default() -> None:
    flow = " ".join(f"word{index:04d}" for index in range(600))  # about 5,400 characters
    model, notes = _perceive_with(OURS, flow)
    distill = [p for p in model.prompts if "<score> | <statement>" in p]
    assert len(distill) == 1 and "word0000" in distill[0] and "word0599" in distill[0]
    assert notes["stm_chunks"] == 1


def test_coggpt_chunked_stm_uses_the_chunk_parameters() -> None:
    flow = " ".join(f"word{index:04d}" for index in range(600))
    settings = dataclasses.replace(
        OURS, stm="chunked", chunk_size=2000, chunk_overlap=0, forgetting_rate=0.0
    )
    model, notes = _perceive_with(settings, flow)
    distill = [p for p in model.prompts if "<score> | <statement>" in p]
    assert len(distill) == 3 == notes["stm_chunks"]
    assert notes["forgotten"] == 0 and notes["distilled"] == 15
    # the profile update always reads the whole flow once
    updates = [p for p in model.prompts if "Updated Profile:" in p]
    assert len(updates) == 1 and "word0000" in updates[0] and "word0599" in updates[0]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("stm", "paged"),
        ("feedback", "answer"),
        ("retries", -1),
        ("chunk_overlap", 1000),
        ("explanation", "long"),
    ],
)
def test_agent_settings_reject_bad_values(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        AgentSettings(**{field: value})


class FlakyModel:
    """Answers without a rating ``failures`` times per prompt, then with one."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls: dict[str, int] = {}

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        self.calls[prompt] = self.calls.get(prompt, 0) + 1
        if self.calls[prompt] <= self.failures:
            return "Thoughts: hard to say."
        return "Thoughts: now I know.\nRating: 2"


@pytest.mark.parametrize(("failures", "retries", "rating"), [(2, 3, 2), (4, 3, None), (1, 0, None)])
def test_unreadable_ratings_are_asked_again(failures: int, retries: int, rating: int | None):
    model = FlakyModel(failures)
    agent = make_agent("cot", model, {"Name": "Ada"}, AgentSettings(retries=retries))
    [answer] = asyncio.run(agent.answer(["Chess is fun."]))
    assert answer.rating == rating
    assert sum(model.calls.values()) == min(failures, retries) + 1


def test_missing_flows_warn_once_per_trajectory() -> None:
    trajectories, _ = load_trajectories("a", source="sample", max_iteration=2)
    trajectory = trajectories[0]
    assert warn_missing_flows(trajectory) == []
    emptied = dataclasses.replace(
        trajectory,
        steps=tuple(dataclasses.replace(step, information_flow="") for step in trajectory.steps),
    )
    with pytest.warns(UserWarning, match=r"no information flow at iterations \[1, 2\]"):
        assert warn_missing_flows(emptied) == [1, 2]


GOOD_JSON = json.dumps([{"thoughts": "I care.", "knowledge": "Trails close at dusk.", "score": 4}])


class DistillModel:
    """Replies to the authors' distillation with ``distill_replies`` in turn, else as scripted."""

    def __init__(self, distill_replies: list[str], greedy: bool = False) -> None:
        self.distill_replies = list(distill_replies)
        self.distill_prompts: list[str] = []
        self.greedy = greedy
        self.scripted = ScriptedModel()

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        if "json.loads" not in prompt:
            return await self.scripted(prompt, max_tokens)
        self.distill_prompts.append(prompt)
        return self.distill_replies.pop(0) if self.distill_replies else "Sorry, no list."


def _perceive_authors(model: DistillModel, retries: int = 3) -> tuple[dict, int]:
    agent = make_agent("coggpt", model, {"Name": "Ada"}, AgentSettings(retries=retries), "retry")
    try:
        notes = asyncio.run(agent.perceive(1, "Trails close at dusk. Rangers patrol at night."))
        return notes, len(agent.long_term_memory)
    finally:
        agent.close()


@pytest.mark.parametrize("greedy", [False, True])
def test_authors_distillation_is_asked_again_until_it_is_the_json_list(greedy: bool) -> None:
    cut = GOOD_JSON[:40]  # a reply stopped mid-list
    junk = "Here are my thoughts.\nThe article says trails close at dusk and rangers patrol."
    model = DistillModel([cut, junk, GOOD_JSON], greedy=greedy)
    notes, stored = _perceive_authors(model)
    assert len(model.distill_prompts) == 3 and notes["distill_failed"] == 0
    assert notes["distilled"] == 1 and stored == 1
    first, *retries = model.distill_prompts
    reminder = FORMAT_REMINDERS["json"]
    assert reminder not in first
    assert all((reminder in prompt) == greedy for prompt in retries)
    assert all(prompt.startswith(first) for prompt in retries)


def test_a_distillation_never_in_form_is_a_failed_step_that_stores_nothing() -> None:
    junk = "Thoughts: the article.\nTrails close at dusk in the park.\nRangers patrol at night."
    model = DistillModel([junk] * 10)
    notes, stored = _perceive_authors(model, retries=2)
    assert len(model.distill_prompts) == 3  # one ask and two retries, bounded
    assert notes["distill_failed"] == 1
    assert notes["distilled"] == 0 and notes["stored"] == [] and stored == 0


class CuttingModel(ScriptedModel):
    """The scripted model, but its distillations and profile updates stop at the token limit."""

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        reply = await super().__call__(prompt, max_tokens)
        return Reply(reply, truncated="json.loads" in prompt or "Updated Profile:" in prompt)


def test_replies_cut_at_the_token_limit_are_recorded_per_iteration() -> None:
    trajectories, _ = load_trajectories(
        "a", source="sample", topics=["Outdoor Adventures"], max_iteration=1
    )
    trajectory = trajectories[0]
    model = CuttingModel()
    agent = make_agent("coggpt", model, trajectory.profile, None, "cut")
    try:
        first = asyncio.run(run_iteration(agent, trajectory.steps[0], None))
        second = asyncio.run(run_iteration(agent, trajectory.steps[1], first))
    finally:
        agent.close()
    assert first.truncated == ()
    assert sorted(second.truncated) == ["distill", "update"]
    assert second.to_record()["truncated"] == list(second.truncated)
    # the cut profile update loses its last (maybe half-written) line, never a whole attribute
    assert second.state["profile"] == trajectory.profile


def test_every_cut_answer_is_recorded_retries_included() -> None:
    class CutAnswers:
        async def __call__(self, prompt: str, max_tokens: int) -> str:
            return Reply("Thoughts: I think that", truncated=True)

    agent = make_agent("cot", CutAnswers(), {"Name": "Ada"}, AgentSettings(retries=2))
    [answer] = asyncio.run(agent.answer(["Chess is fun."]))
    assert answer.rating is None
    assert agent.take_truncated() == ("answer",) * 3
    assert agent.take_truncated() == ()


@pytest.mark.parametrize(
    ("explanation", "asked"),
    [("authors", "substantial first-person explanation"), ("brief", "one or two sentences")],
)
def test_baselines_ask_for_the_explanation_named(explanation: str, asked: str) -> None:
    settings = AgentSettings(explanation=explanation)
    for name in ("cot", "react", "reflexion"):
        model, _ = _run(name, iterations=1, settings=settings)
        requests = [p for p in model.prompts if "Rating: <one number>" in p]
        assert requests and all(asked in p for p in requests), name


def test_the_default_explanation_is_the_authors_and_brief_is_task_v3s() -> None:
    assert AgentSettings().explanation == "authors"
    assert "Thoughts: <your reasons in one or two sentences>" in EXPLANATIONS["brief"]


class OursDistillModel(ScriptedModel):
    """Replies to the ``prompts=ours`` distillation with ``replies`` in turn (``Reply`` objects)."""

    def __init__(self, replies: list[Reply]) -> None:
        super().__init__()
        self.replies = list(replies)
        self.distill_asks = 0

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        if "<score> | <statement>" not in prompt:
            return await super().__call__(prompt, max_tokens)
        self.distill_asks += 1
        return self.replies.pop(0) if self.replies else Reply("Sorry.")


def _perceive_ours(model: OursDistillModel) -> tuple[dict, list[str]]:
    settings = AgentSettings(retries=2, prompts="ours")
    agent = make_agent("coggpt", model, {"Name": "Ada"}, settings, "ours")
    try:
        notes = asyncio.run(agent.perceive(1, "Trails close at dusk.\nRangers patrol at night."))
        return notes, notes["stored"]
    finally:
        agent.close()


def test_ours_distillation_asks_again_for_a_cut_reply_and_drops_echoed_lines() -> None:
    cut = Reply("5 | Rangers keep hikers safe.\n4 | Statement number 8 says the trail", True)
    whole = Reply("5 | Rangers keep hikers safe.\n4 | Trails close at dusk.\n3 | Night is risky.")
    model = OursDistillModel([cut, whole])
    notes, stored = _perceive_ours(model)
    assert model.distill_asks == 2 and notes["distill_failed"] == 0
    assert notes["distilled"] == 2  # the echoed article line is no statement
    assert not any("dusk" in line or "Statement" in line for line in stored)


def test_ours_distillation_always_cut_is_a_failed_step_that_stores_nothing() -> None:
    cut = Reply("5 | Rangers keep hikers safe.\n4 | Statement number 8 says the market", True)
    model = OursDistillModel([cut] * 5)
    notes, stored = _perceive_ours(model)
    assert model.distill_asks == 3 and notes["distill_failed"] == 1 and stored == []
