"""CogBench (Lv et al.): cognitive dynamics of agents over information flows.

One sample is one (topic, profile) trajectory. The agent starts from the
profile, answers the 10-question Likert questionnaire at iteration 0, then
perceives one information flow per iteration (an article in CogBench-a, ten
short-video transcripts in CogBench-v) and answers again. Authenticity is
Cohen's κ between its ratings and the human majority ratings, pooled per
iteration over all samples; Rationality is a judge model's 1-5 score of the
reasoning.

Usage::

    inspect eval cog_tasks/cogbench -T agent=coggpt -T subset=a --model openai/gpt-4o \
        --model-role judge=openai/gpt-4o
    inspect eval cog_tasks/cogbench -T source=sample -T agent=cot -T iterations=1 \
        -T self_judge=true --model hf/smollm2 -M model_path=$(cog-tasks model-path smollm2)
    (Rationality needs --model-role judge=<model>, -T self_judge=true or -T judge=false)
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from cog_tasks.cogbench.agents import (
    AGENTS,
    ANSWER_TOKENS,
    EXPLANATION_MODES,
    FEEDBACK_MODES,
    MEMORY_TOKENS,
    PROMPT_MODES,
    RECALL_MODES,
    STM_MODES,
    AgentSettings,
)
from cog_tasks.cogbench.inspect.scorer import authenticity, cogbench_scorer, rationality
from cog_tasks.cogbench.inspect.solver import cogbench_agent
from cog_tasks.cogbench.inspect.version import TASK_VERSION
from cog_tasks.cogbench.loader import LANGUAGES, SUBSETS, load_trajectories
from cog_tasks.cogbench.metrics import check_kappa_form, check_weights
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.params import choice, flag, fraction, integer, split_names
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads


def _topic_names(value: str | Sequence[str] | None) -> list[str] | None:
    """Accept ``"A,B"`` (as ``-T`` gives it) or a list of topic names."""
    if value is None:
        return None
    return [part for part in split_names(value) if part] or None


def record_to_sample(trajectory: Trajectory) -> Sample:
    """One sample per (topic, profile) trajectory, with a stable id.

    Args:
        trajectory: The trajectory.

    Returns:
        A sample whose metadata carries the whole trajectory (profile, flows,
        questions, human ratings) and whose target lists the human ratings.
    """
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
    """CogBench with a chosen agent.

    Args:
        agent: ``coggpt``, ``cot``, ``react`` or ``reflexion``.
        subset: ``a`` (articles) or ``v`` (short videos).
        language: ``english`` or ``chinese``.
        source: ``None`` (``$COG_TASKS_DATA/cogbench`` if present, else the
            Hub at the pinned revision), ``hub``, ``sample`` (bundled fixture
            set: fixture ratings, not human data) or a data folder.
        revision: Hub revision override.
        iterations: Run iterations ``0..iterations`` only.
        topics: Topic names to keep (comma-separated or a list).
        judge: Score Rationality with the model bound to the ``judge`` role
            (``--model-role judge=...``); a run without that role is refused
            unless ``self_judge`` is true.
        self_judge: Let the evaluated model judge its own answers (cheap and
            lenient; reports label it ``self``).
        judge_chars: Show the judge at most this many characters of flows
            (newest first; the prompt says what was cut). Default: every flow
            read so far, whole; set it for a judge with a small context.
        weights: κ weighting: ``None`` (paper), ``linear`` or ``quadratic``.
        max_tokens: Token limit of answers and reflections (512: room for the
            substantial explanation ``explanation=authors`` asks for).
        memory_tokens: Token limit of CogGPT's distillation and profile update
            (4,096: a complete distillation of a 2,000-word article fits).
        recall_k: CogGPT long-term memory items recalled per question.
        memory_dir: Persist CogGPT's memory here (default: in memory only).
        stm: CogGPT's short-term memory: ``whole`` (one distillation call per
            flow, the authors' code) or ``chunked`` (one call per chunk).
        chunk_size: Characters per chunk with ``stm=chunked``.
        chunk_overlap: Characters shared by consecutive chunks with ``stm=chunked``.
        forgetting_rate: Share of newly distilled knowledge CogGPT forgets.
        feedback: What ReAct and Reflexion are told about last round:
            ``rating`` (the human rating itself, our reading of the paper's
            starred agents),
            ``direction`` (too high / too low / right) or ``none``.
        retries: Extra asks when an answer has no readable rating, or when a
            CogGPT distillation is not in the asked-for form.
        kappa: ``pooled`` (κ over all questions of an iteration, as the
            authors' code computes it and their tables show) or
            ``per_question`` (κ per question, averaged: the paper's Eq. 2).
        prompts: CogGPT's prompts: ``authors`` (the authors' three prompts,
            read at run time from KwaiKEG/CogGPT) or ``ours``.
        recall: CogGPT's recall: ``authors`` (of the ``recall_k + 1`` nearest
            statements, the ``recall_k`` farthest, as the authors' code) or
            ``nearest`` (the ``recall_k`` nearest).
        explanation: What a rating request asks to explain, for the baselines
            (and CogGPT with ``prompts=ours``): ``authors`` (a substantial
            first-person explanation, as the authors' grade prompt asks of
            CogGPT) or ``brief`` (one or two sentences, task v3's request).

    Returns:
        The task.
    """
    choice("agent", agent, sorted(AGENTS))
    choice("subset", subset, SUBSETS)
    choice("language", language, LANGUAGES)
    if iterations is not None:
        integer("iterations", iterations, 1)
    flag("judge", judge)
    flag("self_judge", self_judge)
    check_weights(weights)
    check_kappa_form(kappa)
    choice("feedback", feedback, FEEDBACK_MODES)
    choice("stm", stm, STM_MODES)
    choice("prompts", prompts, PROMPT_MODES)
    choice("recall", recall, RECALL_MODES)
    choice("explanation", explanation, EXPLANATION_MODES)
    for name, value, least in (
        ("max_tokens", max_tokens, 1),
        ("memory_tokens", memory_tokens, 1),
        ("recall_k", recall_k, 1),
        ("chunk_size", chunk_size, 1),
        ("chunk_overlap", chunk_overlap, 0),
        ("retries", retries, 0),
    ):
        integer(name, value, least)
    fraction("forgetting_rate", forgetting_rate)
    if judge_chars is not None:
        integer("judge_chars", judge_chars, 1)
    with recording_reads() as reads:
        trajectories, location = load_trajectories(
            subset, language, source, revision, _topic_names(topics), iterations
        )
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
        metrics=[authenticity(weights, kappa), rationality()],
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
