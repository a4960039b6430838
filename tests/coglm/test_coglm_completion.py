import pytest

from cog_tasks.coglm.completion import (
    AUTHORS_PICK_METRIC,
    choice_picks,
    completion_context,
    completion_text,
    context_split,
    continuation_token_counts,
    pick_by_mean,
    pick_by_sum,
    pick_by_whole_mean_loss,
    sample_picks,
)
from cog_tasks.coglm.lm_eval.coglm import utils


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


def test_authors_rule_is_the_mean_loss_over_the_whole_string() -> None:
    # Context: 9 scored tokens with log-likelihood -18 (2 nats each).
    # Candidate 0: 1 token, -1.0 -> loss 19/10 = 1.9; candidate 1: 3 tokens, -3.3 -> 21.3/12.
    lls, lengths = [-1.0, -3.3], [1, 3]
    assert pick_by_whole_mean_loss(lls, lengths, -18.0, 9) == 1  # 1.775 < 1.9
    assert pick_by_sum(lls) == 0 and pick_by_mean(lls, lengths) == 0  # both other rules differ
    # A question that is easy to read (low loss per token) favours the short candidate.
    assert pick_by_whole_mean_loss(lls, lengths, -0.9, 9) == 0  # 0.19 < 0.35
    # Ties go to the first candidate, as list.index(min(losses)) does upstream.
    assert pick_by_whole_mean_loss([-2.0, -2.0], [1, 1], -4.0, 3) == 0
    with pytest.raises(ValueError, match="2 log-likelihoods but 1 lengths"):
        pick_by_whole_mean_loss(lls, [1], -1.0, 1)


class _CharacterTokenizer:
    """One token per character, ids = code points (enough to test the split)."""

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return [ord(character) for character in text]

    def decode(self, token_ids: list[int]) -> str:
        return "".join(chr(i) for i in token_ids)


def test_context_split_names_the_first_token_and_counts_the_rest() -> None:
    context = completion_context("Is it?")  # "Is it?\nThe answer is:", 20 characters
    assert context_split(_CharacterTokenizer(), "Is it?") == ("I", len(context) - 1)
    # Without a tokenizer: the first word, and the words after it.
    assert context_split(None, "Is it?") == ("Is", 4)


def test_context_split_refuses_a_first_token_that_does_not_round_trip() -> None:
    class Lossy(_CharacterTokenizer):
        def decode(self, token_ids: list[int]) -> str:
            return "?"

    with pytest.raises(ValueError, match="does not encode back"):
        context_split(Lossy(), "Is it?")


@pytest.mark.slow
def test_context_split_with_the_real_tokenizer(smollm2_path, shared_data) -> None:
    from transformers import AutoTokenizer

    from cog_tasks.coglm.records import load_records

    tokenizer = AutoTokenizer.from_pretrained(smollm2_path)
    for record in load_records(["const", "plan"])[::20]:
        context = completion_context(record.question)
        head, scored = context_split(tokenizer, record.question)
        ids = tokenizer.encode(context, add_special_tokens=False)
        assert context.startswith(head) and scored == len(ids) - 1
        # lm-eval's split of (head, rest): the head's tokens, then the rest of the context's.
        assert tokenizer.encode(head, add_special_tokens=False) == ids[:1]


@pytest.mark.slow
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
        "num_distinct_choices": 2,
        "choice_lengths": [1, 3],
        "context_tokens": 20,
    }
    # The last result is the context's own log-likelihood (20 tokens, -40).
    lls = [-3.0, -9.3]
    scores = utils.process_results(doc, [(ll, False) for ll in [*lls, -40.0]])
    # Tasks version 2.0: one rule (the authors'), its pooled form and the per-item companion.
    assert set(scores) == {AUTHORS_PICK_METRIC, "calibrated_acc_authors", "calibrated_acc_per_item"}
    picks = choice_picks(doc, lls, -40.0)
    assert picks["acc"] == 0  # the sum prefers "yes"
    assert picks["acc_norm"] == 1  # per character: -1.0 against -0.66
    assert picks["acc_per_token"] == 0  # per token: -3.0 against -3.1
    # The authors' loss: 43/21 = 2.05 against 49.3/23 = 2.14, so "yes".
    assert scores[AUTHORS_PICK_METRIC] == 1.0
    assert scores["calibrated_acc_authors"] == (True, 2)  # chance: the listed options
    assert scores["calibrated_acc_per_item"] == pytest.approx(1.0)
    # A hard context (4 nats a token) gives each candidate token a bonus of about 4 nats,
    # which turns the authors' rule to the long candidate: 83/21 = 3.95 against 89.3/23 = 3.88.
    hard = utils.process_results(doc, [(-3.0, False), (-9.3, False), (-80.0, False)])
    assert hard[AUTHORS_PICK_METRIC] == 0.0 and hard["calibrated_acc_authors"] == (False, 2)
    assert choice_picks(doc, lls, -80.0)["acc_per_token"] == 0
    with pytest.raises(ValueError, match="const-0007: 1 scores for 2 choices"):
        utils.process_results(doc, [(-1.0, False), (-40.0, False)])
    # Samples of tasks version 1.0 carry no context response: no acc_authors.
    assert set(sample_picks(doc, [-3.0, -9.3])) == {"acc", "acc_norm", "acc_per_token"}
    assert sample_picks(doc, [-3.0, -9.3, -80.0])[AUTHORS_PICK_METRIC] == 1
    assert set(choice_picks(doc, [-3.0, -9.3], -40.0)) == {
        "acc",
        "acc_norm",
        "acc_per_token",
        AUTHORS_PICK_METRIC,
    }


def test_repeated_options_score_as_their_first_occurrence() -> None:
    # Options 1 and 3 are the same text; float rounding made the later one higher.
    doc = {
        "id": "plan-0034",
        "choices": ["go, swim", "swim, go", "rest, go", "swim, go"],
        "num_choices": 4,
        "choice_lengths": [3, 3, 3, 3],
        "context_tokens": 30,
    }
    lls = [-9.0, -4.00000003, -8.0, -4.0]
    picks = choice_picks(doc, lls, -60.0)
    assert set(picks.values()) == {1}  # every rule, as the authors' loop would
    # Without the repeat the last option wins by the rounding difference.
    distinct = dict(doc, choices=["go, swim", "swim, go", "rest, go", "go, rest"])
    assert choice_picks(distinct, lls, -60.0)[AUTHORS_PICK_METRIC] == 3


def test_pooled_aggregation_is_the_published_form() -> None:
    # 1 of 2 two-way items right, 1 of 2 four-way items right: acc 0.5, chance c = 0.375
    items = [(True, 2), (False, 2), (True, 4), (False, 4)]
    assert utils.pooled_calibrated_accuracy(items) == pytest.approx((0.5 - 0.375) / 0.625)
