"""Inspect task for the authors' blackjack prompts: free-text beliefs graded by a judge model."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, Model, get_model, model_roles
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState, generate

from cog_tasks.common.errors import UserError
from cog_tasks.common.generation import JUDGE_ROLE, eval_model, greedy_config
from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads
from cog_tasks.egosocial.authors import BlackjackPrompt, load_blackjack_prompts
from cog_tasks.egosocial.beliefs import (
    BELIEF_TYPES,
    GRADE_REMINDER,
    judge_prompt,
    parse_grade,
    read_beliefs,
)
from cog_tasks.egosocial.blackjack import BeliefFacts, BlackjackHand, belief_facts
from cog_tasks.egosocial.inspect.metrics import BELIEF_MEASURES
from cog_tasks.egosocial.inspect.version import TASK_VERSIONS

GRADER_ROLE = "grader"
"""The role's former name, still read when it alone is bound (``--model-role grader=...``)."""
#: Judge calls per belief: the first, and one retry when the reply carries no grade.
JUDGE_ATTEMPTS = 2


def prompt_to_sample(prompt: BlackjackPrompt) -> Sample:
    """The authors' system and user messages as they wrote them; cards in the metadata."""
    return Sample(
        id=prompt.id,
        input=[ChatMessageSystem(content=prompt.system), ChatMessageUser(content=prompt.user)],
        metadata={"scenario": "blackjack", **prompt.hand.metadata()},
    )


async def judge_belief(
    judge: Model, belief_type: str, situation: str, facts: BeliefFacts, belief: str
) -> tuple[bool | None, list[str]]:
    """Ask the judge for a grade (``None`` if none), again with a reminder; and its replies."""
    replies: list[str] = []
    prompt = judge_prompt(belief_type, situation, facts, belief)  # type: ignore[arg-type]
    for attempt in range(JUDGE_ATTEMPTS):
        reply = await judge.generate(
            prompt if attempt == 0 else f"{prompt}\n\n{GRADE_REMINDER}", config=greedy_config(judge)
        )
        replies.append(reply.completion)
        grade = parse_grade(reply.completion)
        if grade is not None:
            return grade, replies
    return None, replies


def judge_model() -> Model:
    """The model in the ``judge`` role, or in ``grader`` where only that one is bound."""
    bound = model_roles()
    role = GRADER_ROLE if GRADER_ROLE in bound and JUDGE_ROLE not in bound else JUDGE_ROLE
    return get_model(role=role, required=True)


@scorer(metrics=[key_intervals(unit="item", names=BELIEF_MEASURES)])
def belief_judge() -> Scorer:
    """Grade each belief with the ``judge`` model against the card facts."""

    async def score(state: TaskState, target: Target) -> Score:
        judge = judge_model()
        facts = belief_facts(BlackjackHand.from_metadata(state.metadata))
        beliefs = read_beliefs(state.output.completion, state.input_text)
        value: dict[str, float] = {}
        explanations, unparsed = [], 0
        for belief_type in BELIEF_TYPES:
            belief = beliefs[belief_type].text
            if belief is None:
                value[belief_type] = 0.0
                explanations.append(f"{belief_type}: {beliefs[belief_type].problem}")
                continue
            grade, replies = await judge_belief(judge, belief_type, state.input_text, facts, belief)
            unparsed += grade is None
            value[belief_type] = float(bool(grade))
            explanations.append(f"{belief_type}: " + "\n[retry]\n".join(replies))
        value["all"] = (value["self_belief"] + value["external_belief"]) / 2
        value["not_stated"] = sum(beliefs[b].text is None for b in BELIEF_TYPES) / len(BELIEF_TYPES)
        value["judge_unparsed_rate"] = unparsed / len(BELIEF_TYPES)
        return Score(
            value=value, answer=state.output.completion, explanation="\n\n".join(explanations)
        )

    return score


@task
def egosocial_blackjack_beliefs() -> Task:
    """EgoSocialArena Blackjack as the authors ran it: 50 prompts, graded by the ``judge`` role."""
    if eval_model() is not None and not {JUDGE_ROLE, GRADER_ROLE} & set(model_roles()):
        raise UserError("the model role 'judge' is required: pass --model-role judge=MODEL")
    with recording_reads() as reads:
        prompts = load_blackjack_prompts()
    return Task(
        dataset=MemoryDataset(
            [prompt_to_sample(prompt) for prompt in prompts], name="egosocial_blackjack_beliefs"
        ),
        solver=generate(),
        scorer=belief_judge(),
        version=TASK_VERSIONS["egosocial_blackjack_beliefs"],
        metadata={DATA_PROVENANCE: reads.metadata()},
    )
