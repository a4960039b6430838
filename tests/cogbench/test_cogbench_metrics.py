import asyncio
import random
from collections import Counter

import pytest
from sklearn.metrics import cohen_kappa_score

from cog_tasks.cogbench.inspect.scorer import score_metadata
from cog_tasks.cogbench.metrics import (
    RatingTally,
    RationalityTally,
    cohen_kappa,
    fleiss_kappa,
    mean_pairwise_spearman,
    polarity,
    polarity_rating,
    pooled_tallies,
    spearman,
    summarize_iterations,
)
from cog_tasks.cogbench.rationality import (
    JUDGED,
    NO_REASONING,
    UNREADABLE,
    JudgeItem,
    judge_answers,
)


def test_kappa_hand_worked() -> None:
    # p_o = 5/6; chance p_e = (1 + 1 + 4 + 2 + 0) / 36 = 2/9; kappa = (5/6 - 2/9) / (7/9) = 11/14
    human = [1, 2, 3, 4, 5, 3]
    agent = [1, 2, 3, 4, 4, 3]
    assert cohen_kappa(human, agent) == pytest.approx(11 / 14)
    assert cohen_kappa(human, agent) == pytest.approx(cohen_kappa_score(human, agent))


def test_invalid_answer_is_a_disagreement_not_dropped() -> None:
    # p_o = 3/4; p_e = (2*1 + 2*2) / 16 = 3/8; kappa = (3/4 - 3/8) / (5/8) = 0.6
    tally = RatingTally.from_ratings([3, 3, 4, 4], [3, None, 4, 4])
    assert tally.pairs == 4 and tally.invalid == 1
    assert tally.kappa() == pytest.approx(0.6)


def test_unset_human_ratings_are_counted_but_left_out() -> None:
    tally = RatingTally.from_ratings([None, 2, 4], [5, 2, 4])
    assert (tally.pairs, tally.unrated) == (2, 1)
    assert tally.kappa() == pytest.approx(1.0)
    assert cohen_kappa([None, None], [1, 2]) is None


def test_degenerate_inputs() -> None:
    # both raters constant and equal: chance agreement is 1, defined as perfect agreement
    assert cohen_kappa([3, 3, 3], [3, 3, 3]) == 1.0
    # only one rater constant: kappa is 0 (same as sklearn)
    assert cohen_kappa([3, 3, 3], [3, 4, 2]) == pytest.approx(0.0)
    assert cohen_kappa_score([3, 3, 3], [3, 4, 2]) == pytest.approx(0.0)
    # constant and different: no agreement at all, no chance agreement
    assert cohen_kappa([2, 2], [4, 4]) == pytest.approx(0.0)
    assert cohen_kappa([], []) is None


def test_an_agent_without_a_valid_rating_has_no_kappa_not_chance() -> None:
    tally = RatingTally.from_ratings([1, 3, 5, 2], [None, None, None, None])
    assert tally.pairs == 4 and tally.invalid == 4
    assert tally.kappa() is None
    one_valid = RatingTally.from_ratings([1, 3, 5, 2], [None, None, None, 2])
    assert one_valid.kappa() is not None
    assert summarize_iterations({1: tally.kappa()}).average is None


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_matches_sklearn_on_random_ratings(weights: str | None) -> None:
    rng = random.Random(7)
    for _ in range(20):
        human = [rng.randint(1, 5) for _ in range(30)]
        agent = [rng.randint(1, 5) for _ in range(30)]
        expected = cohen_kappa_score(human, agent, labels=[1, 2, 3, 4, 5], weights=weights)
        assert cohen_kappa(human, agent, weights) == pytest.approx(expected)


def test_pooled_tallies_equal_concatenated_ratings() -> None:
    first = RatingTally.from_ratings([1, 2, 3], [1, 3, None])
    second = RatingTally.from_ratings([4, 5, 3, 3], [4, 5, 2, 3])
    values = [
        {**first.to_value(1), **RationalityTally.from_scores([4, None, 2]).to_value(1)},
        {**second.to_value(1), **RationalityTally.from_scores([5, 5, 5, 5]).to_value(1)},
    ]
    ratings, rationality = pooled_tallies(values)
    assert ratings[1].kappa() == pytest.approx(
        cohen_kappa([1, 2, 3, 4, 5, 3, 3], [1, 3, None, 4, 5, 2, 3])
    )
    # the unreadable judge score counts as 1: (4 + 1 + 2 + 20) / 7
    assert rationality[1].mean() == pytest.approx(27 / 7)
    assert rationality[1].invalid == 1


def test_epoch_means_keep_pooled_kappa() -> None:
    tally = RatingTally.from_ratings([1, 2, 3, 4], [1, 2, 2, 4])
    halved = {key: value / 2 for key, value in tally.to_value(3).items()}
    ratings, _ = pooled_tallies([halved])
    assert ratings[3].kappa() == pytest.approx(tally.kappa())


def test_off_scale_ratings_are_rejected() -> None:
    with pytest.raises(ValueError, match="not on the 1-5"):
        RatingTally.from_ratings([6], [1])
    with pytest.raises(ValueError, match="2 human ratings but 1"):
        RatingTally.from_ratings([1, 2], [1])


def test_summary_skips_undefined_and_iteration_zero() -> None:
    summary = summarize_iterations({0: 0.9, 1: 0.2, 2: None, 3: float("nan"), 5: 0.4})
    assert summary.average == pytest.approx(0.3)
    assert summary.undefined == [2, 3]
    assert summary.headline("authenticity") == {
        "authenticity_avg": pytest.approx(0.3),
        "authenticity_t0": 0.9,
        "authenticity_t5": 0.4,
    }
    assert summarize_iterations({}).average is None


def test_polarity_groups() -> None:
    assert [polarity(r) for r in (1, 2, 3, 4, 5)] == [-1, -1, 0, 1, 1]
    assert [polarity_rating(r) for r in (1, 2, 3, 4, 5, None)] == [1, 1, 3, 5, 5, None]


def test_fleiss_hand_worked() -> None:
    # P_i = 1, 1, 1/3 -> P = 7/9; p = (4/9, 5/9) -> P_e = 41/81; kappa = (7/9 - 41/81) / (40/81)
    assert fleiss_kappa([[1, 1, 1], [2, 2, 2], [1, 2, 2]]) == pytest.approx(0.55)
    with pytest.raises(ValueError):
        fleiss_kappa([[1, 2], [1]])


def test_spearman_hand_worked() -> None:
    # sum d^2 = 2 -> rho = 1 - 6*2 / (4 * 15) = 0.8
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert spearman([3, 3, 3], [1, 2, 3]) is None
    # three raters: pairs (0.8, 1.0, 0.8)
    table = [[1, 1, 1], [2, 3, 2], [3, 2, 3], [4, 4, 4]]
    assert mean_pairwise_spearman(table) == pytest.approx((0.8 + 1.0 + 0.8) / 3)


def test_per_question_kappa_is_the_mean_of_question_kappas() -> None:
    from cog_tasks.cogbench.metrics import RatingTally, per_question_kappa

    # two samples (trajectories), two questions, iteration 1
    pairs = {
        "Q one": ([4, 2, 5, 1], [4, 2, 4, 1]),
        "Q two": ([3, 3, 1, 5], [3, 1, 1, 5]),
    }
    values: list[dict[str, float]] = [{}, {}, {}, {}]
    for question, (human, agent) in pairs.items():
        for sample, (h, a) in enumerate(zip(human, agent, strict=True)):
            values[sample].update(RatingTally.from_ratings([h], [a]).to_value(1, question))
    expected = (cohen_kappa(*pairs["Q one"]) + cohen_kappa(*pairs["Q two"])) / 2
    with pytest.warns(UserWarning, match="2 of 2 .* fewer than 10 rated pairs"):
        assert per_question_kappa(values) == {1: pytest.approx(expected)}
    pooled = cohen_kappa(
        pairs["Q one"][0] + pairs["Q two"][0], pairs["Q one"][1] + pairs["Q two"][1]
    )
    assert pooled != pytest.approx(expected)


def test_readable_mean_leaves_out_unreadable_and_unreasoned_floors() -> None:
    # judged 4 and 2, one unreadable reply, one answer without reasoning (both counted as 1)
    tally = RationalityTally.from_scores([4, None, 2, 1], no_reasoning=1)
    assert tally.mean() == pytest.approx(8 / 4)
    assert tally.readable_mean() == pytest.approx(3.0)
    assert (tally.asked, tally.invalid, tally.no_reasoning) == (3, 1, 1)
    rebuilt = RationalityTally.from_value(tally.to_value(2), 2)
    assert rebuilt == tally and (rebuilt + rebuilt).readable_mean() == pytest.approx(3.0)
    floors_only = RationalityTally.from_scores([None, 1], no_reasoning=1)
    assert floors_only.mean() == 1.0 and floors_only.readable_mean() is None


def test_verdicts_keep_not_judged_unreadable_and_no_reasoning_apart() -> None:
    async def judge(prompt: str, max_tokens: int) -> str:
        return "Score: 4" if "A sound reason." in prompt else "hmm"

    items = [
        JudgeItem({"Name": "Ada"}, [], "Chess is fun.", 4, reason)
        for reason in ("A sound reason.", "A muddled one.", "  ")
    ]
    verdicts = asyncio.run(judge_answers(judge, items))
    assert [v.status for v in verdicts] == [JUDGED, UNREADABLE, NO_REASONING]
    assert [v.recorded() for v in verdicts] == [4, "unreadable", "no reasoning"]
    counts = Counter(v.status for v in verdicts)
    counts.update(["distill", "answer", "answer"])
    metadata = score_metadata(counts, [])
    assert (metadata["judge_asked"], metadata["judge_invalid"], metadata["no_reasoning"]) == (
        2,
        1,
        1,
    )
    assert metadata["truncated_replies"] == 3
    assert metadata["truncated_by_step"] == {
        "distill": 1,
        "update": 0,
        "reflection": 0,
        "answer": 2,
    }
    unjudged = score_metadata(Counter(), None)
    assert "rationality" not in unjudged and "judge_invalid" not in unjudged


def test_a_row_without_a_valid_rating_reads_undefined_not_a_number() -> None:
    import math

    from cog_tasks.cogbench.metrics import KAPPA_UNDEFINED
    from cog_tasks.cogbench.report import AgentCurves, curves_table
    from cog_tasks.common.stats import Interval

    nothing = Interval(math.nan, math.nan, math.nan, 4, "trajectory", "none")
    row = AgentCurves(
        "cot",
        "m",
        "a",
        "english",
        "sample",
        {},
        {},
        nothing,
        Interval(1.0, 1.0, 1.0, 4, "trajectory", "none"),
        counts={"pairs": 40, "invalid": 40},
    )
    assert f"Authenticity avg {KAPPA_UNDEFINED}" in curves_table([row])
