"""A seeded chance baseline: a blind random walker that knows the answer format."""

from __future__ import annotations

import random

from cog_tasks.cogeval.scoring import GraphContext


def random_answer(context: GraphContext, rng: random.Random) -> str:
    """A random reply in the question's answer form, ending with ``Answer: ...``."""
    if context.kind == "count":
        return f"I will guess.\nAnswer: {rng.randint(1, 6)}"
    if context.kind == "map":
        kept = [f"{a} - {b}" for a, b in context.edges if rng.random() < 0.5] or [
            "{} - {}".format(*context.edges[0])
        ]
        return "I will guess.\nAnswer: " + ", ".join(kept)
    env, index = context.environment()
    successors = env.successors()
    names = {number: name for name, number in index.items()}
    here = index[context.start]
    if context.kind == "first_step":
        options = successors[here]
        choice = names[rng.choice(options)] if options else context.start
        return f"I will guess.\nAnswer: {choice}"
    goals = {index[name] for name, value in context.rewards if value > 0}
    walk = [here]
    while len(walk) <= len(env.states) and successors[walk[-1]]:
        walk.append(rng.choice(successors[walk[-1]]))
        if walk[-1] in goals:
            break
    return "I will guess.\nAnswer: " + ", ".join(names[state] for state in walk)
