"""Run identity: runs that differ in a setting are separate rows; seeds pool only on request."""

from __future__ import annotations

from cog_tasks.common.pipeline import row_labels
from cog_tasks.common.runs import (
    RunIdentity,
    distinguishing_labels,
    group_runs,
)


def identity(feedback: str, seed: int | None = 0, judge: str | None = None) -> RunIdentity:
    return RunIdentity.of(
        "cogbench@2.0.0",
        "hf/smollm2",
        roles={"judge": judge} if judge else None,
        arguments={"agent": "react", "feedback": feedback},
        seed=seed,
    )


def test_different_settings_are_different_rows_with_telling_labels() -> None:
    runs = [identity("none"), identity("direction")]
    groups = group_runs(runs, lambda run: run)
    assert len(groups) == 2 and not any(group.pooled for group in groups)
    assert distinguishing_labels([group.identity for group in groups]) == [
        "hf/smollm2 feedback=none",
        "hf/smollm2 feedback=direction",
    ]


def test_judge_is_part_of_the_identity() -> None:
    labels = distinguishing_labels([identity("none"), identity("none", judge="openai/gpt-4o")])
    assert labels == ["hf/smollm2", "hf/smollm2 role:judge=openai/gpt-4o"]


def test_seeds_pool_only_when_asked_and_the_row_says_so() -> None:
    runs = [identity("none", seed=1), identity("none", seed=2), identity("direction", seed=1)]
    assert len(group_runs(runs, lambda run: run)) == 3
    pooled = group_runs(runs, lambda run: run, pool_seeds=True)
    assert [len(group.runs) for group in pooled] == [2, 1]
    assert pooled[0].identity.seed is None
    assert pooled[0].pooling_note() == "pooled 2 runs of one identity (seeds: 1, 2)"
    assert pooled[1].identity.seed == "1" and pooled[1].pooling_note() == ""


def test_repeated_identities_stay_apart_and_are_numbered() -> None:
    same = [identity("none"), identity("none")]
    assert len(group_runs(same, lambda run: run)) == 2
    assert distinguishing_labels(same) == ["hf/smollm2 #1", "hf/smollm2 #2"]


def test_identity_as_json() -> None:
    assert identity("none", judge="j").as_dict() == {
        "task": "cogbench@2.0.0",
        "model": "hf/smollm2",
        "roles": {"judge": "j"},
        "arguments": {"agent": "react", "feedback": "none"},
        "seed": "0",
    }


def test_only_runs_sharing_a_key_are_relabelled_and_only_among_themselves() -> None:
    runs = [identity("none", seed=1), identity("direction"), identity("none", seed=2)]
    keys = ["react", "react", "cot"]
    # The two "react" runs differ in feedback and seed; the "cot" run keeps its model.
    assert row_labels(runs, keys) == [
        "hf/smollm2 feedback=none seed=1",
        "hf/smollm2 feedback=direction seed=0",
        "hf/smollm2",
    ]
    assert row_labels(runs, ["a", "b", "c"]) == ["hf/smollm2"] * 3
    assert row_labels(runs, ["a", "b", "c"], models=["x", "y", "z"]) == ["x", "y", "z"]
    assert row_labels([identity("none")] * 2, ["x", "x"]) == ["hf/smollm2 #1", "hf/smollm2 #2"]
    # One key for all: the labels of every row told apart.
    assert row_labels(runs) == distinguishing_labels(runs)
