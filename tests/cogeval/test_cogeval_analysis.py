"""Analysis of deviance on simulated data, the analyze/report commands and input checks."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cog_tasks.cli import main
from cog_tasks.cogeval.generator import CogEvalItem, generate_items
from cog_tasks.cogeval.headlines import checked_runs
from cog_tasks.cogeval.metrics import (
    ANALYSIS_TERMS,
    DevianceTerm,
    analysis_of_deviance,
    format_deviance_table,
    validate_scores,
)
from cog_tasks.cogeval.report import run_summary
from cog_tasks.cogeval.results import score_table_runs
from cog_tasks.cogeval.scoring import FAILURE_MODES

GRAPH_EFFECT = {
    "n7line": 2.0,
    "n7tree": 1.0,
    "n13line": 0.0,
    "n15star": -1.0,
    "n16cluster": -0.5,
    "n21star": -2.0,
}
CONDITIONS = ("valuePath", "rewardReval", "transReval", "nonteleShortcut", "teleDetour")


def simulate(seed: int = 7, repeats: int = 6) -> pd.DataFrame:
    """Success depends strongly on the graph and the LLM, not at all on temperature."""
    rng = np.random.default_rng(seed)
    rows = []
    for model, model_effect in (("big", 1.0), ("small", -1.0)):
        for graph, graph_effect in GRAPH_EFFECT.items():
            for domain in ("ordRooms", "socialTies"):
                for condition in CONDITIONS:
                    for temperature in (0.0, 0.5, 1.0):
                        p = 1 / (1 + np.exp(-(model_effect + graph_effect)))
                        for _ in range(repeats):
                            rows.append(
                                {
                                    "model": model,
                                    "graph": graph,
                                    "domain": domain,
                                    "condition": condition,
                                    "temperature": temperature,
                                    "score": int(rng.random() < p),
                                    "max_score": 1,
                                    "failure_mode": None,
                                }
                            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def simulated_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cogeval") / "scores.csv"
    frame = simulate()
    frame.loc[frame["score"] == 0, "failure_mode"] = "wrong_goal"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def analyze_json(simulated_csv: Path) -> dict:
    """``cog-tasks cogeval analyze SCORES.csv --json``, run once for the module."""
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert main(["cogeval", "analyze", str(simulated_csv), "--json"]) == 0
    return json.loads(output.getvalue())


def test_analysis_finds_strong_effects_and_not_the_null_factor(analyze_json: dict) -> None:
    terms = {row["term"]: row for row in analyze_json["terms"]}
    assert terms["graph"]["p"] < 0.001 and terms["graph"]["df"] == 5
    assert terms["LLM"]["p"] < 0.001 and terms["LLM"]["df"] == 1
    assert terms["temperature"]["p"] > 0.05 and terms["temperature"]["df"] == 2
    assert terms["condition"]["df"] == 4 and terms["graph:domain:condition"]["df"] == 20


def test_analyze_json_uses_the_paper_term_names_in_order(analyze_json: dict) -> None:
    assert [row["term"] for row in analyze_json["terms"]] == [
        "LLM",
        "graph",
        "domain",
        "temperature",
        "condition",
        "LLM:temperature",
        "graph:domain",
        "graph:condition",
        "domain:condition",
        "graph:domain:condition",
    ]
    assert [row["term"] for row in analyze_json["terms"]] == [name for name, _ in ANALYSIS_TERMS]
    assert all(set(row) == {"term", "chi2", "df", "p"} for row in analyze_json["terms"])


def test_readable_table_marks_small_p_values(analyze_json: dict) -> None:
    table = format_deviance_table([DevianceTerm(**row) for row in analyze_json["terms"]])
    assert table.splitlines()[0].split() == ["term", "chi2", "df", "p"]
    graph_line = next(line for line in table.splitlines() if line.startswith("graph "))
    assert graph_line.split()[-1] == "<0.001"


def test_report_writes_readable_pngs(simulated_csv: Path, tmp_path: Path) -> None:
    assert main(["cogeval", "report", str(simulated_csv), "--out", str(tmp_path)]) == 0
    names = sorted(path.name for path in tmp_path.glob("*.png"))
    assert names == [
        "failure_modes.png",
        "heatmap_big.png",
        "heatmap_small.png",
        "success_by_run.png",
        "success_by_temperature.png",
    ]
    for path in tmp_path.glob("*.png"):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_report_rates_add_up_and_repeats_are_epochs_of_a_task(simulated_csv: Path) -> None:
    rows = run_summary(checked_runs(score_table_runs(simulated_csv)))
    assert [row["run"] for row in rows] == ["big", "small"]
    for row in rows:
        assert row["success"] + sum(row[mode] for mode in FAILURE_MODES) == pytest.approx(1.0)
        # 6 graphs x 2 domains x 5 conditions; 3 temperatures x 6 repeats each.
        assert row["tasks"] == 60 and row["dialogs"] == 60 * 18
        assert row["coverage"]["epochs"] == 6 and row["coverage"]["units"] == 60


def test_bad_score_tables_name_the_file_and_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = simulate(repeats=1).head(3)
    frame.loc[2, "condition"] = "flying"
    path = tmp_path / "bad.csv"
    frame.to_csv(path, index=False)
    assert main(["cogeval", "analyze", str(path)]) == 2
    assert "bad.csv: row 3: unknown condition 'flying'" in capsys.readouterr().err
    frame.loc[2, "condition"] = "valuePath"
    frame.loc[1, "max_score"] = 0
    frame.to_csv(path, index=False)
    assert main(["cogeval", "analyze", str(path)]) == 2
    assert "bad.csv: row 2: max_score must be positive" in capsys.readouterr().err
    assert main(["cogeval", "analyze", str(tmp_path / "missing.csv")]) == 2
    assert "missing.csv: no such file" in capsys.readouterr().err
    assert main(["cogeval", "analyze"]) == 2
    assert "give either a SCORES file or --log DIR" in capsys.readouterr().err
    with pytest.raises(ValueError, match="missing column"):
        validate_scores(frame.drop(columns=["temperature"]), source="frame")


def test_unbalanced_designs_with_collinear_interactions_stay_well_posed() -> None:
    frame = simulate(seed=3, repeats=2)
    missing = (frame["graph"] == "n7tree") & (frame["domain"] == "socialTies")
    frame = frame[~missing].sample(frac=0.7, random_state=1)
    terms = analysis_of_deviance(validate_scores(frame))
    p = frame["score"].mean()
    null_deviance = -2 * len(frame) * (p * np.log(p) + (1 - p) * np.log(1 - p))
    assert all(term.chi2 >= 0 for term in terms)
    assert sum(term.chi2 for term in terms) <= null_deviance
    assert {term.term: term.df for term in terms}["graph:domain"] == 4  # one cell is empty


def test_small_slices_with_more_terms_than_cells_are_analysed() -> None:
    frame = simulate(seed=5, repeats=3)
    frame = frame[(frame["domain"] == "ordRooms") & (frame["condition"] == "valuePath")]
    frame = frame[frame["temperature"] == 0.0]
    terms = {term.term: term for term in analysis_of_deviance(validate_scores(frame))}
    assert terms["LLM"].df == 1 and terms["graph"].df == 5
    assert all(terms[name].df == 0 and terms[name].p is None for name in ("domain", "condition"))


def _paper_design_table(models: int, one_item_per_cell: bool = False) -> pd.DataFrame:
    """Scores on the paper's design (every item, or one per graph x domain x family cell).

    Every model answers at three temperatures; the scores alternate, so no cell
    is all right or all wrong.
    """
    items = generate_items(design="paper")
    if one_item_per_cell:
        families = validate_scores(pd.DataFrame([_row(item, "m0", 0.0, 0) for item in items]))
        cells = {}
        for item, family in zip(items, families["family"], strict=True):
            cells.setdefault((item.graph, item.domain, family), item)
        items = list(cells.values())
    return pd.DataFrame(
        [
            _row(item, f"m{model}", temperature, (number + model + step) % 2)
            for number, item in enumerate(items)
            for model in range(models)
            for step, temperature in enumerate((0.0, 0.5, 1.0))
        ]
    )


def _row(item: CogEvalItem, model: str, temperature: float, score: int) -> dict:
    return {
        "model": model,
        "graph": item.graph,
        "domain": item.domain,
        "condition": item.condition,
        "temperature": temperature,
        "score": score,
        "max_score": 1,
    }


def _assert_table_2_degrees_of_freedom(frame: pd.DataFrame, models: int) -> None:
    table = validate_scores(frame)
    terms = {t.term: t.df for t in analysis_of_deviance(table)}
    assert terms == {
        "LLM": models - 1,
        "graph": 5,
        "domain": 2,
        "temperature": 2,
        "condition": 4,
        "LLM:temperature": 2 * (models - 1),
        "graph:domain": 10,
        "graph:condition": 20,
        "domain:condition": 8,
        "graph:domain:condition": 40,  # the paper's Table 2 prints 44
    }
    # The item terms share the design's graph x domain x family cells: intercept and
    # item terms together have exactly one parameter per cell the design fills.
    cells = table.groupby(["graph", "domain", "family"]).ngroups
    item_terms = ("graph", "domain", "condition", "graph:domain", "graph:condition")
    assert 1 + sum(terms[t] for t in (*item_terms, "domain:condition")) + 40 == cells


def test_paper_design_cells_give_table_2_degrees_of_freedom() -> None:
    """One item per cell of the paper's design gives Table 2's terms (the full design: slow)."""
    _assert_table_2_degrees_of_freedom(_paper_design_table(2, one_item_per_cell=True), 2)


@pytest.mark.slow
def test_full_paper_design_gives_table_2_degrees_of_freedom_and_at_most_40_for_three_way() -> None:
    _assert_table_2_degrees_of_freedom(_paper_design_table(8), 8)


def test_perfect_separation_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = simulate(seed=2, repeats=1)
    frame.loc[frame["graph"] == "n7line", "score"] = 1
    messages: list[str] = []
    analysis_of_deviance(validate_scores(frame), on_warning=messages.append)
    assert len(messages) == 1 and messages[0].startswith("perfect separation")
    path = tmp_path / "separated.csv"
    frame.to_csv(path, index=False)
    assert main(["cogeval", "analyze", str(path)]) == 0
    assert "cog-tasks cogeval: warning: perfect separation" in capsys.readouterr().err


def _experiment2_rows(seed: int = 3, repeats: int = 20) -> pd.DataFrame:
    """Experiment 2 rows where BFS helps a lot and DFS not at all."""
    rng = np.random.default_rng(seed)
    rows = [
        {
            "model": model,
            "graph": "n15star",
            "domain": "ordRooms",
            "condition": condition,
            "temperature": 0.0,
            "cot": cot,
            "score": int(rng.random() < {"none": 0.3, "bfs": 0.9, "dfs": 0.3}[cot]),
            "max_score": 1,
        }
        for model in ("big", "small")
        for cot in ("none", "bfs", "dfs")
        for condition in ("exp2ClusterCount", "exp2WithinCluster", "exp2OneClusterAway")
        for _ in range(repeats)
    ]
    return pd.DataFrame(rows)


def test_analyze_keeps_experiment2_rows_with_cot_as_a_factor(tmp_path: Path) -> None:
    path = tmp_path / "exp2.csv"
    pd.concat([simulate(repeats=1), _experiment2_rows()]).to_csv(path, index=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["cogeval", "analyze", str(path), "--json"]) == 0
    result = json.loads(out.getvalue())
    assert [row["term"] for row in result["terms"]] == [name for name, _ in ANALYSIS_TERMS]
    terms = {row["term"]: row for row in result["experiment2"]}
    assert terms["cot"]["df"] == 2 and terms["cot"]["p"] < 0.001
    assert terms["question"]["df"] == 2 and terms["LLM"]["df"] == 1
    # Experiment 2 alone: no Table 2 terms, the Experiment 2 table in text
    only = tmp_path / "only_exp2.csv"
    _experiment2_rows().to_csv(only, index=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["cogeval", "analyze", str(only)]) == 0
    assert out.getvalue().startswith("Experiment 2 (cot: none, bfs, dfs):")
