"""Inspect metrics that give every key of a dict-valued score its 95 % interval.

Scores of cog-tasks' Inspect tasks are dicts (``{"acc": 1, "ability:const": 1}``),
one key per number. :func:`key_intervals` reports, for each key, its mean over
the samples that carry it through the statistics entry
(:mod:`cog_tasks.common.stats`, the one the reports use), written by
:func:`~cog_tasks.common.stats.metric_values`: ``<key>``, ``<key>_stderr``,
``<key>_ci_low`` and ``<key>_ci_high``, and never a NaN (a missing interval
is a missing key). The headline key comes first, so ``inspect view`` and
``evals_df`` show it. Inspect hands metrics the samples that did not error:
errored samples are out of every number here, as in the reports.
"""

from __future__ import annotations

from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, metric

from cog_tasks.common.stats import cluster_mean_interval, mean_interval, metric_values


@metric
def key_intervals(unit: str = "item", cluster: str | None = None, headline: str = "") -> Metric:
    """Mean and 95 % interval of every key of dict-valued scores.

    Args:
        unit: What a sample (or cluster) is, for the docs (``"item"``, ``"game"``).
        cluster: A metadata field whose samples move together (CogEval's
            ``task``): whole clusters are resampled. ``None``: samples are
            independent.
        headline: The key reported first (the others follow in sorted order).

    Returns:
        A metric reporting ``<key>`` with its ``_stderr``, ``_ci_low`` and ``_ci_high``.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values: dict[str, list[float]] = defaultdict(list)
        groups: dict[str, list[object]] = defaultdict(list)
        for sample in scores:
            for key, value in sample.score.value.items():  # type: ignore[union-attr]
                values[key].append(float(value))
                if cluster is not None:
                    metadata = sample.sample_metadata or {}
                    groups[key].append(metadata.get(cluster, sample.sample_id))
        reported: dict[str, float] = {}
        for key in sorted(values, key=lambda name: (name != headline, name)):
            if cluster is None:
                interval = mean_interval(values[key], unit=unit)
            else:
                interval = cluster_mean_interval(values[key], groups[key], unit=unit)
            reported.update(metric_values(key, interval))
        return reported

    return compute
