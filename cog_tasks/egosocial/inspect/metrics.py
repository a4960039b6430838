"""Inspect metrics for EgoSocialArena: every number with its 95 % interval over samples (units)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, metric

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.stats import metric_values, ratio_interval


@metric
def grouped_key_intervals(keys: Sequence[str], groups: Sequence[str], unit: str) -> Metric:
    """Mean and interval of score ``keys`` per metadata value (``label:Belief``)."""
    intervals = key_intervals(unit=unit)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        expanded = []
        for sample in scores:
            value = sample.score.value
            metadata = sample.sample_metadata or {}
            broken: dict[str, float] = {}
            for key in keys:
                if key not in value:  # type: ignore[operator]
                    continue
                prefix = "" if key == "all" else f"{key} "
                for group in groups:
                    if metadata.get(group) is not None:
                        broken[f"{prefix}{group}:{metadata[group]}"] = value[key]  # type: ignore[index]
            expanded.append(
                SampleScore(
                    score=Score(value=broken),
                    sample_id=sample.sample_id,
                    sample_metadata=sample.sample_metadata,
                )
            )
        return intervals(expanded)  # type: ignore[return-value]

    return compute


@metric
def ratio_intervals(pairs: Sequence[tuple[str, str, str]], unit: str) -> Metric:
    """``sum(numerator) / sum(denominator)`` over samples with a nonzero denominator."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        reported: dict[str, float] = {}
        for numerator, denominator, name in pairs:
            tops, bottoms = [], []
            for sample in scores:
                value = sample.score.value
                if float(value[denominator]) > 0:  # type: ignore[index]
                    tops.append(float(value[numerator]))  # type: ignore[index]
                    bottoms.append(float(value[denominator]))  # type: ignore[index]
            interval = ratio_interval(list(zip(tops, bottoms, strict=True)), unit=unit)
            reported.update(metric_values(name, interval))
        return reported

    return compute


@metric
def grouped_means(key: str, group: str, unit: str) -> Metric:
    """Mean and interval of ``value[key]`` per ``metadata[group]``: ``<key>_<group value>``."""
    intervals = key_intervals(unit=unit)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        expanded = []
        for sample in scores:
            name = (sample.sample_metadata or {}).get(group)
            if name is None:
                raise ValueError(f"sample {sample.sample_id} has no {group!r} metadata")
            value = sample.score.value[key]  # type: ignore[index]
            expanded.append(
                SampleScore(score=Score(value={f"{key}_{name}": value}), sample_id=sample.sample_id)
            )
        return intervals(expanded)  # type: ignore[return-value]

    return compute
