"""Inspect metrics that give every key of a dict-valued score its 95 % interval."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from inspect_ai.scorer import Metric, SampleScore, metric

from cog_tasks.common.stats import cluster_mean_interval, mean_interval, metric_values


@metric
def key_intervals(
    unit: str = "item", cluster: str | None = None, names: Mapping[str, str] | None = None
) -> Metric:
    """Mean and 95 % interval of every key of dict-valued scores (``cluster``: resampled whole).

    ``names`` logs score keys under the profile's measure names, first and in its order (its
    first present key: the headline); the other keys follow in sorted order.
    """
    named = dict(names or {})
    order = list(named)

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
        for key in sorted(values, key=lambda k: (order.index(k) if k in named else len(order), k)):
            if cluster is None:
                interval = mean_interval(values[key], unit=unit)
            else:
                interval = cluster_mean_interval(values[key], groups[key], unit=unit)
            reported.update(metric_values(named.get(key, key), interval))
        return reported

    return compute
