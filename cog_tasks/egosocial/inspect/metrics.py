"""Inspect metrics for EgoSocialArena's dict-valued and multiple-choice scores."""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, metric


@metric
def invalid_answer_rate() -> Metric:
    """Share of samples whose reply held no parseable answer (scored as wrong)."""

    def compute(scores: list[SampleScore]) -> float:
        if not scores:
            return 0.0
        return sum(not sample.score.answer for sample in scores) / len(scores)

    return compute


@metric
def ratio_of_sums(numerator: str, denominator: str, label: str) -> Metric:
    """``sum(value[numerator]) / sum(value[denominator])`` over samples, reported as ``label``.

    Samples without any question (denominator 0) add nothing, so a rate is
    never averaged over undefined per-sample ratios. NaN when the total
    denominator is 0.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        top = sum(float(sample.score.value[numerator]) for sample in scores)  # type: ignore[index]
        bottom = sum(float(sample.score.value[denominator]) for sample in scores)  # type: ignore[index]
        return {label: top / bottom if bottom else float("nan")}

    return compute


@metric
def grouped_key_mean(key: str, group_key: str, prefix: str = "") -> Metric:
    """Mean of ``value[key]`` per ``metadata[group_key]``.

    Reported as ``<key>_<prefix><group>`` for each group, plus ``<key>_all``.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[float]] = defaultdict(list)
        for sample in scores:
            value = float(sample.score.value[key])  # type: ignore[index]
            group = (sample.sample_metadata or {}).get(group_key)
            if group is None:
                raise ValueError(f"sample {sample.sample_id} has no {group_key!r} metadata")
            groups[f"{prefix}{group}"].append(value)
            groups["all"].append(value)
        return {f"{key}_{name}": sum(values) / len(values) for name, values in groups.items()}

    return compute


@metric
def key_means() -> Metric:
    """Mean of every key of dict-valued scores, over the samples that have the key.

    Static items score ``{"all": 1, "label:Belief": 1, "scenario:daily_life": 1, ...}``,
    so this reports overall accuracy (``all``) and accuracy per label, per
    scenario and per perspective. Epochs are reduced per key before this runs.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[float]] = defaultdict(list)
        for sample in scores:
            for key, value in sample.score.value.items():  # type: ignore[union-attr]
                groups[key].append(float(value))
        return {key: sum(values) / len(values) for key, values in sorted(groups.items())}

    return compute


@metric
def key_stderr(key: str) -> Metric:
    """Standard error of the mean of ``value[key]`` over samples (``<key>_stderr``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = [float(sample.score.value[key]) for sample in scores]  # type: ignore[index]
        if len(values) < 2:
            return {f"{key}_stderr": 0.0}
        mean = sum(values) / len(values)
        variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
        return {f"{key}_stderr": math.sqrt(variance / len(values))}

    return compute
