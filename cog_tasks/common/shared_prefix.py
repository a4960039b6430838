"""``hf-shared-prefix``, registered on import: lm-eval's ``hf`` reading each shared context once."""

from __future__ import annotations

import inspect
import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from lm_eval.api.registry import register_model
from lm_eval.models.huggingface import HFLM
from tqdm import tqdm

logger = logging.getLogger(__name__)
MODEL_NAME = "hf-shared-prefix"
# The fastest of five (row, batch) settings tried on every 12th CogLM question
# with SmolLM2 on 2 CPU cores: 512/512, 128/512, 192/768, 128/1024, 256/1024.
DEFAULT_ROW_TOKENS = 256
DEFAULT_BATCH_TOKENS = 1024
# Attention implementations that accept a custom 4D mask; others go through HFLM.
MASKABLE = ("sdpa", "eager")
# Architectures whose attention is always biased by token distance (ALiBi) with no
# config switch saying so; others name it in their config (MPT, Falcon: "alibi").
ALWAYS_ALIBI = ("bloom",)
# Config attributes that bound how far a token may attend (sliding or chunked attention).
WINDOW_ATTRIBUTES = ("sliding_window", "attention_chunk_size", "window_size")
# Config attributes that list each layer's kind; hybrid models name non-attention kinds.
LAYER_KIND_ATTRIBUTES = ("layer_types", "block_types", "layers_block_type")
# lm-eval's tokenized request: ((context, continuation), context ids, continuation ids).
TokenizedRequest = tuple[tuple[str, str], list[int], list[int]]
# Per group: (summed log-probability, every token greedy) per continuation, then per split.
GroupScores = list[list[tuple[float, bool]]]


@dataclass(frozen=True)
class Group:
    """A context, its continuations, and ``context_splits`` (``k``: score ``context[k:]``)."""

    context: Sequence[int]
    continuations: Sequence[Sequence[int]]
    context_splits: Sequence[int] = ()


def _config_values(config: Any) -> dict[str, Any]:
    """The model config's fields, sub-configs (an attention config, a text config) included."""
    values: dict[str, Any] = {}
    pending = [config.to_dict()]
    while pending:
        for key, value in pending.pop().items():
            if isinstance(value, dict):
                pending.append(value)
            else:
                values.setdefault(key, value)
    return values


def packing_blocker(model: torch.nn.Module) -> str | None:
    """Why the packed path could differ from ``hf`` for this model, or ``None`` if it cannot."""
    config = model.config
    values = _config_values(config)
    kinds = {
        kind
        for attribute in LAYER_KIND_ATTRIBUTES
        for kind in (values.get(attribute) or ())
        if isinstance(kind, str)
    }
    # transformers marks recurrent models (Mamba, RWKV, Jamba ...) with this class flag.
    if getattr(model, "_is_stateful", False) or any("attention" not in k for k in kinds):
        return f"{config.model_type} has recurrent layers, whose state crosses the row"
    if config.model_type in ALWAYS_ALIBI or any(
        isinstance(key, str) and "alibi" in key and value for key, value in values.items()
    ):
        return f"{config.model_type} uses ALiBi, a bias on token distance within the row"
    attention = getattr(model.config, "_attn_implementation", None)
    if attention not in MASKABLE:
        return f"attention implementation {attention!r} takes no custom 4D mask"
    if "position_ids" not in inspect.signature(model.forward).parameters:
        return f"{type(model).__name__}.forward takes no position_ids"
    return None


def attention_window(model: torch.nn.Module) -> int | None:
    """The shortest span any attention layer is limited to, or ``None`` for no limit."""
    values = _config_values(model.config)
    windows = [values.get(attribute) for attribute in WINDOW_ATTRIBUTES]
    limits = [w for w in windows if isinstance(w, int) and not isinstance(w, bool) and w > 0]
    return min(limits, default=None)


def packed_size(group: Group) -> int:
    """Tokens a group puts in a row: its context, and each continuation but its last token."""
    return len(group.context) + sum(len(tokens) - 1 for tokens in group.continuations)


def pack_groups(sizes: Sequence[int], budget: int) -> list[list[int]]:
    """Split groups, in order, into packs of at most ``budget`` tokens (group indices per pack)."""
    packs: list[list[int]] = []
    used = budget
    for index, size in enumerate(sizes):
        if used + size > budget:
            packs.append([])
            used = 0
        packs[-1].append(index)
        used += size
    return packs


@dataclass(frozen=True)
class PackedRow:
    """Several groups in one row of model input, with the mask and where each score's logits lie."""

    tokens: list[int]
    positions: list[int]
    allowed: torch.Tensor
    needed: int
    predictors: list[list[list[int]]]
    targets: list[list[list[int]]]


def layout_row(groups: Sequence[Group]) -> PackedRow:
    """Lay out groups in one row, each context read once, needed logits at the end."""
    tokens: list[int] = []
    positions: list[int] = []
    spans: list[tuple[tuple[int, int], ...]] = []  # per token: the spans it may see
    is_needed: list[bool] = []
    natural_predictors: list[list[list[int]]] = []
    for group in groups:
        context, continuations = group.context, group.continuations
        if not context or not all(continuations):
            raise ValueError("packed scoring needs non-empty contexts and continuations")
        if not all(0 < split < len(context) for split in group.context_splits):
            raise ValueError(f"context splits {group.context_splits} must leave tokens both sides")
        first_scored = min(group.context_splits, default=len(context)) - 1
        start = len(tokens)
        for offset, token in enumerate(context):
            tokens.append(token)
            positions.append(offset)
            spans.append(((start, start + offset + 1),))
            is_needed.append(offset >= first_scored or offset == len(context) - 1)
        context_span = (start, len(tokens))
        group_predictors = []
        for continuation in continuations:
            own = len(tokens)
            for offset, token in enumerate(continuation[:-1]):
                tokens.append(token)
                positions.append(len(context) + offset)
                spans.append((context_span, (own, own + offset + 1)))
                is_needed.append(True)
            group_predictors.append([context_span[1] - 1, *range(own, len(tokens))])
        for split in group.context_splits:
            group_predictors.append(list(range(start + split - 1, context_span[1] - 1)))
        natural_predictors.append(group_predictors)
    allowed = torch.zeros(len(tokens), len(tokens), dtype=torch.bool)
    for row, token_spans in enumerate(spans):
        for begin, end in token_spans:
            allowed[row, begin:end] = True
    order = [i for i, need in enumerate(is_needed) if not need]
    order += [i for i, need in enumerate(is_needed) if need]
    needed = sum(is_needed)
    block_index = {natural: k - (len(order) - needed) for k, natural in enumerate(order)}
    index = torch.tensor(order)
    return PackedRow(
        tokens=[tokens[i] for i in order],
        positions=[positions[i] for i in order],
        allowed=allowed[index][:, index],
        needed=needed,
        predictors=[
            [[block_index[i] for i in continuation] for continuation in group]
            for group in natural_predictors
        ],
        targets=[
            [list(tokens) for tokens in group.continuations]
            + [list(group.context[split:]) for split in group.context_splits]
            for group in groups
        ],
    )


def score_rows(model: torch.nn.Module, rows: Sequence[PackedRow]) -> list[GroupScores]:
    """Score rows as one left-padded batch: per group and continuation, lm-eval's loglikelihood."""
    parameters = next(model.parameters())
    device, dtype = parameters.device, parameters.dtype
    length = max(len(row.tokens) for row in rows)
    keep = max(row.needed for row in rows)
    input_ids = torch.zeros(len(rows), length, dtype=torch.long)
    position_ids = torch.zeros(len(rows), length, dtype=torch.long)
    # Padding tokens see only themselves (a query that sees nothing gives NaN).
    allowed = torch.eye(length, dtype=torch.bool).repeat(len(rows), 1, 1)
    for r, row in enumerate(rows):
        pad = length - len(row.tokens)
        input_ids[r, pad:] = torch.tensor(row.tokens)
        position_ids[r, pad:] = torch.tensor(row.positions)
        allowed[r, pad:, pad:] = row.allowed
    mask = torch.zeros(allowed.shape, dtype=dtype).masked_fill_(~allowed, torch.finfo(dtype).min)
    accepts = "logits_to_keep" in inspect.signature(model.forward).parameters
    extra = {"logits_to_keep": keep} if accepts else {}
    with torch.inference_mode():
        logits = model(
            input_ids=input_ids.to(device),
            attention_mask=mask[:, None].to(device),
            position_ids=position_ids.to(device),
            **extra,
        ).logits[:, -keep:]
        logprobs = torch.log_softmax(logits.float(), dim=-1).cpu()
    return [
        [
            [_score(logprobs[r, keep - row.needed :], *pair) for pair in zip(*group, strict=True)]
            for group in zip(row.predictors, row.targets, strict=True)
        ]
        for r, row in enumerate(rows)
    ]


def _score(block: torch.Tensor, predictors: list[int], targets: list[int]) -> tuple[float, bool]:
    """lm-eval's ``(summed log-probability, every token greedy)`` of ``targets``."""
    chosen, expected = block[predictors], torch.tensor(targets)
    total = float(chosen.gather(1, expected[:, None]).sum())
    return total, bool((chosen.argmax(dim=-1) == expected).all())


def score_groups(
    model: torch.nn.Module,
    groups: Sequence[Group],
    row_tokens: int = DEFAULT_ROW_TOKENS,
    batch_tokens: int = DEFAULT_BATCH_TOKENS,
    progress: Callable[[int], None] | None = None,
) -> list[GroupScores]:
    """Log-likelihood of every continuation of every group, each context read once."""
    packs = pack_groups([packed_size(group) for group in groups], row_tokens)
    rows = [layout_row([groups[g] for g in pack]) for pack in packs]
    by_length = sorted(range(len(rows)), key=lambda r: -len(rows[r].tokens))
    batches: list[list[int]] = []
    for r in by_length:
        if batches and (len(batches[-1]) + 1) * len(rows[batches[-1][0]].tokens) <= batch_tokens:
            batches[-1].append(r)
        else:
            batches.append([r])
    results: list[GroupScores] = [[] for _ in groups]
    for batch in batches:
        for r, row_scores in zip(batch, score_rows(model, [rows[r] for r in batch]), strict=True):
            for g, group_scores in zip(packs[r], row_scores, strict=True):
                results[g] = group_scores
        if progress is not None:
            progress(sum(len(packs[r]) for r in batch))
    return results


@register_model(MODEL_NAME)
class SharedPrefixHFLM(HFLM):
    """lm-eval's ``hf`` model reading each shared context once (``row_tokens``, ...)."""

    def __init__(
        self,
        *args: Any,
        row_tokens: int = DEFAULT_ROW_TOKENS,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        **kwargs: Any,
    ) -> None:
        """Load the model as ``hf`` does; see the class docs for the two sizes."""
        super().__init__(*args, **kwargs)
        self.row_tokens = int(row_tokens)
        self.batch_tokens = int(batch_tokens)
        self.blocker = (
            packing_blocker(self.model) if self.backend == "causal" else "a seq2seq model"
        )
        self.window = attention_window(self.model)
        # Rows stay shorter than any sliding window, so the window never cuts one.
        self.row_limit = min(self.row_tokens, self.window - 1) if self.window else self.row_tokens
        self._logged: set[str] = set()

    def _log_once(self, reason: str) -> None:
        """Say, once per reason, why requests go through ``hf``'s own path."""
        if reason not in self._logged:
            self._logged.add(reason)
            logger.warning("%s: scoring through hf's own path: %s", MODEL_NAME, reason)

    def _plan(self, requests: list[TokenizedRequest]) -> tuple[list[list[int]], list[Group]]:
        """The groups to pack and, per group, the request indices of its continuations, splits."""
        eligible = [
            index
            for index, (_, context, continuation) in enumerate(requests)
            # Requests HFLM would truncate on the left keep HFLM's handling.
            if len(context) + len(continuation) <= self.max_length + 1
        ]
        by_context: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for index in eligible:
            by_context[tuple(requests[index][1])].append(index)
        shared = {context for context, indices in by_context.items() if len(indices) > 1}
        # A request whose whole sequence is a shared context is read from that context's row.
        splits: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for index in eligible:
            whole = tuple(requests[index][1]) + tuple(requests[index][2])
            if whole in shared:
                splits[whole].append(index)
        in_splits = {index for indices in splits.values() for index in indices}
        members, groups = [], []
        too_long = 0
        for context in shared:
            continuations = [i for i in by_context[context] if i not in in_splits]
            group = Group(
                context,
                [requests[i][2] for i in continuations],
                [len(requests[i][1]) for i in splits[context]],
            )
            if len(continuations) + len(splits[context]) < 2:
                continue
            if self.window is not None and packed_size(group) >= self.window:
                too_long += len(continuations) + len(splits[context])
                continue
            members.append(continuations + splits[context])
            groups.append(group)
        if too_long:
            self._log_once(
                f"a context with its continuations reaches the sliding window of {self.window} "
                f"tokens ({too_long} requests in this batch)"
            )
        return members, groups

    def _loglikelihood_tokens(
        self,
        requests: list[TokenizedRequest],
        disable_tqdm: bool = False,
        override_bs: int | None = None,
    ) -> list[tuple[float, bool]]:
        """Score shared-context groups with :func:`score_groups`, the rest with ``HFLM``."""
        if self.blocker is not None:
            self._log_once(self.blocker)
            return super()._loglikelihood_tokens(
                requests, disable_tqdm=disable_tqdm, override_bs=override_bs
            )
        members, groups = self._plan(requests)
        packed = {index for indices in members for index in indices}
        others = [index for index in range(len(requests)) if index not in packed]
        results: list[tuple[float, bool] | None] = [None] * len(requests)
        if others:
            answers = super()._loglikelihood_tokens(
                [requests[i] for i in others], disable_tqdm=disable_tqdm, override_bs=override_bs
            )
            for index, answer in zip(others, answers, strict=True):
                results[index] = answer
        progress = tqdm(
            total=len(groups),
            disable=disable_tqdm or self.rank != 0,
            desc="Running loglikelihood requests (contexts shared by several requests)",
        )
        scores = score_groups(
            self.model, groups, self.row_limit, self.batch_tokens, progress=progress.update
        )
        progress.close()
        for indices, group_scores in zip(members, scores, strict=True):
            for index, answer in zip(indices, group_scores, strict=True):
                results[index] = answer
                # Rolling-window requests carry no string to cache under (as in HFLM).
                if requests[index][0] is not None:
                    self.cache_hook.add_partial("loglikelihood", requests[index][0], answer)
        return results
