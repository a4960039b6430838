"""CogBench (Lv et al.): one sample per (topic, profile) trajectory; the README gives usage."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from cog_tasks.cogbench.agents import AGENTS, ANSWER_TOKENS, MEMORY_TOKENS, AgentSettings
from cog_tasks.cogbench.inspect.scorer import authenticity, cogbench_scorer, rationality
from cog_tasks.cogbench.inspect.solver import check_judge_role, cogbench_agent
from cog_tasks.cogbench.inspect.version import TASK_VERSION
from cog_tasks.cogbench.loader import LANGUAGES, SUBSETS, load_trajectories
from cog_tasks.cogbench.metrics import check_kappa_form, check_weights
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.generation import eval_model
from cog_tasks.common.params import choice, flag, integer, split_names
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads


def record_to_sample(trajectory: Trajectory) -> Sample:
    """One sample per trajectory: the whole trajectory as metadata, human ratings as target."""
    target = "\n".join(
        f"t{step.iteration}: " + " ".join("-" if r is None else str(r) for r in step.human_ratings)
        for step in trajectory.steps
    )
    iterations = [step.iteration for step in trajectory.steps]
    return Sample(
        id=trajectory.id,
        input=(
            f"Play {trajectory.profile_name} on the topic {trajectory.topic!r}: answer the "
            f"questionnaire at iterations {iterations[0]}-{iterations[-1]}, perceiving one "
            f"information flow before each iteration after the first."
        ),
        target=target,
        metadata=trajectory.to_metadata(),
    )


@task
def cogbench(
    agent: str = "coggpt",
    subset: str = "a",
    language: str = "english",
    source: str | None = None,
    revision: str | None = None,
    iterations: int | None = None,
    topics: str | list[str] | None = None,
    judge: bool = True,
    self_judge: bool = False,
    judge_chars: int | None = None,
    weights: str | None = None,
    max_tokens: int = ANSWER_TOKENS,
    memory_tokens: int = MEMORY_TOKENS,
    recall_k: int = 3,
    memory_dir: str | None = None,
    stm: str = "whole",
    chunk_size: int = 1000,
    chunk_overlap: int = 100,
    forgetting_rate: float = 0.4,
    feedback: str = "rating",
    retries: int = 3,
    kappa: str = "pooled",
    prompts: str = "authors",
    recall: str = "authors",
    explanation: str = "authors",
) -> Task:
    """CogBench with a chosen agent."""
    choice("agent", agent, sorted(AGENTS))
    choice("subset", subset, SUBSETS)
    choice("language", language, LANGUAGES)
    if iterations is not None:
        integer("iterations", iterations, 1)
    flag("judge", judge)
    flag("self_judge", self_judge)
    check_weights(weights)
    check_kappa_form(kappa)
    integer("max_tokens", max_tokens, 1)
    integer("memory_tokens", memory_tokens, 1)
    settings = AgentSettings(
        answer_tokens=max_tokens,
        reflection_tokens=max_tokens,
        distill_tokens=memory_tokens,
        update_tokens=memory_tokens,
        recall_k=recall_k,
        memory_dir=memory_dir,
        stm=stm,
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        forgetting_rate=forgetting_rate,
        feedback=feedback,
        retries=retries,
        prompts=prompts,
        recall=recall,
        explanation=explanation,
    )
    if judge_chars is not None:
        integer("judge_chars", judge_chars, 1)
    if agent == "coggpt":  # its memory's packages and the authors' prompts, found before a sample
        from cog_tasks.cogbench.agents import authors, memory

        memory.minilm_embedding_function()
        if prompts == "authors":
            authors.authors_prompts()
    if judge and eval_model() is not None:  # outside an eval, the first sample checks the roles
        check_judge_role(self_judge)
    names = None if topics is None else split_names(topics) or None  # "A,B" (-T) or a list
    with recording_reads() as reads:
        trajectories, location = load_trajectories(
            subset, language, source, revision, names, iterations
        )
    name = f"cogbench_{subset}_{language}" + ("_fixture" if location.fixture else "")
    return Task(
        dataset=MemoryDataset(
            [record_to_sample(t) for t in trajectories], name=name, location=location.description
        ),
        solver=cogbench_agent(agent, settings, judge=judge and not self_judge),
        scorer=cogbench_scorer(
            judge=judge,
            weights=weights,
            kappa=kappa,
            self_judge=self_judge,
            judge_chars=judge_chars,
        ),
        metrics=[authenticity(weights, kappa, subset), rationality(subset)],
        version=TASK_VERSION,
        metadata={
            "agent": agent,
            "method": AGENTS[agent].method,
            "subset": subset,
            "language": language,
            "data": location.description,
            "fixture_ratings": location.fixture,
            "judge": ("self" if self_judge else "role") if judge else "none",
            DATA_PROVENANCE: reads.metadata(),
        },
    )
