"""Inspect metrics that give every key of a dict-valued score its 95 % interval.

Scores of cog-tasks' Inspect tasks are dicts (``{"all": 1, "ability:const": 1}``),
one key per headline number. :func:`key_intervals` reports, for each key, its
mean over the samples that carry it and ``<key>_ci_low`` / ``<key>_ci_high``
from :mod:`cog_tasks.common.stats` (Wilson for a proportion over fewer than 30
samples, a seeded bootstrap otherwise; whole clusters are resampled where the
samples are not independent).
"""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, metric

from cog_tasks.common.stats import cluster_mean_interval, mean_interval


@metric
def key_intervals(unit: str = "item", cluster: str | None = None) -> Metric:
    """Mean and 95 % interval of every key of dict-valued scores.

    Args:
        unit: What a sample (or cluster) is, for the docs (``"item"``, ``"game"``).
        cluster: A metadata field whose samples move together (CogEval's
            ``task``): whole clusters are resampled. ``None``: samples are
            independent.

    Returns:
        A metric reporting ``<key>``, ``<key>_ci_low`` and ``<key>_ci_high`` per key.
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
        for key in sorted(values):
            if cluster is None:
                # A share (every value within [0, 1], e.g. epoch means of 0/1 scores)
                # keeps a t interval over few samples inside [0, 1], as the reports do.
                within = all(0.0 <= value <= 1.0 for value in values[key])
                bounds = (0.0, 1.0) if within else (-math.inf, math.inf)
                interval = mean_interval(values[key], unit=unit, bounds=bounds)
            else:
                interval = cluster_mean_interval(values[key], groups[key], unit=unit)
            reported[key] = interval.value
            reported[f"{key}_ci_low"] = interval.low
            reported[f"{key}_ci_high"] = interval.high
        return reported

    return compute
