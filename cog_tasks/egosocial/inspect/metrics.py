"""Inspect metrics for EgoSocialArena: every number with its 95 % interval over samples (units)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, metric

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.stats import metric_values, ratio_interval


def _renamed_intervals(unit: str, rename: Callable[[SampleScore], dict[str, float]]) -> Metric:
    """Intervals of the values ``rename`` makes of each sample's score."""
    intervals = key_intervals(unit=unit)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        expanded = [
            SampleScore(
                score=Score(value=rename(sample)),
                sample_id=sample.sample_id,
                sample_metadata=sample.sample_metadata,
            )
            for sample in scores
        ]
        return intervals(expanded)  # type: ignore[return-value]

    return compute


@metric
def grouped_key_intervals(keys: Sequence[str], groups: Sequence[str], unit: str) -> Metric:
    """Mean and interval of score ``keys`` per metadata value (``label:Belief``)."""

    def rename(sample: SampleScore) -> dict[str, float]:
        value, metadata = sample.score.value, sample.sample_metadata or {}
        broken: dict[str, float] = {}
        for key in (key for key in keys if key in value):  # type: ignore[operator]
            prefix = "" if key == "all" else f"{key} "
            for group in groups:
                if metadata.get(group) is not None:
                    broken[f"{prefix}{group}:{metadata[group]}"] = value[key]  # type: ignore[index]
        return broken

    return _renamed_intervals(unit, rename)


@metric
def ratio_intervals(pairs: Sequence[tuple[str, str, str]], unit: str) -> Metric:
    """``sum(numerator) / sum(denominator)`` over samples with a nonzero denominator."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        reported: dict[str, float] = {}
        for numerator, denominator, name in pairs:
            values = [sample.score.value for sample in scores]
            counted = [
                (float(value[numerator]), float(value[denominator]))  # type: ignore[index]
                for value in values
                if float(value[denominator]) > 0  # type: ignore[index]
            ]
            reported.update(metric_values(name, ratio_interval(counted, unit=unit)))
        return reported

    return compute


@metric
def grouped_means(key: str, group: str, unit: str) -> Metric:
    """Mean and interval of ``value[key]`` per ``metadata[group]``: ``<key>_<group value>``."""

    def rename(sample: SampleScore) -> dict[str, float]:
        name = (sample.sample_metadata or {}).get(group)
        if name is None:
            raise ValueError(f"sample {sample.sample_id} has no {group!r} metadata")
        return {f"{key}_{name}": sample.score.value[key]}  # type: ignore[index]

    return _renamed_intervals(unit, rename)
