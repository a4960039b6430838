"""What every task sends is pinned to its version: a changed prompt, item or setting bumps it.

Each probe is one task with the arguments a profile preset gives it (and CogLM's chain-of-
cognition rationales, hidden and masked, of the authors' 3 x 1,220 replies); its digest covers
every sample's id, input, target, choices and metadata and the task's generate settings. A change
without a version bump fails; ``python tests/common/test_task_inputs.py --record`` records
digests at new versions and refuses to change a recorded one.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cog_tasks.benchmarks import specs
from cog_tasks.common.runs import text_sha256
from cog_tasks.common.settings import local_data_dir
from cog_tasks.common.spec import BenchmarkSpec

INPUTS = Path(__file__).with_name("task_inputs.json")
"""Probe key ("task@version {args}") -> digest of what the task sends."""


def probes() -> list[tuple[BenchmarkSpec, str, dict[str, Any]]]:
    """Each benchmark's tasks with the arguments of each of its presets' steps, once each."""
    found: dict[tuple[str, str], tuple[BenchmarkSpec, str, dict[str, Any]]] = {}
    for spec in specs():
        for steps in spec.presets.values():
            for step in steps:
                args = dict(step.task_args)
                found.setdefault((step.task, _args_key(args)), (spec, step.task, args))
    return list(found.values())


def _args_key(args: dict[str, Any]) -> str:
    return json.dumps(args, sort_keys=True, default=str)


def _message(value: Any) -> Any:
    return value if isinstance(value, str) else [(message.role, message.text) for message in value]


def _digest(parts: Any) -> str:
    return text_sha256(json.dumps(parts, sort_keys=True, default=str))[:16]


def task_digest(task: Any) -> str:
    """The digest of a built Inspect task's samples and generate settings."""
    samples = [
        [sample.id, _message(sample.input), sample.target, sample.choices, sample.metadata]
        for sample in task.dataset
    ]
    return _digest([samples, task.config.model_dump(exclude_none=True)])


def _coc_rows() -> Iterator[tuple[str, list[str], str]]:
    from cog_tasks.coglm.predictions import iter_authors_outputs

    data = local_data_dir()
    for path in sorted(data.glob("coglm/result/llama-2-*-chat/result.json") if data else ()):
        for _, row in iter_authors_outputs(path):
            yield str(row["prediction"] or ""), row["choices"], row["question"]


def coc_digest() -> str | None:
    """The digest of the rationales ``coc_rationale=hidden|masked`` shows, ``None`` without data."""
    from cog_tasks.coglm.rationale import shown_rationale

    rows = list(_coc_rows())
    shown = [
        shown_rationale(reply, choices, form, question)
        for reply, choices, question in rows
        for form in ("hidden", "masked")
    ]
    return _digest(shown) if rows else None


def current(spec: BenchmarkSpec, name: str, args: dict[str, Any]) -> tuple[str, str] | None:
    """The probe's key and digest now; ``None`` where its items need the network."""
    from cog_tasks.common.sources import DataSourceError

    try:
        task = spec.task(name, **args)
    except DataSourceError:
        return None
    return f"{name}@{task.version} {_args_key(args)}", task_digest(task)


def _coc_key() -> str:
    from cog_tasks.coglm.inspect.version import TASK_VERSION

    return f"coglm_chat@{TASK_VERSION} coc"


@pytest.mark.parametrize(
    ("spec", "name", "args"), probes(), ids=[f"{n} {_args_key(a)}" for _, n, a in probes()]
)
def test_a_task_that_sends_something_else_has_bumped_its_version(
    spec: BenchmarkSpec, name: str, args: dict[str, Any]
) -> None:
    probe = current(spec, name, args)
    if probe is None:
        pytest.skip(f"{name} {_args_key(args)}: its items need the network")
    key, digest = probe
    recorded = json.loads(INPUTS.read_text()).get(key)
    assert recorded == digest, (
        f"{key} sends {'other' if recorded else 'unrecorded'} items or settings: bump its "
        "version, with the change in its changelog, then run "
        "`python tests/common/test_task_inputs.py --record`"
    )


@pytest.mark.slow
def test_coc_rationales_change_only_with_a_version() -> None:
    digest = coc_digest()
    if digest is None:
        pytest.skip("no CogLM released replies under $COG_TASKS_DATA/coglm/result")
    assert json.loads(INPUTS.read_text()).get(_coc_key()) == digest, (
        "chain of cognition shows other rationales: bump coglm_chat, then run "
        "`python tests/common/test_task_inputs.py --record`"
    )


def record() -> int:
    """Record every probe at its task's version; a changed digest needs a bump first."""
    recorded = json.loads(INPUTS.read_text()) if INPUTS.exists() else {}
    now = dict(probe for spec, name, args in probes() if (probe := current(spec, name, args)))
    if (coc := coc_digest()) is not None:
        now[_coc_key()] = coc
    changed = [key for key, digest in now.items() if recorded.get(key, digest) != digest]
    if changed:
        print(f"sends something else at the same version: {', '.join(changed)}; bump first")
        return 2
    INPUTS.write_text(json.dumps({**recorded, **now}, indent=0, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    sys.exit(record())
