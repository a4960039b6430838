"""CogBench statistics (docs/scoring.md): Authenticity (Cohen's κ), Rationality, rater agreement."""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from cog_tasks.common.errors import UserError
from cog_tasks.common.params import ParameterError

LIKERT: tuple[int, ...] = (1, 2, 3, 4, 5)
WeightScheme = Literal["linear", "quadratic"] | None
WEIGHT_SCHEMES: tuple[str, ...] = ("linear", "quadratic")
HEADLINE_ITERATIONS: tuple[int, ...] = (0, 5, 10)
KAPPA_FORMS: tuple[str, ...] = ("pooled", "per_question")
KAPPA_UNDEFINED = "undefined (no valid ratings)"
"""How a κ reads where the agent gave no valid rating."""
MIN_QUESTION_PAIRS = 10
"""Rated pairs below which a question's own κ is too coarse to average (a warning says so)."""


def check_kappa_form(form: str) -> str:
    """Validate the κ form: ``pooled`` (authors' code) or ``per_question`` (paper's Eq. 2)."""
    if form not in KAPPA_FORMS:
        raise ParameterError(f"unknown kappa form {form!r}; use one of {KAPPA_FORMS}")
    return form


def subset_measure(measure: str, subset: str) -> str:
    """One subset's headline measure, as the profile and the logs name it (``invalid_rate_a``)."""
    return f"{measure}_{subset}" if subset else measure


def question_key(question: str) -> str:
    """A short stable key for a question text (used in ``Score.value`` names)."""
    return hashlib.sha1(question.encode("utf-8")).hexdigest()[:10]


def check_weights(weights: str | None) -> WeightScheme:
    """Validate a κ weighting scheme name (``None``, ``linear`` or ``quadratic``)."""
    if weights not in (None, *WEIGHT_SCHEMES):
        raise ParameterError(
            f"unknown kappa weights {weights!r}; use one of {WEIGHT_SCHEMES} or None"
        )
    return weights  # type: ignore[return-value]


def disagreement_weight(human: int, agent: int | None, weights: WeightScheme = None) -> float:
    """Disagreement of two Likert ratings in [0, 1]: 0/1, |h-a|/4 or its square; ``None`` is 1."""
    if agent is None:
        return 1.0
    if weights is None:
        return 0.0 if human == agent else 1.0
    distance = abs(human - agent) / (LIKERT[-1] - LIKERT[0])
    return distance if weights == "linear" else distance**2


def _likert_counts(ratings: Iterable[int]) -> tuple[int, ...]:
    counts = [0] * len(LIKERT)
    for rating in ratings:
        counts[rating - LIKERT[0]] += 1
    return tuple(counts)


def _check_likert(rating: int, what: str) -> None:
    if rating not in LIKERT:
        raise UserError(f"{what} rating {rating!r} is not on the 1-5 Likert scale")


def _prefix(iteration: int, key: str | None) -> str:
    return f"t{iteration}_" if key is None else f"t{iteration}_q{key}_"


@dataclass(frozen=True)
class RatingTally:
    """Additive summary of paired ratings, sufficient for pooled (weighted) κ."""

    weights: WeightScheme = None
    pairs: int = 0
    human: tuple[int, ...] = (0,) * len(LIKERT)
    agent: tuple[int, ...] = (0,) * len(LIKERT)  # valid agent ratings 1..5 among the pairs
    invalid: int = 0  # agent answers without a parseable rating among the pairs
    disagreement: float = 0.0
    unrated: int = 0  # questions answered without a human rating (not in κ)

    @classmethod
    def from_ratings(
        cls, human: Sequence[int | None], agent: Sequence[int | None], weights: WeightScheme = None
    ) -> RatingTally:
        """Tally paired ratings (``None``: human unset, agent unparseable)."""
        if len(human) != len(agent):
            raise ValueError(f"{len(human)} human ratings but {len(agent)} agent ratings")
        check_weights(weights)
        rated = [(h, a) for h, a in zip(human, agent, strict=True) if h is not None]
        for h, a in rated:
            _check_likert(h, "human")
            if a is not None:
                _check_likert(a, "agent")
        return cls(
            weights=weights,
            pairs=len(rated),
            human=_likert_counts(h for h, _ in rated),
            agent=_likert_counts(a for _, a in rated if a is not None),
            invalid=sum(1 for _, a in rated if a is None),
            disagreement=sum(disagreement_weight(h, a, weights) for h, a in rated),
            unrated=len(human) - len(rated),
        )

    def __add__(self, other: RatingTally) -> RatingTally:
        if self.weights != other.weights:
            raise ValueError(f"cannot add tallies with weights {self.weights} and {other.weights}")
        return RatingTally(
            weights=self.weights,
            pairs=self.pairs + other.pairs,
            human=tuple(a + b for a, b in zip(self.human, other.human, strict=True)),
            agent=tuple(a + b for a, b in zip(self.agent, other.agent, strict=True)),
            invalid=self.invalid + other.invalid,
            disagreement=self.disagreement + other.disagreement,
            unrated=self.unrated + other.unrated,
        )

    def kappa(self) -> float | None:
        """Cohen's κ of the tallied pairs, ``None`` without a pair or a valid agent rating."""
        if self.pairs == 0 or not any(self.agent):
            return None
        n = float(self.pairs)
        human_share = [count / n for count in self.human]
        agent_share = [count / n for count in self.agent]
        invalid_share = self.invalid / n
        expected = (
            sum(
                human_share[i] * (agent_share[j] * disagreement_weight(h, a, self.weights))
                for (i, h), (j, a) in itertools.product(enumerate(LIKERT), repeat=2)
            )
            + sum(human_share) * invalid_share
        )
        observed = self.disagreement / n
        if expected == 0.0:
            return 1.0
        return 1.0 - observed / expected

    def to_value(self, iteration: int, question: str | None = None) -> dict[str, float]:
        """Flatten into ``Score.value`` entries prefixed ``t<iteration>_`` (``t<i>_q<key>_``)."""
        prefix = _prefix(iteration, None if question is None else question_key(question))
        value: dict[str, float] = {f"{prefix}{name}": getattr(self, name) for name in COUNTED}
        for rating, human, agent in zip(LIKERT, self.human, self.agent, strict=True):
            value[f"{prefix}human{rating}"] = human
            value[f"{prefix}agent{rating}"] = agent
        return value

    @classmethod
    def from_value(
        cls,
        value: Mapping[str, float],
        iteration: int,
        weights: WeightScheme,
        question_key: str | None = None,
    ) -> RatingTally:
        """Rebuild a tally from :meth:`to_value` entries (possibly epoch means)."""
        prefix = _prefix(iteration, question_key)
        return cls(
            weights,
            human=tuple(value[f"{prefix}human{rating}"] for rating in LIKERT),  # type: ignore[misc]
            agent=tuple(value[f"{prefix}agent{rating}"] for rating in LIKERT),  # type: ignore[misc]
            **{name: value[f"{prefix}{name}"] for name in COUNTED},  # type: ignore[arg-type]
        )


COUNTED = ("pairs", "invalid", "disagreement", "unrated")
"""The scalar fields of a :class:`RatingTally`, in ``Score.value`` order."""
_JUDGE_KEYS = {
    "scored": "judged",
    "total": "rationality",
    "invalid": "judge_invalid",
    "no_reasoning": "no_reasoning",
}
"""A :class:`RationalityTally`'s fields and their ``Score.value`` names."""


@dataclass(frozen=True)
class RationalityTally:
    """Additive summary of 1-5 Rationality scores for one iteration (failures scored 1)."""

    scored: int = 0
    total: float = 0.0
    invalid: int = 0
    no_reasoning: int = 0

    @classmethod
    def from_scores(cls, scores: Sequence[int | None], no_reasoning: int = 0) -> RationalityTally:
        """Tally scores; ``None`` (unreadable) counts as 1 and as invalid."""
        for score in scores:
            if score is not None:
                _check_likert(score, "rationality")
        return cls(
            scored=len(scores),
            total=float(sum(LIKERT[0] if score is None else score for score in scores)),
            invalid=sum(1 for score in scores if score is None),
            no_reasoning=no_reasoning,
        )

    def __add__(self, other: RationalityTally) -> RationalityTally:
        return RationalityTally(
            self.scored + other.scored,
            self.total + other.total,
            self.invalid + other.invalid,
            self.no_reasoning + other.no_reasoning,
        )

    @property
    def asked(self) -> float:
        """Answers the judge was asked about (all but those without reasoning)."""
        return self.scored - self.no_reasoning

    def mean(self) -> float | None:
        """Mean score with every failure at the floor, or ``None`` when nothing was scored."""
        return self.total / self.scored if self.scored else None

    def readable_mean(self) -> float | None:
        """Mean of the judge's readable scores alone (``None`` when it gave none)."""
        readable = self.asked - self.invalid
        floors = LIKERT[0] * (self.invalid + self.no_reasoning)
        return (self.total - floors) / readable if readable else None

    def to_value(self, iteration: int) -> dict[str, float]:
        """Flatten into ``Score.value`` entries prefixed ``t<iteration>_``."""
        return {f"t{iteration}_{key}": getattr(self, name) for name, key in _JUDGE_KEYS.items()}

    @classmethod
    def from_value(cls, value: Mapping[str, float], iteration: int) -> RationalityTally:
        """Rebuild a tally from :meth:`to_value` entries (possibly epoch means)."""
        found = {name: value.get(f"t{iteration}_{key}") for name, key in _JUDGE_KEYS.items()}
        return cls(**{name: getattr(cls, name) if v is None else v for name, v in found.items()})


_CELL_KEY = re.compile(r"^t(\d+)_(?:q([0-9a-f]{10})_)?pairs$")


def _cells(value: Mapping[str, float]) -> list[tuple[int, str | None]]:
    """The (iteration, question key or ``None``) of every rating tally in a ``Score.value``."""
    return [(int(match[1]), match[2]) for match in map(_CELL_KEY.match, value) if match]


def pooled_tallies(
    values: Iterable[Mapping[str, float]], weights: WeightScheme = None
) -> tuple[dict[int, RatingTally], dict[int, RationalityTally]]:
    """Sum per-sample ``Score.value`` dicts into per-iteration rating and Rationality tallies."""
    ratings: dict[int, RatingTally] = {}
    rationality: dict[int, RationalityTally] = {}
    for value in values:
        for iteration in sorted(t for t, key in _cells(value) if key is None):
            rating = RatingTally.from_value(value, iteration, weights)
            ratings[iteration] = ratings.get(iteration, RatingTally(weights)) + rating
            judged = RationalityTally.from_value(value, iteration)
            rationality[iteration] = rationality.get(iteration, RationalityTally()) + judged
    return ratings, rationality


def question_tallies(
    value: Mapping[str, float], weights: WeightScheme
) -> dict[tuple[int, str], RatingTally]:
    """The per-question tallies of a flattened ``Score.value``, by (iteration, question key)."""
    return {
        (t, key): RatingTally.from_value(value, t, weights, key)
        for t, key in _cells(value)
        if key is not None
    }


def per_question_kappa(
    values: Iterable[Mapping[str, float]], weights: WeightScheme = None, warn: bool = True
) -> dict[int, float | None]:
    """The paper's Eq. 2: per iteration, the mean of each question's κ pooled over samples."""
    tallies: dict[int, dict[str, RatingTally]] = {}
    for value in values:
        for (iteration, question), tally in question_tallies(value, weights).items():
            by_question = tallies.setdefault(iteration, {})
            by_question[question] = by_question.get(question, RatingTally(weights)) + tally
    few = [
        tally
        for by_question in tallies.values()
        for tally in by_question.values()
        if tally.pairs < MIN_QUESTION_PAIRS
    ]
    if few and warn:
        total = sum(len(by_question) for by_question in tallies.values())
        warnings.warn(
            f"kappa=per_question: {len(few)} of {total} (iteration, question) cells have fewer "
            f"than {MIN_QUESTION_PAIRS} rated pairs; their kappa is coarse (often exactly 0 or "
            "1), so the average says little. Use more trajectories or kappa=pooled.",
            stacklevel=2,
        )
    means: dict[int, float | None] = {}
    for iteration, by_question in sorted(tallies.items()):
        kappas = [kappa for tally in by_question.values() if (kappa := tally.kappa()) is not None]
        means[iteration] = sum(kappas) / len(kappas) if kappas else None
    return means


def kappa_by_iteration(
    values: Iterable[Mapping[str, float]], weights: WeightScheme, kappa: str, warn: bool = True
) -> dict[int, float | None]:
    """κ per iteration, pooled (authors' code) or averaged per question (paper's Eq. 2)."""
    if check_kappa_form(kappa) == "per_question":
        return per_question_kappa(values, weights, warn)
    ratings, _ = pooled_tallies(values, weights)
    return {t: tally.kappa() for t, tally in ratings.items()}


def iteration_value(
    iteration: int,
    questions: Sequence[str],
    human: Sequence[int | None],
    agent: Sequence[int | None],
    weights: WeightScheme,
    per_question: bool = False,
) -> dict[str, float]:
    """One iteration's rating tally as ``Score.value`` entries, and each question's if asked."""
    value = RatingTally.from_ratings(human, agent, weights).to_value(iteration)
    if per_question:
        for question, one_human, one_agent in zip(questions, human, agent, strict=True):
            single = RatingTally.from_ratings([one_human], [one_agent], weights)
            value.update(single.to_value(iteration, question))
    return value


@dataclass(frozen=True)
class IterationSummary:
    """Headline numbers of a per-iteration series: the mean over iterations >= 1, each value."""

    average: float | None
    by_iteration: dict[int, float | None] = field(default_factory=dict)

    def at(self, iteration: int) -> float | None:
        """Value at one iteration, ``None`` when absent or undefined."""
        return self.by_iteration.get(iteration)

    @property
    def averaged(self) -> list[int]:
        """Iterations that entered the average (>= 1, with a value)."""
        return [t for t, v in sorted(self.by_iteration.items()) if t >= 1 and v is not None]

    @property
    def undefined(self) -> list[int]:
        """Iterations present but without a value (left out of the average)."""
        return [t for t, v in sorted(self.by_iteration.items()) if v is None]

    def headline(self, name: str, subset: str = "") -> dict[str, float]:
        """``{name}_avg_{subset}, {name}_t0, {name}_t5, {name}_t10}``, defined entries only."""
        entries = {subset_measure(f"{name}_avg", subset): self.average}
        entries.update({f"{name}_t{t}": self.at(t) for t in HEADLINE_ITERATIONS})
        return {key: value for key, value in entries.items() if value is not None}


def summarize_iterations(values: Mapping[int, float | None]) -> IterationSummary:
    """Summarise a per-iteration series; the average skips iteration 0 and ``None``/NaN."""
    cleaned = {
        int(t): (None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v))
        for t, v in values.items()
    }
    later = [v for t, v in cleaned.items() if t >= 1 and v is not None]
    return IterationSummary(
        average=sum(later) / len(later) if later else None,
        by_iteration=dict(sorted(cleaned.items())),
    )


def judge_summaries(
    judged: Mapping[int, RationalityTally],
) -> tuple[IterationSummary, IterationSummary, RationalityTally]:
    """The judge's mean (failures at 1) and readable-only mean by iteration, and their total."""
    return (
        summarize_iterations({t: tally.mean() for t, tally in judged.items()}),
        summarize_iterations({t: tally.readable_mean() for t, tally in judged.items()}),
        sum(judged.values(), RationalityTally()),
    )


def cohen_kappa(
    human: Sequence[int | None], agent: Sequence[int | None], weights: WeightScheme = None
) -> float | None:
    """Cohen's κ between two raters (see the module docstring for conventions)."""
    return RatingTally.from_ratings(human, agent, weights).kappa()


def polarity(rating: int) -> Literal[-1, 0, 1]:
    """Group a Likert rating by polarity: 1-2 negative, 3 neutral, 4-5 positive."""
    _check_likert(rating, "polarity")
    return -1 if rating <= 2 else (0 if rating == 3 else 1)


def polarity_rating(rating: int | None) -> int | None:
    """Map a rating onto the polarity scale as 1, 3 or 5 (``None`` stays ``None``)."""
    return None if rating is None else 3 + 2 * polarity(rating)


def fleiss_kappa(ratings: Sequence[Sequence[int]]) -> float:
    """Fleiss' κ (statsmodels) of one row per item, one column per rater."""
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    if not ratings or len({len(row) for row in ratings}) != 1:
        raise ValueError("Fleiss' kappa needs a non-empty table with equally many raters per item")
    table, _ = aggregate_raters([list(row) for row in ratings])
    return float(statsmodels_fleiss(table, method="fleiss"))


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's ρ (scipy), or ``None`` when either series is constant or too short."""
    from scipy.stats import spearmanr

    if len(x) != len(y):
        raise ValueError(f"Spearman needs equal lengths, got {len(x)} and {len(y)}")
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    return float(spearmanr(x, y).statistic)


def mean_pairwise_spearman(ratings: Sequence[Sequence[int]]) -> float | None:
    """Mean Spearman's ρ over rater (column) pairs that have one, as in the paper's Table 4."""
    columns = list(zip(*ratings, strict=True))
    values = [
        rho
        for first, second in itertools.combinations(columns, 2)
        if (rho := spearman(first, second)) is not None
    ]
    return sum(values) / len(values) if values else None
