"""The log's metrics are the report's numbers: 4 benchmarks x (clean, epochs, errored, unreadable).

Each case runs a benchmark's seeded chance answerer on a small subset through
Inspect, then compares the log's headline metric (value and interval, as
:func:`cog_tasks.common.stats.metric_values` writes them) with the headline
the profile reads from the same log (``cog_tasks.<benchmark>.inspect.headlines``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CONDITIONS = ("clean", "epochs", "errored", "unreadable")


@dataclass(frozen=True)
class Case:
    """A benchmark's small run and its headline: one name in the log and the report."""

    task: Callable[[], Any]
    answerer: Callable[[], Any]
    measure: str
    limit: int | None = None


def _cases() -> dict[str, Case]:
    from cog_tasks.cogbench.inspect import cogbench
    from cog_tasks.cogbench.inspect.chance import ChanceRater
    from cog_tasks.cogeval.inspect import cogeval
    from cog_tasks.cogeval.inspect.chance import chance_answerer
    from cog_tasks.coglm.inspect import coglm_chat
    from cog_tasks.coglm.inspect.chance import ChanceAnswerer as CogLMChance
    from cog_tasks.egosocial.inspect import egosocial_static
    from cog_tasks.egosocial.inspect.chance import ChanceAnswerer as EgoChance

    graphs = {"graphs": "n7line", "domains": "ordRooms", "temperatures": "0", "max_tokens": 64}
    bench = {
        "agent": "cot",
        "subset": "a",
        "source": "sample",
        "iterations": 1,
        "max_tokens": 32,
        "retries": 0,
        "judge": False,
    }
    return {
        "coglm": Case(
            lambda: coglm_chat(abilities="const,early", per_ability=6),
            lambda: CogLMChance(0),
            "calibrated_acc_pooled",
        ),
        "cogeval": Case(lambda: cogeval(**graphs), lambda: chance_answerer(graphs, 0), "success"),
        "cogbench": Case(
            lambda: cogbench(**bench),
            lambda: ChanceRater(0),
            "authenticity_avg_a",
            limit=2,
        ),
        "egosocial": Case(
            egosocial_static, lambda: EgoChance(0), "static_accuracy_authors", limit=12
        ),
    }


def _faulty(inner: Any, condition: str) -> Any:
    """The chance answerer, failing its first call (errored) or every third reply (unreadable)."""
    from cog_tasks.common.scripted import ScriptedReplies

    class Faulty(ScriptedReplies):
        seed = inner.seed
        calls = 0

        def reply_to(self, messages, config):  # noqa: ANN001, ANN202
            Faulty.calls += 1
            if condition == "errored" and Faulty.calls == 1:
                raise RuntimeError("provider fault")
            if condition == "unreadable" and Faulty.calls % 3 == 0:
                return "banana"
            return inner.reply_to(messages, config)

    return Faulty()


def _run(case: Case, condition: str, log_dir: Path) -> Any:
    from inspect_ai import eval as inspect_eval
    from inspect_ai import task_with
    from inspect_ai.model import get_model
    from inspect_ai.solver import chain

    from cog_tasks.common.scripted import CHANCE_MODEL, mark_epoch

    task = case.task()
    [log] = inspect_eval(
        task_with(copy(task), solver=chain(mark_epoch(), task.solver)),
        model=get_model(CHANCE_MODEL, custom_outputs=_faulty(case.answerer(), condition)),
        log_dir=str(log_dir),
        epochs=2 if condition == "epochs" else 1,
        limit=case.limit,
        fail_on_error=False,
        display="none",
    )
    assert log.status == "success", log.error
    return log


@pytest.mark.slow
@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("bench", ["coglm", "cogeval", "cogbench", "egosocial"])
def test_the_log_metric_is_the_report_number(bench: str, condition: str, tmp_path: Path) -> None:
    from importlib import import_module

    case = _cases()[bench]
    log = _run(case, condition, tmp_path)
    if condition == "errored":
        assert any(sample.error for sample in log.samples)
    metrics = {
        name: metric.value for score in log.results.scores for name, metric in score.metrics.items()
    }
    assert not any(math.isnan(value) for value in metrics.values())
    assert next(iter(log.results.scores[0].metrics)) == case.measure  # the headline comes first
    headlines = import_module(f"cog_tasks.{bench}.inspect.headlines").headlines(log)
    (headline,) = [h for h in headlines if h.measure == case.measure]
    reported = headline.interval
    assert metrics[case.measure] == pytest.approx(reported.value, abs=1e-9)
    assert metrics[f"{case.measure}_n"] == reported.n
    if reported.defined:
        assert metrics[f"{case.measure}_ci_low"] == pytest.approx(reported.low, abs=1e-9)
        assert metrics[f"{case.measure}_ci_high"] == pytest.approx(reported.high, abs=1e-9)
    else:
        assert f"{case.measure}_ci_low" not in metrics
    if bench == "cogbench" and condition == "errored":  # counted beside, in no reply count
        from cog_tasks.cogbench.inspect.logs import agent_row, checked_runs

        (run,) = checked_runs([log])
        assert run.checked.coverage.counts["error"] == 1
        clean = log.model_copy(update={"samples": [s for s in log.samples if not s.error]})
        assert agent_row(run).counts == agent_row(checked_runs([clean])[0]).counts
