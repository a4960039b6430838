"""Progress lines on standard error for long Inspect tasks when nobody watches a terminal."""

from __future__ import annotations

import sys
import time

from inspect_ai.solver import Generate, Solver, TaskState, chain, solver

PREFIX = "cog-tasks progress:"


def _say(line: str) -> None:
    print(f"{PREFIX} {line}", file=sys.stderr, flush=True)


@solver
def with_progress(inner: Solver | list[Solver], task: str, unit: str = "sample") -> Solver:
    """Run ``inner`` and, when standard error is not a terminal, report each sample on it."""
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
