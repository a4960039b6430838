"""CogEval's trivial strategies are scored on exactly the model row's tasks."""

from __future__ import annotations

import pytest

from cog_tasks.cogeval.generator import generate_items
from cog_tasks.cogeval.headlines import BALANCED, SUCCESS, declared_items
from cog_tasks.cogeval.published import UNSCORABLE
from cog_tasks.cogeval.trivial import STRATEGIES, start_alone
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import load

ARGS = {"graphs": "n7tree", "domains": "unordSpatial", "temperatures": "0"}


@pytest.mark.parametrize("source", ["published", "generated"])  # the cpu preset's is generated
def test_every_strategy_scores_the_rows_tasks_and_measures(source: str) -> None:
    arguments = {**ARGS, "source": source}
    run = RunIdentity.of("cogeval@4.1.0", "m", arguments=arguments)
    tasks = sorted({task for _, task, _ in declared_items(arguments)})
    row = tasks[:5]
    for strategy in STRATEGIES:
        scored = load(strategy.score)(row, run)
        assert set(scored[SUCCESS]) == set(row) == set(scored[BALANCED]), strategy.name
        per_condition = set().union(
            *(set(v) for k, v in scored.items() if k.startswith("success_") and k != BALANCED)
        )
        assert per_condition == set(row)


def test_the_start_alone_wins_the_first_move_items_the_audit_leaves_out() -> None:
    kept = {**ARGS, "unscorable": "true"}
    flagged = {i for i in UNSCORABLE if i.startswith("n7tree.unordSpatial.") and "pythia-20b" in i}
    tasks = sorted({task for item, task, _ in declared_items(kept) if item in flagged})
    scored = start_alone(tasks, RunIdentity.of("cogeval@4.1.0", "m", arguments=kept))[SUCCESS]
    default = start_alone(tasks, RunIdentity.of("cogeval@4.1.0", "m", arguments=ARGS))[SUCCESS]
    for task in tasks:
        assert scored[task][1] == default[task][1] + 1  # the flagged prompt, at one temperature
        assert scored[task][0] == pytest.approx(default[task][0] + 1)  # and the start alone wins it


def test_a_strategy_generates_the_item_set_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from cog_tasks.cogeval import headlines, trivial

    calls: list[dict] = []

    def counted(**kwargs):
        calls.append(kwargs)
        return generate_items(**kwargs)

    for module in (headlines, trivial):  # wherever a strategy may reach it
        monkeypatch.setattr(module, "generate_items", counted, raising=False)
    arguments = {**ARGS, "source": "generated"}
    tasks = sorted({task for _, task, _ in declared_items(arguments)})
    calls.clear()
    start_alone(tasks, RunIdentity.of("cogeval@4.1.0", "m", arguments=arguments))
    assert len(calls) == 1
