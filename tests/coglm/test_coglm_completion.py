import pytest

from cog_tasks.coglm.completion import (
    CALIBRATED_PICK_METRIC,
    completion_context,
    completion_text,
    continuation_token_counts,
    pick_by_mean,
    pick_by_sum,
)
from cog_tasks.lm_eval_tasks.coglm import utils


def test_scored_string_is_the_papers_concatenation() -> None:
    # The authors' script scores question.strip() + "\n" + "The answer is: " + candidate.
    assert completion_text("Where is the ball?", "under the cloth") == (
        "Where is the ball?\nThe answer is: under the cloth"
    )
    assert completion_context("Q?") + " " + "A" == completion_text("Q?", "A")


def test_choice_rules_differ_on_long_candidates() -> None:
    # candidate 1 is long: best in total, worse per character, best per token
    lls = [-4.0, -6.0, -5.0]
    assert pick_by_sum(lls) == 0
    assert pick_by_mean(lls, [2, 30, 5]) == 1  # -2.0, -0.2, -1.0 per character
    assert pick_by_mean(lls, [1, 4, 1]) == 1  # -4.0, -1.5, -5.0 per token
    assert pick_by_sum([-1.0, -1.0]) == 0  # ties go to the first candidate


def test_pick_by_mean_rejects_bad_lengths() -> None:
    with pytest.raises(ValueError, match="2 log-likelihoods but 3 lengths"):
        pick_by_mean([-1.0, -2.0], [1, 2, 3])
    with pytest.raises(ValueError, match="positive"):
        pick_by_mean([-1.0, -2.0], [1, 0])
    with pytest.raises(ValueError, match="zero candidates"):
        pick_by_sum([])


def test_continuation_token_counts_with_the_real_tokenizer(smollm2_path) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(smollm2_path)
    counts = continuation_token_counts(tokenizer, "Is it?", ["True", "False", "The red box"])
    assert counts == [1, 1, 3]


def test_process_results_scores_every_rule_and_both_calibrations() -> None:
    doc = {
        "id": "const-0007",
        "choices": ["yes", "absolutely not"],
        "answer": 0,
        "num_choices": 2,
        "choice_lengths": [1, 3],
    }
    scores = utils.process_results(doc, [(-3.0, False), (-9.3, False)])
    assert scores["acc"] == 1.0  # the sum prefers "yes"
    assert scores["acc_norm"] == 0.0  # per character: -1.0 against -0.66
    assert scores["acc_per_token"] == 1.0  # per token: -3.0 against -3.1
    # Both calibrated metrics follow the per-token choice (CALIBRATED_PICK_METRIC).
    assert CALIBRATED_PICK_METRIC == "acc_per_token"
    assert scores["calibrated_acc"] == (True, 2)
    assert scores["calibrated_acc_per_item"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="const-0007: 1 scores for 2 choices"):
        utils.process_results(doc, [(-1.0, False)])


def test_pooled_aggregation_is_the_published_form() -> None:
    # 1 of 2 two-way items right, 1 of 2 four-way items right: acc 0.5, chance c = 0.375
    items = [(True, 2), (False, 2), (True, 4), (False, 4)]
    assert utils.pooled_calibrated_accuracy(items) == pytest.approx((0.5 - 0.375) / 0.625)
