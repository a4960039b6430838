"""Inspect metrics that give every key of a dict-valued score its 95 % interval."""

from __future__ import annotations

from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, metric

from cog_tasks.common.stats import cluster_mean_interval, mean_interval, metric_values


@metric
def key_intervals(unit: str = "item", cluster: str | None = None, headline: str = "") -> Metric:
    """Mean and 95 % interval of every key of dict-valued scores (``cluster``: resampled whole)."""

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
