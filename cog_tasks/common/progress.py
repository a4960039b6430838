"""Progress lines for long Inspect tasks when nobody watches a terminal.

Inspect draws its progress only on a terminal; under ``nohup``, in CI or with
``display=none`` a long run (a Number Guessing game takes minutes) says nothing
until it ends. :func:`with_progress` wraps a task's solver so that, when
standard error is not a terminal, every sample (or game) writes one line to it
as it starts and one as it ends::

    cog-tasks progress: egosocial_number_guessing game 2 (epoch 1) started
    cog-tasks progress: egosocial_number_guessing game 2 (epoch 1) done in 183.2 s (1 done)

On a terminal it adds nothing: Inspect's own display is there.
"""

from __future__ import annotations

import sys
import time

from inspect_ai.solver import Generate, Solver, TaskState, chain, solver

PREFIX = "cog-tasks progress:"


def _say(line: str) -> None:
    print(f"{PREFIX} {line}", file=sys.stderr, flush=True)


@solver
def with_progress(inner: Solver | list[Solver], task: str, unit: str = "sample") -> Solver:
    """Run ``inner`` and, when standard error is not a terminal, report each sample on it.

    Args:
        inner: The task's solver, or its list of solvers (run as a chain).
        task: The task's name, for the lines (Inspect exports no public
            reader of the running sample's task).
        unit: What a sample is, in the lines (``sample``, ``game``).

    Returns:
        A solver that behaves as ``inner`` and writes a line when a sample
        starts and one when it ends (with its duration and how many ended so far).
    """
    solve_inner = chain(*inner) if isinstance(inner, list) else inner
    ended = 0

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        nonlocal ended
        if sys.stderr.isatty():
            return await solve_inner(state, generate)
        what = f"{task} {unit} {state.sample_id} (epoch {state.epoch})"
        _say(f"{what} started")
        started = time.monotonic()
        try:
            state = await solve_inner(state, generate)
        except BaseException as error:
            _say(f"{what} stopped after {time.monotonic() - started:.1f} s: {type(error).__name__}")
            raise
        ended += 1
        _say(f"{what} done in {time.monotonic() - started:.1f} s ({ended} done)")
        return state

    return solve
