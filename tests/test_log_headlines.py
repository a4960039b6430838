"""Inspect's conventions: a log's first metric is its profile's first row, under the same name.

``evals_df`` and ``inspect view`` show a log's first metric as its headline; every logged
metric is named as the profile's measure of the same number, or is one of the extras each
benchmark's README lists (failure modes, breakdowns, other iterations), and none is NaN.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from cog_tasks.cli import main

#: Logged metrics that are no profile measure, by task (the READMEs' metric sections).
EXTRAS = {
    "cogeval": r"invalid_edge|loop|no_answer|suboptimal|unparseable|wrong_count|wrong_goal",
    "cogbench": r"authenticity_t\d+",
    "egosocial_static": (
        r"all|invalid|circular|circular_invalid|(circular )?(label|scenario|perspective):.+"
    ),
    "egosocial_number_guessing": r"(invalid_rate|win_rate)( level:\d)?",
}
#: The interval fields :func:`cog_tasks.common.stats.metric_values` writes beside a metric.
INTERVAL_FIELD = re.compile(r"(.+)_(n|stderr|ci_low|ci_high)")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A smoke chance profile, its Inspect logs under ``logs/``."""
    out = tmp_path_factory.mktemp("smoke")
    assert (
        main(["profile", "run", "--model", "chance", "--preset", "smoke", "--out", str(out)]) == 0
    )
    return out


@pytest.mark.slow
def test_every_log_headline_is_its_profile_first_row(smoke: Path) -> None:
    from inspect_ai.analysis import evals_df
    from inspect_ai.log import read_eval_log

    rows = json.loads((smoke / "profile.json").read_text())["rows"]
    logs = sorted(str(path) for path in smoke.glob("logs/*/*.eval"))
    frame = evals_df(logs, quiet=True)
    assert len(frame) == len(logs) == len(EXTRAS)
    for _, evaluation in frame.iterrows():
        task = evaluation["task_name"].rsplit("/", 1)[-1]
        own = [row for row in rows if row["run"]["task"].split("@")[0] == task]
        assert own, task
        assert evaluation["score_headline_metric"] == own[0]["measure"]
        assert evaluation["score_headline_value"] == pytest.approx(own[0]["value"], abs=1e-12)
        log = read_eval_log(evaluation["log"], header_only=True)
        metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
        assert not [name for name, value in metrics.items() if math.isnan(value)], task
        measures = {row["measure"] for row in own}
        for name in metrics:
            field = INTERVAL_FIELD.fullmatch(name)
            base = field[1] if field and field[1] in metrics else name
            assert base in measures or re.fullmatch(EXTRAS[task], base), (task, name)
