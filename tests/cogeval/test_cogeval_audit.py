"""The audit of the published items: what it flags, and that the tasks leave them out by default."""

from __future__ import annotations

import pytest

from cog_tasks.cogeval.audit import audit
from cog_tasks.cogeval.headlines import declared_items
from cog_tasks.cogeval.published import UNSCORABLE, published_index, select_published


def test_the_audit_finds_exactly_the_declared_unscorable_items() -> None:
    findings = audit(published_index())
    assert {finding.item for finding in findings} == UNSCORABLE
    rules = {(finding.item, finding.rule) for finding in findings}
    pythia12 = "@forefront-pythia-12b/temp_0_000"
    assert (f"n16cluster.unordSpatial.3stepPath{pythia12}", "start") in rules
    assert (f"n16cluster.unordSpatial.nstepPath{pythia12}", "start") in rules
    pythia20 = "@forefront-pythia-20b/temp_0_000"
    first_moves = {item for item, rule in rules if rule == "first_move"}
    assert {
        f"n7tree.unordSpatial.{c}{pythia20}"
        for c in ("nonteleDetour", "nonteleShortcut", "teleDetour")
    } <= first_moves
    conflicts = {item for item, rule in rules if rule == "conflict"}
    assert "n7tree.socialTies.teleDetour" in conflicts


def test_the_default_selection_and_declared_set_leave_them_out_and_an_option_keeps_them() -> None:
    kept = {task.id for task in select_published(unscorable=True)}
    default = {task.id for task in select_published()}
    assert kept - default == UNSCORABLE
    assert {item for item, _, _ in declared_items({})} == default
    assert {item for item, _, _ in declared_items({"unscorable": True})} == kept


def test_the_balanced_rate_weighs_every_condition_alike() -> None:
    from cog_tasks.cogeval.headlines import TaskFacts, balanced_units

    tasks = {
        "a": TaskFacts("g", "d", "1stepPath"),
        "b": TaskFacts("g", "d", "1stepPath"),
        "c": TaskFacts("g", "d", "valuePath"),
    }
    units = {"a": (9.0, 10.0), "b": (8.0, 10.0), "c": (0.0, 2.0)}
    scaled = balanced_units(units, tasks)
    top = sum(value[0] for value in scaled.values())
    bottom = sum(value[1] for value in scaled.values())
    assert top / bottom == pytest.approx((17 / 20 + 0 / 2) / 2)
