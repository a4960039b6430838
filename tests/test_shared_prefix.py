"""The ``hf-shared-prefix`` lm-eval model: same numbers as ``hf``, each context read once."""

import json
from pathlib import Path

import pytest
import torch
from lm_eval.models.huggingface import HFLM
from transformers import AutoModelForCausalLM, AutoTokenizer

from cog_tasks.cli import main
from cog_tasks.coglm.completion import completion_context
from cog_tasks.coglm.records import load_records
from cog_tasks.lm_eval_models.shared_prefix import (
    SharedPrefixHFLM,
    layout_row,
    pack_groups,
    packed_size,
    score_groups,
)


def test_pack_groups_fills_packs_in_order_and_isolates_oversized_groups() -> None:
    assert pack_groups([3, 4, 2, 9, 1, 1], budget=8) == [[0, 1], [2], [3], [4, 5]]
    assert pack_groups([], budget=8) == []


def test_packed_size_counts_each_continuation_without_its_last_token() -> None:
    assert packed_size(([1, 2, 3], [[4], [5, 6], [7, 8, 9]])) == 3 + 0 + 1 + 2


def test_layout_row_puts_the_needed_logits_last_and_masks_each_branch() -> None:
    row = layout_row([([10, 11, 12], [[20], [30, 31, 32]]), ([40], [[50, 51]])])
    # Needed: each context's last token and every fed continuation token.
    assert row.tokens == [10, 11, 12, 30, 31, 40, 50]
    assert row.positions == [0, 1, 2, 3, 4, 0, 1]
    assert row.needed == 5
    # In the needed block [12, 30, 31, 40, 50]: "20" is predicted by 12 alone,
    # "30 31 32" by 12, 30, 31, and "50 51" by 40, 50.
    assert row.predictors == [[[0], [0, 1, 2]], [[3, 4]]]
    assert row.targets == [[[20], [30, 31, 32]], [[50, 51]]]
    token_31 = row.tokens.index(31)
    sees = {row.tokens[j] for j in range(len(row.tokens)) if row.allowed[token_31, j]}
    assert sees == {10, 11, 12, 30, 31}
    token_50 = row.tokens.index(50)
    assert {row.tokens[j] for j in range(7) if row.allowed[token_50, j]} == {40, 50}


@pytest.fixture(scope="module")
def coglm_groups(smollm2_path: Path, shared_data: Path) -> list[tuple[list[int], list[list[int]]]]:
    """Token ids of a few CogLM questions (context, candidates) in SmolLM2's tokenizer."""
    tokenizer = AutoTokenizer.from_pretrained(smollm2_path)
    groups = []
    for record in load_records(["const", "plan", "propo"])[::40]:
        context_text = completion_context(record.question)
        context = tokenizer.encode(context_text)
        candidates = [
            tokenizer.encode(f"{context_text} {choice}")[len(context) :]
            for choice in record.choices
        ]
        groups.append((context, candidates))
    return groups


def _one_pair_at_a_time(model: torch.nn.Module, context: list[int], continuation: list[int]):
    """The plain computation: the pair as one sequence, as lm-eval's ``hf`` runs it."""
    with torch.inference_mode():
        logits = model(torch.tensor([context + continuation[:-1]])).logits[0, len(context) - 1 :]
    logprobs = torch.log_softmax(logits, dim=-1)
    targets = torch.tensor(continuation)
    total = float(logprobs.gather(1, targets[:, None]).sum())
    return total, bool((logprobs.argmax(dim=-1) == targets).all())


@pytest.mark.parametrize("attention", ["sdpa", "eager"])
def test_packed_scores_equal_one_pair_at_a_time(
    smollm2_path: Path, coglm_groups: list, attention: str
) -> None:
    model = AutoModelForCausalLM.from_pretrained(smollm2_path, attn_implementation=attention)
    model.eval()
    # Small rows and batches: several rows per batch, padding, and groups alone in a row.
    packed = score_groups(model, coglm_groups, row_tokens=120, batch_tokens=300)
    assert len(packed) == len(coglm_groups) > 3
    for (context, candidates), scores in zip(coglm_groups, packed, strict=True):
        assert len(scores) == len(candidates)
        for candidate, (total, greedy) in zip(candidates, scores, strict=True):
            expected_total, expected_greedy = _one_pair_at_a_time(model, context, candidate)
            assert total == pytest.approx(expected_total, abs=1e-3)
            assert greedy == expected_greedy
    # One group per forward pass gives the same numbers.
    alone = [score_groups(model, [g], row_tokens=1, batch_tokens=1)[0] for g in coglm_groups]
    for together, single in zip(packed, alone, strict=True):
        assert [t for t, _ in together] == pytest.approx([t for t, _ in single], abs=1e-3)


def test_empty_continuation_is_refused(smollm2_path: Path) -> None:
    model = AutoModelForCausalLM.from_pretrained(smollm2_path)
    with pytest.raises(ValueError, match="non-empty"):
        score_groups(model, [([1, 2], [[3], []])])


def test_mixed_requests_keep_their_order_and_hf_numbers(
    smollm2_path: Path, coglm_groups: list
) -> None:
    """Shared contexts, a context asked once and over-long pairs all come back as HFLM's."""
    lm = SharedPrefixHFLM(pretrained=str(smollm2_path), device="cpu", max_length=96, batch_size=4)
    requests = []
    for context, candidates in coglm_groups:
        requests += [((f"q{len(requests)}", "c"), context, candidate) for candidate in candidates]
    requests.insert(1, (("single", "c"), [5, 6, 7], [8, 9]))
    assert any(len(c) + len(k) > 97 for _, c, k in requests), "one pair must be over max_length"
    assert any(len(c) + len(k) <= 97 for _, c, k in requests[2:]), "and others must fit"

    ours = lm._loglikelihood_tokens(requests, disable_tqdm=True)
    reference = HFLM._loglikelihood_tokens(lm, requests, disable_tqdm=True)
    assert len(ours) == len(requests)
    for (total, greedy), (expected_total, expected_greedy) in zip(ours, reference, strict=True):
        assert total == pytest.approx(expected_total, abs=1e-3)
        assert greedy == expected_greedy


def _samples(output_dir: Path) -> dict[str, list[float]]:
    """Per-document continuation log-likelihoods from an lm-eval ``--log_samples`` folder."""
    lls = {}
    for path in output_dir.rglob("samples_coglm_*.jsonl"):
        for line in path.read_text().splitlines():
            sample = json.loads(line)
            lls[sample["doc"]["id"]] = [float(ll) for ll, _ in sample["filtered_resps"]]
    return lls


def test_lm_eval_cli_runs_give_hf_numbers(
    tmp_path: Path, smollm2_path: Path, shared_data: Path, capsys: pytest.CaptureFixture
) -> None:
    """``cog-tasks lm-eval --model hf-shared-prefix`` registers the model and matches ``hf``."""
    outputs = {}
    for model in ("hf", "hf-shared-prefix"):
        outputs[model] = tmp_path / model
        arguments = ["--model", model, "--model_args", f"pretrained={smollm2_path}"]
        arguments += ["--tasks", "coglm", "--limit", "1", "--batch_size", "8"]
        main(["lm-eval", *arguments, "--output_path", str(outputs[model]), "--log_samples"])
    assert "calibrated_acc" in capsys.readouterr().out

    reference, ours = _samples(outputs["hf"]), _samples(outputs["hf-shared-prefix"])
    assert len(ours) == 10 and ours.keys() == reference.keys()
    for document, lls in ours.items():
        assert lls == pytest.approx(reference[document], abs=1e-3)
