"""EgoSocialArena's Inspect metrics (95 % intervals over units) and its profile measures' names."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, metric

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.stats import metric_values, ratio_interval

BELIEF_MEASURES = {
    key: f"blackjack_{key}" for key in ("self_belief", "external_belief", "judge_unparsed_rate")
}
HOLDEM_STYLE = "holdem_style_accuracy"
HOLDEM_BELIEFS = "holdem_belief_accuracy"
#: Each source's static accuracy (plain, then circular) under its measure name.
STATIC_MEASURES = {
    f"{prefix}source:{source}": f"static_{prefix.replace(' ', '_')}accuracy_{source}"
    for prefix in ("", "circular ")
    for source in ("authors", "generated")
}


def guessing_measure(level: str = "") -> str:
    """The Number Guessing hit rate over every level, or over one (``L1``)."""
    return "number_guessing_hit_rate" + (f"_{level}" if level else "")


def _renamed_intervals(
    unit: str, rename: Callable[[SampleScore], dict[str, float]], names: Mapping[str, str]
) -> Metric:
    """Intervals of the values ``rename`` makes of each score, named as by ``key_intervals``."""
    intervals = key_intervals(unit=unit, names=names)

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
def grouped_key_intervals(
    keys: Sequence[str], groups: Sequence[str], unit: str, names: Mapping[str, str] | None = None
) -> Metric:
    """Mean and interval of ``keys`` per metadata value (``label:Belief``); ``names`` first."""

    def rename(sample: SampleScore) -> dict[str, float]:
        value, metadata = sample.score.value, sample.sample_metadata or {}
        broken: dict[str, float] = {}
        for key in (key for key in keys if key in value):  # type: ignore[operator]
            prefix = "" if key == "all" else f"{key} "
            for group in groups:
                if metadata.get(group) is not None:
                    broken[f"{prefix}{group}:{metadata[group]}"] = value[key]  # type: ignore[index]
        return broken

    return _renamed_intervals(unit, rename, names or {})


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
def grouped_means(key: str, group: str, unit: str, total: str = "") -> Metric:
    """Mean and interval of ``value[key]`` per group (``<key>_<group>``), ``total``'s over all."""

    def rename(sample: SampleScore) -> dict[str, float]:
        name = (sample.sample_metadata or {}).get(group)
        if name is None:
            raise ValueError(f"sample {sample.sample_id} has no {group!r} metadata")
        value = sample.score.value[key]  # type: ignore[index]
        return {f"{key}_{name}": value} | ({total: value} if total else {})

    return _renamed_intervals(unit, rename, {total: total})
