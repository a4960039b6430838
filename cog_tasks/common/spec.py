"""A benchmark's one declaration: what every command learns about it from the registry.

Each benchmark package holds one :class:`BenchmarkSpec` in ``<benchmark>/spec.py``;
the registry (:mod:`cog_tasks.benchmarks`) lists them, and the CLI, the
profile, the cost estimate, the views, the catalog, the data commands and the
parametrised tests iterate it. Callables are named as ``"module:attribute"``
references and imported only when used, so listing the registry
(``cog-tasks --help``) imports no numpy or framework.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def load(reference: str) -> Any:
    """Import what a ``"module:attribute"`` reference names.

    Args:
        reference: ``"package.module:attribute"``.

    Returns:
        The attribute.
    """
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class TrivialStrategy:
    """A strategy without cognition, scored on the model row's own units.

    ``score`` names a function ``(units, run) -> {measure: {unit: value}}``:
    given the unit ids of a model's row and the model run's
    :class:`~cog_tasks.common.runs.RunIdentity` (its task arguments and seed),
    it returns the per-unit values the strategy earns on exactly those units,
    in the form the model's own per-unit values take (a number, or a
    ``(numerator, denominator)`` pair), for each headline measure it applies to.
    The pipeline (:func:`cog_tasks.common.pipeline.best_trivial`) computes the
    headline statistic over them and the model's paired difference from them.

    Attributes:
        name: What it plays, in a few words (``"constant A"``, ``"Choice: 1 every round"``).
        score: ``"module:function"`` reference of the scoring function.
    """

    name: str
    score: str


@dataclass(frozen=True)
class Step:
    """One Inspect task of a profile preset.

    Attributes:
        benchmark: The benchmark it measures.
        task: Inspect task name.
        task_args: Task arguments.
        limit: Samples to evaluate (``None``: all).
        epochs: Repeats of every sample.
    """

    benchmark: str
    task: str
    task_args: Mapping[str, Any] = field(default_factory=dict)
    limit: int | None = None
    epochs: int = 1


@dataclass(frozen=True)
class DataSource:
    """How ``cog-tasks data build|push`` writes a benchmark's Hub-shaped folder.

    Either ``write`` (a ``(folder) -> summary line`` function), or ``build``
    and ``card`` (a ``build_dataset_dict()`` and ``dataset_card(built)`` pair,
    with an optional ``check(built)`` that refuses a partial copy).

    Attributes:
        description: What the dataset holds, for ``--help``.
        write: ``"module:function"`` writing the folder itself.
        build: ``"module:function"`` returning a ``DatasetDict`` (or configs of them).
        card: ``"module:function"`` returning the dataset card.
        check: ``"module:function"`` raising on a dataset that must not be written.
    """

    description: str
    write: str = ""
    build: str = ""
    card: str = ""
    check: str = ""


@dataclass(frozen=True)
class BenchmarkSpec:
    """Everything a benchmark declares once.

    Attributes:
        name: Stable name (``coglm``), the CLI group, the package folder and
            the profile's benchmark column.
        title: Human title with its authors (``"CogLM (Wang et al.)"``).
        unit: The independent unit its intervals resample (``item``, ``task``,
            ``trajectory``, ``game``, ``match``).
        tasks: Its Inspect task names, found as attributes of ``task_module``.
        task_module: Module whose attributes are its ``@task`` functions.
        headlines: ``"module:function"``: the headline rows of one Inspect
            log (``(log) -> list[Headline]``), through :mod:`cog_tasks.common.pipeline`.
        paper: ``"module:attribute"``: its published rows (``tuple[PaperRow, ...]``).
        chance: ``"module:attribute"``: its seeded chance answerer's factory,
            ``(seed) -> ScriptedReplies``, or ``(task_args, seed)`` where
            ``chance_reads_args``.
        chance_reads_args: Whether the chance factory takes the task arguments.
        trivial: Trivial strategies shown beside every headline: the tuple,
            or a ``"module:attribute"`` reference to it (``"<package>.trivial:STRATEGIES"``,
            imported only when a profile scores them).
        presets: Per profile preset (``smoke``, ``standard``, ``full``), its steps.
        lm_eval_task: The lm-eval task a profile of local weights runs instead
            of the Inspect steps (CogLM's log-likelihood protocol); ``""``: none.
        request_turns: ``"module:function"``: ``(task, task_args, metadata) ->
            list[int]``, the characters each model request of one sample adds
            (the cost estimate); ``""``: one request a sample.
        judged_tasks: Tasks that cannot run without a judge role.
        self_judges: Whether, without a judge role, its judged steps fall back
            to the model judging itself (the step then gets ``self_judge=True``
            and its identity says so); a step with ``judge=False`` is left as it is.
        data: Its ``cog-tasks data`` source (``None``: no Hub dataset).
        cli: ``"module"`` whose ``register(subparsers)`` adds its command
            group (its ``report``, which renders its own tables and figures).
    """

    name: str
    title: str
    unit: str
    tasks: tuple[str, ...] = ()
    task_module: str = ""
    headlines: str = ""
    paper: str = ""
    chance: str = ""
    chance_reads_args: bool = False
    trivial: tuple[TrivialStrategy, ...] | str = ()
    presets: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    lm_eval_task: str = ""
    request_turns: str = ""
    judged_tasks: tuple[str, ...] = ()
    self_judges: bool = False
    data: DataSource | None = None
    cli: str = ""

    def task(self, name: str, **task_args: Any) -> Any:
        """Build one of its Inspect tasks (imports the framework)."""
        return getattr(importlib.import_module(self.task_module), name)(**task_args)

    def chance_answerer(self, task_args: Mapping[str, Any], seed: int) -> Any:
        """Its seeded chance answerer for a task run with ``task_args``."""
        factory = load(self.chance)
        return factory(dict(task_args), seed) if self.chance_reads_args else factory(seed)

    def strategies(self) -> tuple[TrivialStrategy, ...]:
        """Its trivial strategies (imported where ``trivial`` is a reference)."""
        return tuple(load(self.trivial)) if isinstance(self.trivial, str) else self.trivial

    def paper_rows(self) -> tuple[Any, ...]:
        """Its published rows."""
        return tuple(load(self.paper)) if self.paper else ()
