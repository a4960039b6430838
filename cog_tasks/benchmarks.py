"""The registry: every benchmark's :class:`~cog_tasks.common.spec.BenchmarkSpec`, in order."""

from __future__ import annotations

from cog_tasks.cogbench.spec import SPEC as COGBENCH
from cog_tasks.cogeval.spec import SPEC as COGEVAL
from cog_tasks.coglm.spec import SPEC as COGLM
from cog_tasks.common.spec import BenchmarkSpec
from cog_tasks.egosocial.spec import SPEC as EGOSOCIAL

REGISTRY: dict[str, BenchmarkSpec] = {
    spec.name: spec for spec in (COGLM, COGEVAL, COGBENCH, EGOSOCIAL)
}
"""The benchmarks by name, in the order every view lists them."""


def specs() -> list[BenchmarkSpec]:
    """The registered benchmarks, in order."""
    return list(REGISTRY.values())
