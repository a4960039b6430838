"""The ``hf-shared-prefix`` lm-eval model: same numbers as ``hf``, each context read once."""

import json
import logging
import random
from pathlib import Path

import pytest
import torch
import transformers
from lm_eval.models.huggingface import HFLM
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerFast

from cog_tasks.cli import main
from cog_tasks.coglm.completion import completion_context
from cog_tasks.coglm.records import load_records
from cog_tasks.common.shared_prefix import (
    Group,
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
    assert packed_size(Group([1, 2, 3], [[4], [5, 6], [7, 8, 9]])) == 3 + 0 + 1 + 2


def test_layout_row_puts_the_needed_logits_last_and_masks_each_branch() -> None:
    row = layout_row([Group([10, 11, 12], [[20], [30, 31, 32]]), Group([40], [[50, 51]])])
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


def test_layout_row_reads_a_context_split_from_the_context_itself() -> None:
    # Score [11, 12, 13] given [10], and [13] given [10, 11, 12], beside a continuation.
    row = layout_row([Group([10, 11, 12, 13], [[20, 21]], context_splits=[1, 3])])
    # Needed: context tokens 10, 11, 12 (they predict 11, 12, 13), 13, and 20.
    assert row.tokens == [10, 11, 12, 13, 20]
    assert row.needed == 5
    assert row.predictors == [[[3, 4], [0, 1, 2], [2]]]
    assert row.targets == [[[20, 21], [11, 12, 13], [13]]]


def test_layout_row_refuses_empty_parts_without_a_model() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        layout_row([Group([1, 2], [[3], []])])
    with pytest.raises(ValueError, match="non-empty"):
        layout_row([Group([], [[3]])])
    with pytest.raises(ValueError, match="both sides"):
        layout_row([Group([1, 2], [[3]], context_splits=[2])])


@pytest.fixture(scope="module")
def coglm_groups(smollm2_path: Path, shared_data: Path) -> list[Group]:
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
        groups.append(Group(context, candidates))
    return groups


def _one_pair_at_a_time(model: torch.nn.Module, context: list[int], continuation: list[int]):
    """The plain computation: the pair as one sequence, as lm-eval's ``hf`` runs it."""
    with torch.inference_mode():
        logits = model(torch.tensor([context + continuation[:-1]])).logits[0, len(context) - 1 :]
    logprobs = torch.log_softmax(logits, dim=-1)
    targets = torch.tensor(continuation)
    total = float(logprobs.gather(1, targets[:, None]).sum())
    return total, bool((logprobs.argmax(dim=-1) == targets).all())


@pytest.mark.slow
@pytest.mark.parametrize("attention", ["sdpa", "eager"])
def test_packed_scores_equal_one_pair_at_a_time(
    smollm2_path: Path, coglm_groups: list, attention: str
) -> None:
    model = AutoModelForCausalLM.from_pretrained(smollm2_path, attn_implementation=attention)
    model.eval()
    # Small rows and batches: several rows per batch, padding, and groups alone in a row.
    packed = score_groups(model, coglm_groups, row_tokens=120, batch_tokens=300)
    assert len(packed) == len(coglm_groups) > 3
    for group, scores in zip(coglm_groups, packed, strict=True):
        assert len(scores) == len(group.continuations)
        for candidate, (total, greedy) in zip(group.continuations, scores, strict=True):
            expected_total, expected_greedy = _one_pair_at_a_time(model, group.context, candidate)
            assert total == pytest.approx(expected_total, abs=1e-3)
            assert greedy == expected_greedy
    # One group per forward pass gives the same numbers.
    alone = [score_groups(model, [g], row_tokens=1, batch_tokens=1)[0] for g in coglm_groups]
    for together, single in zip(packed, alone, strict=True):
        assert [t for t, _ in together] == pytest.approx([t for t, _ in single], abs=1e-3)


def _assert_hf_numbers(lm: SharedPrefixHFLM, requests: list, ours: list, tolerance: float) -> None:
    """``ours`` are, request by request, the log-likelihoods and greedy flags of plain ``hf``."""
    reference = HFLM._loglikelihood_tokens(lm, requests, disable_tqdm=True)
    assert len(ours) == len(requests)
    for (total, greedy), (expected_total, expected_greedy) in zip(ours, reference, strict=True):
        assert total == pytest.approx(expected_total, abs=tolerance)
        assert greedy == expected_greedy


@pytest.mark.slow
def test_mixed_requests_keep_their_order_and_hf_numbers(
    smollm2_path: Path, coglm_groups: list
) -> None:
    """Shared contexts, a context asked once and over-long pairs all come back as HFLM's."""
    lm = SharedPrefixHFLM(pretrained=str(smollm2_path), device="cpu", max_length=96, batch_size=4)
    requests = []
    for group in coglm_groups:
        requests += [((f"q{len(requests)}", "c"), group.context, c) for c in group.continuations]
        if len(group.context) <= 96:  # HFLM refuses a continuation over max_length
            # The context's own tail, as the coglm tasks ask for it.
            requests.append((("head", "rest"), group.context[:1], group.context[1:]))
    requests.insert(1, (("single", "c"), [5, 6, 7], [8, 9]))
    assert any(len(c) + len(k) > 97 for _, c, k in requests), "one pair must be over max_length"
    assert any(len(c) + len(k) <= 97 for _, c, k in requests[2:]), "and others must fit"
    assert any(len(c) == 1 for _, c, _ in requests), "and some ask for a context's own tail"

    _assert_hf_numbers(lm, requests, lm._loglikelihood_tokens(requests, disable_tqdm=True), 1e-3)


def _samples(output_dir: Path) -> dict[str, list[float]]:
    """Per-document continuation log-likelihoods from an lm-eval ``--log_samples`` folder."""
    lls = {}
    for path in output_dir.rglob("samples_coglm_*.jsonl"):
        for line in path.read_text().splitlines():
            sample = json.loads(line)
            lls[sample["doc"]["id"]] = [float(ll) for ll, _ in sample["filtered_resps"]]
    return lls


@pytest.mark.slow
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
    assert all(len(lls) >= 3 for lls in ours.values())  # candidates and the context's own
    for document, lls in ours.items():
        assert lls == pytest.approx(reference[document], abs=1e-3)


VOCABULARY = 64
GEMMA3_LAYERS = {
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "layer_types": ["sliding_attention", "full_attention"],
    "max_position_embeddings": 256,
}
# Tiny randomly initialised models, one per family, and how hf-shared-prefix must treat them.
FAMILIES = {
    "llama": (
        transformers.LlamaConfig,
        {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2},
        {"num_attention_heads": 4, "num_key_value_heads": 2, "max_position_embeddings": 256},
        None,
    ),
    "mistral-sliding-window": (
        transformers.MistralConfig,
        {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2},
        {"num_attention_heads": 4, "num_key_value_heads": 2, "sliding_window": 24},
        None,
    ),
    # Gemma 3 mixes sliding-window and full-attention layers (window 512 in the 270M model).
    "gemma3-window-shorter-than-a-row": (
        transformers.Gemma3TextConfig,
        {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2},
        {**GEMMA3_LAYERS, "sliding_window": 24},
        None,
    ),
    "gemma3-window-longer-than-every-row": (
        transformers.Gemma3TextConfig,
        {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2},
        {**GEMMA3_LAYERS, "sliding_window": 512},
        None,
    ),
    "gpt2": (transformers.GPT2Config, {"n_embd": 32, "n_layer": 2, "n_head": 4}, {}, None),
    "mpt": (transformers.MptConfig, {"d_model": 32, "n_layers": 2, "n_heads": 4}, {}, "ALiBi"),
    "bloom": (transformers.BloomConfig, {"hidden_size": 32, "n_layer": 2}, {"n_head": 4}, "ALiBi"),
    "mamba": (
        transformers.MambaConfig,
        {"hidden_size": 32, "num_hidden_layers": 2, "state_size": 8},
        {},
        "recurrent",
    ),
}


@pytest.fixture(scope="module")
def tiny_tokenizer() -> PreTrainedTokenizerFast:
    """A word-level tokenizer over ``VOCABULARY`` made-up words (nothing downloaded)."""
    vocabulary = {f"w{i}": i for i in range(VOCABULARY)}
    backend = Tokenizer(models.WordLevel(vocabulary, unk_token="w0"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="w1", pad_token="w2")


def _tiny_requests(seed: int) -> list:
    """Shared contexts (some past a 24-token window), context tails, and a lone request."""
    rng = random.Random(seed)
    requests = []
    for length in (3, 5, 8, 12, 18, 30):
        context = [rng.randrange(3, VOCABULARY) for _ in range(length)]
        for _ in range(rng.randint(2, 4)):
            continuation = [rng.randrange(3, VOCABULARY) for _ in range(rng.randint(1, 5))]
            requests.append((("c", "k"), context, continuation))
        requests.append((("head", "rest"), context[:1], context[1:]))
    requests.insert(2, (("alone", "k"), [7, 8, 9], [10, 11]))
    return requests


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_gets_hf_numbers_or_falls_back(
    family: str, tiny_tokenizer: PreTrainedTokenizerFast, caplog: pytest.LogCaptureFixture
) -> None:
    config_class, sizes, extra, expected_blocker = FAMILIES[family]
    torch.manual_seed(0)
    config = config_class(vocab_size=VOCABULARY, **sizes, **extra)
    model = AutoModelForCausalLM.from_config(config).eval()
    lm = SharedPrefixHFLM(pretrained=model, tokenizer=tiny_tokenizer, batch_size=4)
    requests = _tiny_requests(seed=len(family))

    with caplog.at_level(logging.WARNING, logger="cog_tasks.common.shared_prefix"):
        ours = lm._loglikelihood_tokens(requests, disable_tqdm=True)
    _assert_hf_numbers(lm, requests, ours, 1e-4)

    if expected_blocker is None:
        assert lm.blocker is None
        members, groups = lm._plan(requests)
        assert groups and sum(len(g.context_splits) for g in groups) >= 1
    else:
        assert expected_blocker in lm.blocker
        assert caplog.text.count(lm.blocker) == 1
    if family in ("mistral-sliding-window", "gemma3-window-shorter-than-a-row"):
        # Rows stay under the window; the 30-token context's group falls back, and says so.
        assert lm.window == 24 and lm.row_limit == 23
        assert "sliding window of 24 tokens" in caplog.text
        members, _ = lm._plan(requests)
        assert not any(len(requests[i][1]) == 30 for indices in members for i in indices)
    if family == "gemma3-window-longer-than-every-row":
        # A window longer than every row cuts nothing: the 30-token context is packed too.
        assert lm.window == 512 and "sliding window" not in caplog.text
        members, _ = lm._plan(requests)
        assert any(len(requests[i][1]) == 30 for indices in members for i in indices)
