"""Inspect task for the authors' blackjack prompts: free-text beliefs graded by a judge model."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState, generate

from cog_tasks.egosocial.authors import BlackjackPrompt, load_blackjack_prompts
from cog_tasks.egosocial.beliefs import BELIEF_TYPES, judge_prompt, parse_grade, split_beliefs
from cog_tasks.egosocial.blackjack import BlackjackHand, belief_facts
from cog_tasks.egosocial.inspect.metrics import invalid_answer_rate, key_means, key_stderr
from cog_tasks.egosocial.inspect.version import TASK_VERSIONS

GRADER_ROLE = "grader"


def prompt_to_sample(prompt: BlackjackPrompt) -> Sample:
    """The authors' system and user messages as they wrote them; cards in the metadata."""
    return Sample(
        id=prompt.id,
        input=[ChatMessageSystem(content=prompt.system), ChatMessageUser(content=prompt.user)],
        metadata={
            "scenario": "blackjack",
            "player_cards": " ".join(prompt.hand.player),
            "dealer_up": prompt.hand.dealer_up,
        },
    )


@scorer(metrics=[key_means(), key_stderr("all"), invalid_answer_rate()])
def belief_judge() -> Scorer:
    """Grade each belief with the model in the ``grader`` role against the card facts.

    The value holds ``self_belief`` and ``external_belief`` (1 correct, 0 not)
    and ``all``, their mean. A belief missing from the reply is wrong and
    leaves ``answer`` empty (counted by ``invalid_answer_rate``); a judge reply
    without a grade is wrong and listed in ``metadata["judge_unparsed"]``.
    """

    async def score(state: TaskState, target: Target) -> Score:
        judge = get_model(role=GRADER_ROLE, required=True)
        hand = BlackjackHand(
            player=tuple(state.metadata["player_cards"].split()),
            dealer_up=state.metadata["dealer_up"],
        )
        facts = belief_facts(hand)
        beliefs = split_beliefs(state.output.completion)
        value: dict[str, float] = {}
        explanations, unparsed = [], []
        for belief_type in BELIEF_TYPES:
            belief = beliefs[belief_type]
            if belief is None:
                value[belief_type] = 0.0
                explanations.append(f"{belief_type}: not stated")
                continue
            reply = await judge.generate(judge_prompt(belief_type, state.input_text, facts, belief))
            grade = parse_grade(reply.completion)
            if grade is None:
                unparsed.append(belief_type)
            value[belief_type] = float(bool(grade))
            explanations.append(f"{belief_type}: {reply.completion}")
        value["all"] = (value["self_belief"] + value["external_belief"]) / 2
        stated = all(beliefs[belief_type] is not None for belief_type in BELIEF_TYPES)
        return Score(
            value=value,
            answer=state.output.completion if stated else "",
            explanation="\n\n".join(explanations),
            metadata={"judge_unparsed": unparsed},
        )

    return score


@task
def egosocial_blackjack_beliefs() -> Task:
    """EgoSocialArena Blackjack as the authors ran it: 50 prompts, beliefs graded by a judge.

    Run with a judge model in the ``grader`` role, e.g.
    ``--model-role grader=openai/gpt-4o``.
    """
    return Task(
        dataset=MemoryDataset(
            [prompt_to_sample(prompt) for prompt in load_blackjack_prompts()],
            name="egosocial_blackjack_beliefs",
        ),
        solver=generate(),
        scorer=belief_judge(),
        version=TASK_VERSIONS["egosocial_blackjack_beliefs"],
    )
