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

    ``names``: keys logged first, in its order, under the profile's measure names; then the rest.
    """
    rank = {key: index for index, key in enumerate(names or {})}

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
        for key in sorted(values, key=lambda k: (rank.get(k, len(rank)), k)):
            if cluster is None:
                interval = mean_interval(values[key], unit=unit)
            else:
                interval = cluster_mean_interval(values[key], groups[key], unit=unit)
            reported.update(metric_values((names or {}).get(key, key), interval))
        return reported

    return compute
