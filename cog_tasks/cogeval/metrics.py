"""CogEval metrics: the score table's checks and the paper's analysis of deviance (Table 2)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cog_tasks.cogeval.graphs import ANALYSIS_FAMILIES
from cog_tasks.cogeval.published import SCORED_CONDITION_FAMILIES
from cog_tasks.common.files import DataFileError
from cog_tasks.common.results import ResultsError

SCORE_COLUMNS: tuple[str, ...] = (
    "model", "graph", "domain", "condition", "temperature", "score", "max_score"
)  # fmt: skip
#: Term names in the paper's order, with the columns each term crosses.
ANALYSIS_TERMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("LLM", ("model",)),
    ("graph", ("graph",)),
    ("domain", ("domain",)),
    ("temperature", ("temperature",)),
    ("condition", ("family",)),
    ("LLM:temperature", ("model", "temperature")),
    ("graph:domain", ("graph", "domain")),
    ("graph:condition", ("graph", "family")),
    ("domain:condition", ("domain", "family")),
    ("graph:domain:condition", ("graph", "domain", "family")),
)
#: Experiment 2's terms: the reasoning instruction (``cot``) is a factor beside the question.
EXPERIMENT2_TERMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("LLM", ("model",)),
    ("cot", ("cot",)),
    ("question", ("condition",)),
    ("temperature", ("temperature",)),
    ("LLM:cot", ("model", "cot")),
    ("cot:question", ("cot", "condition")),
)
EXPERIMENT2_FAMILY = "Experiment2"


@dataclass(frozen=True)
class DevianceTerm:
    """One row of the analysis-of-deviance table (``p`` is ``None`` when ``df`` is 0)."""

    term: str
    chi2: float
    df: int
    p: float | None

    def to_dict(self) -> dict[str, float | int | str | None]:
        """A JSON-ready dictionary with keys ``term``, ``chi2``, ``df``, ``p``."""
        return {"term": self.term, "chi2": self.chi2, "df": self.df, "p": self.p}


def validate_scores(frame: pd.DataFrame, source: str = "scores") -> pd.DataFrame:
    """Check a score table (:data:`SCORE_COLUMNS`): a typed copy with a ``family`` column."""
    missing = [column for column in SCORE_COLUMNS if column not in frame.columns]
    if missing:
        raise DataFileError(f"{source}: missing column(s) {missing}; need {list(SCORE_COLUMNS)}")
    if frame.empty:
        raise DataFileError(f"{source}: the score table has no rows")
    table = frame.copy()
    for column in ("model", "graph", "domain", "condition"):
        table[column] = table[column].astype(str)
    for column in ("temperature", "score", "max_score"):
        values = pd.to_numeric(table[column], errors="coerce")
        bad = values.isna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataFileError(f"{source}: row {row + 1}: {column} is not a number")
        table[column] = values.astype(float)
    unknown = ~table["condition"].isin(list(SCORED_CONDITION_FAMILIES))
    if unknown.any():
        row = int(np.flatnonzero(unknown.to_numpy())[0])
        raise DataFileError(
            f"{source}: row {row + 1}: unknown condition {table['condition'].iloc[row]!r}"
        )
    not_positive = table["max_score"] <= 0
    if not_positive.any():
        row = int(np.flatnonzero(not_positive.to_numpy())[0])
        raise DataFileError(f"{source}: row {row + 1}: max_score must be positive")
    out_of_range = (table["score"] < 0) | (table["score"] > table["max_score"])
    if out_of_range.any():
        row = int(np.flatnonzero(out_of_range.to_numpy())[0])
        raise DataFileError(f"{source}: row {row + 1}: score is outside [0, max_score]")
    table["family"] = table["condition"].map(SCORED_CONDITION_FAMILIES)
    return table


#: Fitted success probabilities closer than this to 0 or 1 mark a separated cell.
SEPARATION_TOLERANCE = 1e-6


def _warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def analysis_of_deviance(
    table: pd.DataFrame, on_warning: Callable[[str], None] = _warn
) -> list[DevianceTerm]:
    """Sequential (Type I) analysis of deviance of a binomial GLM over Table 1's five families."""
    rows = table[table["family"].isin(ANALYSIS_FAMILIES)]
    if rows.empty:
        raise ResultsError("no rows in the five condition families of Table 1")
    factors = ["model", "graph", "domain", "temperature", "family"]
    return _sequential_deviance(rows, factors, ANALYSIS_TERMS, on_warning)


def experiment2_deviance(
    table: pd.DataFrame, on_warning: Callable[[str], None] = _warn
) -> list[DevianceTerm]:
    """Sequential analysis of deviance of Experiment 2's rows, ``cot`` as a factor."""
    rows = table[table["family"] == EXPERIMENT2_FAMILY].copy()
    if rows.empty:
        raise ResultsError("no Experiment 2 rows (conditions exp2ClusterCount, ...)")
    rows["cot"] = rows["cot"].astype(str) if "cot" in rows else "none"
    factors = ["model", "cot", "condition", "temperature"]
    return _sequential_deviance(rows, factors, EXPERIMENT2_TERMS, on_warning)


def _sequential_deviance(
    rows: pd.DataFrame,
    factors: list[str],
    terms: Sequence[tuple[str, tuple[str, ...]]],
    on_warning: Callable[[str], None],
) -> list[DevianceTerm]:
    """Type I analysis of deviance of a binomial GLM over the cells of ``factors``."""
    from scipy.stats import chi2 as chi2_distribution
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM

    cells = rows.groupby(factors, sort=True)[["score", "max_score"]].sum().reset_index()
    cells["temperature"] = cells["temperature"].map(lambda t: f"{t:g}")
    response = np.column_stack([cells["score"], cells["max_score"] - cells["score"]])

    def indicators(columns: tuple[str, ...]) -> np.ndarray:
        """One 0/1 column per observed combination of the term's factors."""
        combined = cells[list(columns)].astype(str).agg("|".join, axis=1)
        return pd.get_dummies(combined).to_numpy(dtype=float)

    fitted = np.full(len(cells), 0.5)

    def fit(blocks: Sequence[np.ndarray]) -> tuple[float, int]:
        nonlocal fitted
        design = _independent_columns(np.column_stack([np.ones(len(cells)), *blocks]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = GLM(response, design, family=Binomial()).fit()
        fitted = np.asarray(result.mu, dtype=float)
        return float(result.deviance), design.shape[1]

    previous_deviance, previous_rank = fit([])
    blocks: list[np.ndarray] = []
    table_rows = []
    for name, columns in terms:
        blocks.append(indicators(columns))
        deviance, rank = fit(blocks)
        added = rank - previous_rank
        statistic = max(previous_deviance - deviance, 0.0)
        p_value = float(chi2_distribution.sf(statistic, added)) if added > 0 else None
        table_rows.append(DevianceTerm(name, round(statistic, 6), added, p_value))
        previous_deviance, previous_rank = deviance, rank
    separated = int(np.sum((fitted < SEPARATION_TOLERANCE) | (fitted > 1 - SEPARATION_TOLERANCE)))
    if separated:
        on_warning(
            f"perfect separation: the full model fits {separated} of {len(cells)} cells "
            "exactly (all replies right or all wrong); the chi2 and p of terms that "
            "separate them are unreliable"
        )
    return table_rows


def _independent_columns(design: np.ndarray) -> np.ndarray:
    """Keep a linearly independent subset of columns (pivoted QR), in their original order."""
    from scipy.linalg import qr

    _, triangle, pivots = qr(design, mode="economic", pivoting=True)
    diagonal = np.abs(np.diag(triangle))
    tolerance = diagonal.max() * max(design.shape) * np.finfo(float).eps
    return design[:, np.sort(pivots[: len(diagonal)][diagonal > tolerance])]


def format_deviance_table(terms: Sequence[DevianceTerm]) -> str:
    """The analysis of deviance as an aligned text table."""
    width = max(len(term.term) for term in terms)
    lines = [f"{'term':<{width}}  {'chi2':>12}  {'df':>4}  {'p':>10}"]
    for term in terms:
        if term.p is None:
            p_text = "n/a"
        elif term.p < 0.001:
            p_text = "<0.001"
        else:
            p_text = f"{term.p:.3f}"
        lines.append(f"{term.term:<{width}}  {term.chi2:>12.2f}  {term.df:>4d}  {p_text:>10}")
    return "\n".join(lines)
