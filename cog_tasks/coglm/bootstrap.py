"""Bootstrap confidence intervals for CogLM's pooled calibrated accuracy."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cog_tasks.coglm.metrics import calibrated_accuracy


def bootstrap_calibrated_interval(
    correct: Sequence[float],
    num_choices: Sequence[int],
    *,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the pooled calibrated accuracy.

    Items are drawn with replacement (outcome and number of options together)
    and the calibrated accuracy of each resample is computed with
    :func:`cog_tasks.coglm.metrics.calibrated_accuracy`.

    Args:
        correct: Per-item outcome (1/0, or a mean over epochs).
        num_choices: Per-item number of options.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval, e.g. 0.95.
        seed: Seed of the resampling, for reproducible intervals.

    Returns:
        ``(low, high)``.
    """
    if len(correct) != len(num_choices):
        raise ValueError(f"{len(correct)} outcomes but {len(num_choices)} choice counts")
    if not correct:
        raise ValueError("a bootstrap interval of an empty set is undefined")
    if resamples < 1 or not 0 < confidence < 1:
        raise ValueError("resamples must be positive and confidence within (0, 1)")
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, len(correct), size=(resamples, len(correct)))
    values = [
        calibrated_accuracy([correct[i] for i in draw], [num_choices[i] for i in draw])
        for draw in indices
    ]
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)
