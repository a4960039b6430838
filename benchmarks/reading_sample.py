"""Readers on random samples of real replies, labelled blind (shared parts, CogEval, chat tasks).

``sample`` stratifies the replies by the reader's outcome and draws ``SIZE`` (all when
fewer) with a seed: proportional allocation (largest remainder), but at least ``FLOOR``
from every stratum (all of a smaller one). Each drawn reply's weight is its stratum's size
over its draws, so agreement can be weighted back to all replies. Two files go to a folder
outside the repository (never commit them): ``<name>_blind.json`` (shuffled ``{id, ...}``,
the question and the reply, nothing of the reading, the score or the expected answer) and
``<name>_key.json`` (id -> where the reply comes from, stratum, reading, weight).
``join`` gives agreement per stratum, overall and weighted back to all replies (Wilson's
intervals; the weighted one over Kish's effective size). ``coglm_reading_sample.py``
uses these parts for CogLM.

CogEval: the finished samples (those with a score) of one Inspect log of ``cogeval``; the
stratum is the scorer's failure mode (``success`` when none); the blind file holds the
user turn the scored reply answers and the scored reply. Labels are
``{id: {"label": "one" | "ambiguous" | "none", "answer": "...", "note": "..."}}`` (``answer``,
the single answer the reply gives, only for ``one``). ``join`` reads each reply again with
this code's ``read_final_answer``; the reader agrees when it reads nothing where the label is
``none`` or ``ambiguous``, or an answer equal to the label's after :func:`normalise`. The
results keep the reply text (our own model's replies).

The other readers (:data:`READERS`: EgoSocialArena static, Number Guessing, Hold'em
actions, beliefs and style, CogBench ratings, blackjack beliefs and the judge's grades of
them) are measured on every reply of every finished
log of their task from a real model (not ``mockllm/``) found under the paths given (default
``/work/runs`` and ``/work/notes``; a log copied elsewhere, the same ``eval_id``, is read
once). Each reply is read with the function the task's scorer calls on it, in this code, and
checked against what its log recorded (``consistent`` in the key; ``sample`` prints each
mismatch). The stratum is the reading: the value read, or for two answer fields the fields
read (``prediction+choice``); ``none`` when nothing was read. At most ``READER_SIZE`` replies
are drawn. The blind file holds the prompt turn the reply answers, ``asked`` (each answer
field and the form it is asked in) and the reply. Labels are ``{id: label}``: a label is the
answer the reply gives in the asked form, ``"none"`` or ``"ambiguous"`` (two different
answers), one per field as ``{field: label}`` where ``asked`` has two fields; any label may
be wrapped as ``{"label": label, "note": "..."}``. A field agrees when the reader read
nothing where its label is ``none`` or ``ambiguous``, or read the label's answer (numbers
compared as numbers, else by their words without case, so a belief's label is its text); a
reply agrees when all its fields do. ``join``
writes ``results/<reader>_reading_random.json`` with the replies (our own models') but
never the prompts (the authors' items). CogBench's unit is the reply each question's rating
was read from (the last try where the agent re-asked).

Usage::

    python benchmarks/reading_sample.py sample cogeval LOG [--folder /work/blind]
    python benchmarks/reading_sample.py join cogeval LABELS [--folder /work/blind]
    python benchmarks/reading_sample.py sample READER [LOG ...] [--folder /work/blind] [--force]
    python benchmarks/reading_sample.py join READER LABELS [--folder /work/blind] [--force]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from string import Formatter
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, EvalSample, read_eval_log

from cog_tasks.cogbench.inspect.solver import STORE_KEY as COGBENCH_KEY
from cog_tasks.cogbench.parsing import parse_rating_answer
from cog_tasks.cogeval.parsing import read_final_answer
from cog_tasks.common.files import allow_overwrite, read_json, write_json_atomically
from cog_tasks.common.logs import task_name
from cog_tasks.common.stats import Interval, wilson_interval
from cog_tasks.egosocial.beliefs import BELIEF_TYPES, parse_grade, read_beliefs
from cog_tasks.egosocial.holdem import (
    ACTION_PROMPT,
    BELIEF_PROMPT,
    HOLDING_OPTIONS,
    MODEL_SEAT,
    REASK_PROMPT,
    STYLE_OPTIONS,
    STYLE_PROMPT,
    YES_NO,
    BeliefResult,
    MatchRecord,
    TableAction,
    parse_action,
    parse_beliefs,
    parse_style,
)
from cog_tasks.egosocial.inspect.beliefs import JUDGE_ATTEMPTS
from cog_tasks.egosocial.inspect.games import HOLDEM_KEY, NUMBER_GUESSING_KEY
from cog_tasks.egosocial.inspect.static import ROTATIONS_KEY, rotated, rotation_prompt
from cog_tasks.egosocial.number_guessing import NumberGuessingGame, parse_round_reply
from cog_tasks.egosocial.records import LETTERS, parse_choice_letter

SEED, SIZE, FLOOR = 120, 110, 10
READER_SIZE = 120
LOG_ROOTS = (Path("/work/runs"), Path("/work/notes"))
SCRIPTED = "mockllm/"
RESULTS = Path(__file__).parent / "results"
NO_ANSWER = ("ambiguous", "none")
SCORER = "cogeval_scorer"
_SEPARATORS = re.compile(r"\s*(?:,|;|->|=>|→|\s[-–—]\s|\bthen\b)\s*")
_PREFIX = re.compile(r"^(?:the\s+)?(?:room\s+)?")


def allocate(sizes: dict[str, int], total: int, floor: int) -> dict[str, int]:
    """Draws per stratum: ``total`` shared in proportion, at least ``floor`` (or all) each."""
    fixed: dict[str, int] = {}
    while True:
        rest = {name: size for name, size in sizes.items() if name not in fixed}
        budget = total - sum(fixed.values())
        shares = {name: budget * size / sum(rest.values()) for name, size in rest.items()}
        small = {name: min(floor, sizes[name]) for name, share in shares.items() if share < floor}
        if not small:
            break
        fixed |= small
    draws = {name: int(share) for name, share in shares.items()}
    by_remainder = sorted(shares, key=lambda name: draws[name] - shares[name])
    for name in by_remainder[: budget - sum(draws.values())]:
        draws[name] += 1
    return fixed | draws


def draw_sample(
    strata: dict[str, list[dict[str, Any]]], folder: Path, name: str, size: int, seed: int
) -> None:
    """Draw the stratified sample; write each entry's ``blind`` part and, apart, the rest.

    Args:
        strata: Entries by stratum, each with a ``blind`` dictionary (what the labeller sees).
        folder: Where ``<name>_blind.json`` and ``<name>_key.json`` go.
        name: The files' prefix.
        size: Replies to draw (all of them when there are fewer).
        seed: Seed of the draws and of the shuffle.
    """
    sizes = {stratum: len(entries) for stratum, entries in sorted(strata.items())}
    draws = allocate(sizes, min(size, sum(sizes.values())), FLOOR)
    rng = random.Random(seed)
    picked = [
        entry | {"stratum": stratum, "weight": sizes[stratum] / count}
        for stratum, count in draws.items()
        for entry in rng.sample(strata[stratum], count)
    ]
    rng.shuffle(picked)
    ids = [f"r{number:03d}" for number in range(1, len(picked) + 1)]
    pairs = list(zip(ids, picked, strict=True))
    folder.mkdir(parents=True, exist_ok=True)
    blind = [{"id": id_, **entry["blind"]} for id_, entry in pairs]
    key = {id_: {k: v for k, v in entry.items() if k != "blind"} for id_, entry in pairs}
    write_json_atomically(folder / f"{name}_blind.json", blind)
    write_json_atomically(folder / f"{name}_key.json", key)
    print({stratum: f"{count} of {sizes[stratum]}" for stratum, count in draws.items()})


def read_key_and_labels(labels_path: Path, key_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The key and the labels, every drawn id labelled."""
    labels, key = read_json(labels_path), read_json(key_path)
    if missing := sorted(set(key) - set(labels)):
        raise SystemExit(f"{labels_path}: no label for {missing}")
    return key, labels


def _weighted(rows: list[dict[str, Any]]) -> Interval:
    """Agreement weighted back to all replies, Wilson's interval over Kish's effective size."""
    weights = [row["weight"] for row in rows]
    share = sum(w for w, row in zip(weights, rows, strict=True) if row["agree"]) / sum(weights)
    effective = round(sum(weights) ** 2 / sum(w * w for w in weights))
    return wilson_interval(share * effective, effective, unit="reply")


def agreement(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement (rows' ``agree``) per stratum, overall and weighted back to all replies."""
    agreed = Counter(row["stratum"] for row in rows if row["agree"])
    drawn = Counter(row["stratum"] for row in rows)
    return {
        "strata": {
            name: wilson_interval(agreed[name], n, unit="reply").as_dict()
            for name, n in sorted(drawn.items())
        },
        "overall": wilson_interval(agreed.total(), len(rows), unit="reply").as_dict(),
        "weighted": _weighted(rows).as_dict(),
    }


def results(
    rows: list[dict[str, Any]],
    what: str,
    command: str,
    labels: str,
    *,
    misread: Callable[[dict[str, Any]], bool],
    shown: tuple[str, ...],
    seed: int = SEED,
) -> dict[str, Any]:
    """A results file: agreement, replies ``misread`` (read, labelled ambiguous), disagreements."""
    return {
        "what": what,
        "seed": seed,
        "command": command,
        "labels": labels,
        **agreement(rows),
        "reads_where_ambiguous": sum(misread(r) for r in rows),
        "disagreements": [{key: r[key] for key in shown} for r in rows if not r["agree"]],
        "replies": rows,
    }


def normalise(answer: str) -> str:
    """Comparable form of an answer text.

    Lower case; split at commas, semicolons, arrows, a spaced dash and "then"; each part
    without surrounding spaces, quotes, ``*``, backticks or end punctuation, and without a
    leading "the " or "room "; inner spaces single; the parts joined by ", ". So "Room 1 ->
    room 3." and "1, 3" are equal (a map's pairs compare as the flat list of their ends).
    """
    parts = (part.strip(" .!:*`'\"") for part in _SEPARATORS.split(answer.lower()))
    return ", ".join(" ".join(_PREFIX.sub("", part).split()) for part in parts if part)


def _cogeval_entry(sample: Any) -> dict[str, Any]:
    """Key entry of one scored CogEval sample, with the question and scored reply as ``blind``."""
    replies = [i for i, message in enumerate(sample.messages) if message.role == "assistant"]
    number = (sample.metadata or {}).get("scored_reply") or len(replies)
    scored = replies[number - 1]
    question = next(m for m in reversed(sample.messages[:scored]) if m.role == "user")
    score = sample.scores[SCORER]
    return {
        "sample": str(sample.id),
        "epoch": sample.epoch,
        "answer": score.answer,
        "blind": {"question": question.text, "reply": sample.messages[scored].text},
    }


def sample_cogeval(log_path: Path, folder: Path) -> None:
    """Stratify the log's finished samples by the reader's outcome and draw the sample."""
    from inspect_ai.log import read_eval_log

    strata: dict[str, list[dict[str, Any]]] = {}
    for sample in read_eval_log(str(log_path)).samples or []:
        if sample.scores and SCORER in sample.scores:
            outcome = (sample.scores[SCORER].metadata or {}).get("failure_mode") or "success"
            strata.setdefault(outcome, []).append(_cogeval_entry(sample))
    draw_sample(strata, folder, "cogeval", SIZE, SEED)


def join_cogeval(labels_path: Path, folder: Path) -> dict[str, Any]:
    """Join the labels with the key and the replies; agreement per stratum, overall, weighted."""
    key, labels = read_key_and_labels(labels_path, folder / "cogeval_key.json")
    replies = {entry["id"]: entry["reply"] for entry in read_json(folder / "cogeval_blind.json")}
    rows = []
    for id_, entry in key.items():
        label, label_answer = labels[id_]["label"], labels[id_].get("answer")
        if label not in ("one", *NO_ANSWER) or (label == "one") != (label_answer is not None):
            raise SystemExit(f"{labels_path}: {id_}: not one with an answer, ambiguous or none")
        # Read again by this code (the key keeps the reading of the code that drew the sample).
        found = read_final_answer(replies[id_])
        answer = found.text if found.problem is None else None
        if label == "one":
            agree = answer is not None and normalise(answer) == normalise(label_answer)
        else:
            agree = answer is None
        rows.append({
            "id": id_, **entry, "read": answer, "label": label, "label_answer": label_answer,
            "agree": agree,
            "note": labels[id_].get("note", ""), "reply": replies[id_],
        })  # fmt: skip
    return results(
        rows,
        "CogEval's reader on a random sample of Qwen2.5-Coder-1.5B's replies (the CPU preset's "
        "profile), labelled blind.",
        "python benchmarks/reading_sample.py sample cogeval LOG; label the blind file; "
        "python benchmarks/reading_sample.py join cogeval LABELS",
        "one labeller (a helper agent) who saw only the blind file: the question turn and the "
        "scored reply; never the reader's outcome or answer, the score or the expected answer",
        misread=lambda r: r["label"] == "ambiguous" and r["read"] is not None,
        shown=("id", "sample", "stratum", "read", "label", "label_answer"),
    )


@dataclass(frozen=True)
class Turn:
    """One reply: what the labeller sees, the reader's outcome and what the log recorded.

    ``outcome`` maps each answer field to the value read (``None``: nothing); ``consistent``
    says whether the log's score recorded that reading.
    """

    turn: str
    prompt: str
    reply: str
    asked: dict[str, str]
    outcome: dict[str, Any]
    recorded: Any
    consistent: bool


@dataclass(frozen=True)
class Reader:
    """A reader measured on real replies: the task whose logs hold them, and its turns."""

    task: str
    title: str
    turns: Callable[[EvalSample], Iterator[Turn]]


def _prompt_before(messages: list[Any], index: int) -> str:
    """The last message before ``index`` that is not the model's (the turn it answers)."""
    return next(m.text for m in reversed(messages[:index]) if m.role != "assistant")


def _assistant_turns(sample: EvalSample) -> list[tuple[str, str]]:
    """``(prompt, reply)`` of each assistant message, in order."""
    return [
        (_prompt_before(sample.messages, index), message.text)
        for index, message in enumerate(sample.messages)
        if message.role == "assistant"
    ]


def static_turns(sample: EvalSample) -> Iterator[Turn]:
    """Each asked rotation of a static item, read with ``parse_choice_letter``."""
    options = list(sample.choices or [])
    letters = LETTERS[: len(options)]
    question = next(m.text for m in reversed(sample.input) if m.role == "user")  # type: ignore[union-attr]
    answers = sample.scores["option_letter"].metadata["answers"]  # type: ignore[index]
    for rotation, recorded in zip(sample.store[ROTATIONS_KEY], answers, strict=True):
        read = parse_choice_letter(rotation["reply"], rotated(options, rotation["shift"]))
        yield Turn(
            turn=f"rotation{rotation['shift']}",
            prompt=rotation_prompt(question, options, rotation["shift"]),
            reply=rotation["reply"],
            asked={"answer": f"one option letter ({', '.join(letters)})"},
            outcome={"answer": read},
            recorded=recorded,
            consistent=read == recorded,
        )


def number_guessing_turns(sample: EvalSample) -> Iterator[Turn]:
    """Each round's reply, read with ``parse_round_reply``; the game replayed from the readings."""
    game = NumberGuessingGame.from_dict(sample.store[NUMBER_GUESSING_KEY])
    replay = NumberGuessingGame(game.level, game.rounds, integers=game.integers)
    for (prompt, reply), played in zip(_assistant_turns(sample), game.completed, strict=True):
        read = parse_round_reply(reply)
        replay = replay.play_round(read, played.opponent_number)
        yield Turn(
            turn=f"round{played.round}",
            prompt=prompt,
            reply=reply,
            asked={"prediction": "a number", "choice": "a number"},
            outcome={"prediction": read.prediction, "choice": read.choice},
            recorded=asdict(played),
            consistent=replay.completed[-1] == played,
        )


def _template(text: str) -> re.Pattern[str]:
    """A prompt template closing a turn, each ``{field}`` a group (``f0`` for ``{0}``)."""
    parts = []
    for literal, name, _, _ in Formatter().parse(text):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(rf"(?P<{name if name and not name.isdigit() else f'f{name}'}>.*?)")
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


_HOLDEM_PROMPTS = {
    kind: _template(text)
    for kind, text in (
        ("beliefs", BELIEF_PROMPT),
        ("action", ACTION_PROMPT),
        ("reask", REASK_PROMPT),
        ("style", STYLE_PROMPT),
    )
}


def _holdem_kind(prompt: str) -> tuple[str, re.Match[str]]:
    """The question a Hold'em turn asks and its template's match."""
    for kind, pattern in _HOLDEM_PROMPTS.items():
        if match := pattern.search(prompt):
            return kind, match
    raise ValueError(f"not a Hold'em question: {prompt[-80:]!r}")


def _holdem_beliefs(match: re.Match[str], reply: str, beliefs: tuple[BeliefResult, ...]) -> Turn:
    """A belief reply read with ``parse_beliefs`` (letters as shown), checked with its hand's."""
    order = tuple(HOLDING_OPTIONS.index(match.group(f"f{i}")) for i in range(3))
    read = parse_beliefs(reply, order)
    return Turn(
        turn="",
        prompt="",
        reply=reply,
        asked={"cards": "A, B or C", "raise": "yes or no"},
        outcome={
            "cards": None if read.holding is None else "ABC"[order.index(read.holding)],
            "raise": None if read.raise_ is None else YES_NO[read.raise_],
        },
        recorded=[asdict(belief) for belief in beliefs],
        consistent=[read.holding, read.raise_][: len(beliefs)] == [b.answer for b in beliefs],
    )


def _holdem_style(match: re.Match[str], reply: str, record: MatchRecord) -> Turn:
    """The style reply read with ``parse_style`` (letters as shown), checked with the match's."""
    by_text = {text: name for name, text in STYLE_OPTIONS}
    order = (by_text[match.group("f0")], by_text[match.group("f1")])
    read = parse_style(reply, order)
    return Turn(
        turn="",
        prompt="",
        reply=reply,
        asked={"style": "A or B"},
        outcome={"style": None if read is None else "AB"[order.index(read)]},
        recorded=record.style_answer,
        consistent=read == record.style_answer,
    )


def _holdem_action(match: re.Match[str], reply: str, action: TableAction, last: bool) -> Turn:
    """An action reply read with ``parse_action``; ``last``: no re-ask followed it."""
    legal = tuple(match.group("legal").split(", "))
    read = parse_action(reply, legal)
    played = None if action.invalid else action.action
    return Turn(
        turn="",
        prompt="",
        reply=reply,
        asked={"action": f"one of the legal actions ({', '.join(legal)})"},
        outcome={"action": read},
        recorded=asdict(action),
        consistent=read == played if last else read is None,
    )


def holdem_turns(question: str, sample: EvalSample) -> Iterator[Turn]:
    """The replies to one Hold'em question: ``beliefs``, ``action`` (re-asks too) or ``style``."""
    record = MatchRecord.from_dict(sample.store[HOLDEM_KEY])
    asked = [(*_holdem_kind(prompt), prompt, reply) for prompt, reply in _assistant_turns(sample)]
    beliefs = iter(hand.beliefs for hand in record.hands if hand.beliefs)
    actions = iter(a for hand in record.hands for a in hand.actions if a.seat == MODEL_SEAT)
    action = None
    for number, (kind, match, prompt, reply) in enumerate(asked):
        if kind == "beliefs":
            turn = _holdem_beliefs(match, reply, next(beliefs))
        elif kind == "style":
            turn = _holdem_style(match, reply, record)
        else:
            action = next(actions) if kind == "action" else action
            last = number + 1 == len(asked) or asked[number + 1][0] != "reask"
            turn = _holdem_action(match, reply, action, last)  # type: ignore[arg-type]
        if question == kind or (question, kind) == ("action", "reask"):
            yield replace(turn, turn=f"turn{number + 1}", prompt=prompt)


def _rating_request(prompts: list[tuple[str, str]], reply: str, statement: str) -> str:
    """The prompt that got ``reply`` and quotes ``statement``, from the statement's line on."""
    for completion, prompt in prompts:
        if completion == reply and (at := prompt.rfind(statement)) >= 0:
            return prompt[prompt.rfind("\n", 0, at) + 1 :]
    raise ValueError(f"no prompt quoting {statement!r} got the reply {reply[:60]!r}")


def cogbench_turns(sample: EvalSample) -> Iterator[Turn]:
    """The reply each question's rating was read from, read with ``parse_rating_answer``."""
    prompts = [
        (event.output.completion, event.input[-1].text)
        for event in sample.events
        if isinstance(event, ModelEvent) and event.input
    ]
    for record in sample.store[COGBENCH_KEY]:
        for number, answer in enumerate(record["answers"], start=1):
            read = parse_rating_answer(answer["raw"]).rating
            yield Turn(
                turn=f"t{record['iteration']}.q{number}",
                prompt=_rating_request(prompts, answer["raw"], answer["question"]),
                reply=answer["raw"],
                asked={"rating": "one number from 1 to 5"},
                outcome={"rating": read},
                recorded=answer["rating"],
                consistent=read == answer["rating"],
            )


def _user_text(sample: EvalSample) -> str:
    """The last user message of a sample's input (the prompt its one reply answers)."""
    return next(m.text for m in reversed(sample.input) if m.role == "user")  # type: ignore[union-attr]


def blackjack_turns(sample: EvalSample) -> Iterator[Turn]:
    """The beliefs reply, read with ``read_beliefs`` (the texts), checked with the score."""
    prompt, reply = _user_text(sample), sample.output.completion
    read = {kind: found.text for kind, found in read_beliefs(reply, prompt).items()}
    value = sample.scores["belief_judge"].value  # type: ignore[index]
    yield Turn(
        turn="reply",
        prompt=prompt,
        reply=reply,
        asked={kind: "the text inside its braces" for kind in BELIEF_TYPES},
        outcome=read,
        recorded=value["not_stated"],  # type: ignore[index]
        consistent=value["not_stated"] == sum(t is None for t in read.values()) / 2,  # type: ignore[index]
    )


def grade_turns(sample: EvalSample) -> Iterator[Turn]:
    """Each reply of the judge, read with ``parse_grade``, checked with the beliefs' grades."""
    calls = iter(
        (event.input[-1].text, event.output.completion)
        for event in sample.events
        if isinstance(event, ModelEvent) and event.role is not None and event.input
    )
    value = sample.scores["belief_judge"].value  # type: ignore[index]
    read_texts = read_beliefs(sample.output.completion, _user_text(sample))
    for kind in BELIEF_TYPES:
        if read_texts[kind].text is None:
            continue
        for attempt in range(JUDGE_ATTEMPTS):
            prompt, reply = next(calls)
            grade = parse_grade(reply)
            last = grade is not None or attempt + 1 == JUDGE_ATTEMPTS
            yield Turn(
                turn=f"{kind}.{attempt + 1}",
                prompt=prompt,
                reply=reply,
                asked={"grade": "C or I"},
                outcome={"grade": None if grade is None else "C" if grade else "I"},
                recorded=value[kind],  # type: ignore[index]
                consistent=not last or float(bool(grade)) == value[kind],  # type: ignore[index]
            )
            if grade is not None:
                break


READERS: dict[str, Reader] = {
    "egosocial_static": Reader("egosocial_static", "EgoSocialArena static's reader", static_turns),
    "number_guessing": Reader(
        "egosocial_number_guessing", "Number Guessing's reader", number_guessing_turns
    ),
    "holdem_action": Reader(
        "egosocial_holdem", "Hold'em's action reader", partial(holdem_turns, "action")
    ),
    "holdem_beliefs": Reader(
        "egosocial_holdem", "Hold'em's belief reader", partial(holdem_turns, "beliefs")
    ),
    "holdem_style": Reader(
        "egosocial_holdem", "Hold'em's style reader", partial(holdem_turns, "style")
    ),
    "cogbench_rating": Reader("cogbench", "CogBench's rating reader", cogbench_turns),
    "blackjack_beliefs": Reader(
        "egosocial_blackjack_beliefs", "Blackjack's belief reader", blackjack_turns
    ),
    "blackjack_grade": Reader(
        "egosocial_blackjack_beliefs", "Blackjack's grade reader (the judge's replies)", grade_turns
    ),
}
"""The readers measured on real chat replies, by the name of their files."""


def finished_logs(paths: list[Path], task: str) -> list[tuple[Path, EvalLog]]:
    """Finished logs of ``task`` by real models under ``paths``, each ``eval_id`` once (newest).

    A log file named itself in ``paths`` is read whatever its status (an interrupted run's
    finished samples); one found in a folder only when it succeeded.
    """
    found = [
        path
        for root in paths
        for path in ([root] if root.is_file() else sorted(root.rglob("*.eval")))
        if not any(part == "wt" or part.startswith("frozen") for part in path.parts)
    ]
    newest: dict[str, tuple[Path, EvalLog]] = {}
    for path in sorted(found, key=lambda path: (path.name, str(path))):
        header = read_eval_log(str(path), header_only=True)
        if (
            (header.status == "success" or path in paths)
            and task_name(header) == task
            and not header.eval.model.startswith(SCRIPTED)
        ):
            newest[header.eval.eval_id] = (path, header)
    return sorted(newest.values())


def _stratum(outcome: dict[str, Any]) -> str:
    """The value read (one field) or the fields read (two); ``none`` when nothing was read."""
    if len(outcome) == 1:
        (value,) = outcome.values()
        return "none" if value is None else str(value)
    return "+".join(name for name, value in outcome.items() if value is not None) or "none"


def sample_reader(name: str, paths: list[Path], folder: Path) -> None:
    """Read every reply of the reader's logs, report mismatches with the logs, draw the sample."""
    reader = READERS[name]
    strata: dict[str, list[dict[str, Any]]] = {}
    mismatches = []
    for path, header in finished_logs(paths, reader.task):
        log = read_eval_log(str(path), resolve_attachments=True)
        for sample in log.samples or []:
            if not sample.scores:
                continue
            for turn in reader.turns(sample):
                entry = {
                    "model": header.eval.model, "log": str(path), "sample": str(sample.id),
                    "epoch": sample.epoch, "turn": turn.turn, "outcome": turn.outcome,
                    "recorded": turn.recorded, "consistent": turn.consistent,
                    "blind": {"prompt": turn.prompt, "asked": turn.asked, "reply": turn.reply},
                }  # fmt: skip
                strata.setdefault(_stratum(turn.outcome), []).append(entry)
                if not turn.consistent:
                    mismatches.append(entry)
        print(f"{path}: {header.eval.model}")
    for entry in mismatches:
        print(
            f"mismatch {entry['log']} {entry['sample']} {entry['turn']}: read "
            f"{entry['outcome']}, recorded {entry['recorded']}"
        )
    if not strata:
        raise SystemExit(f"{name}: no finished log of {reader.task} from a real model")
    draw_sample(strata, folder, name, READER_SIZE, SEED)


def _label(raw: Any, fields: list[str], where: str) -> tuple[dict[str, str], str]:
    """A label as ``{field: answer | none | ambiguous}`` and its note."""
    value, note = (
        (raw["label"], raw.get("note", ""))
        if isinstance(raw, dict) and "label" in raw
        else (raw, "")
    )
    value = value if isinstance(value, dict) else dict.fromkeys(fields, value)
    if sorted(value) != sorted(fields) or not all(
        isinstance(v, str | int | float) for v in value.values()
    ):
        raise SystemExit(f"{where}: give one label for each of {fields}")
    cleaned = {field: str(value[field]).strip() for field in fields}
    return {f: v.lower() if v.lower() in NO_ANSWER else v for f, v in cleaned.items()}, note


def field_agrees(read: Any, label: str) -> bool:
    """Whether a reading matches a label: nothing where none or ambiguous, else the same answer."""
    if read is None or label in NO_ANSWER:
        return read is None and label in NO_ANSWER
    try:
        return float(read) == float(label)
    except ValueError:
        return _words(str(read)) == _words(label)


def _words(text: str) -> list[str]:
    """The words of a text without case (a belief's text is compared by its words)."""
    return re.findall(r"\w+", text.casefold())


def _log_places(path: str) -> Iterator[Path]:
    """A log's recorded path, then any file of its name under :data:`LOG_ROOTS`."""
    yield Path(path)
    for root in LOG_ROOTS:
        yield from root.rglob(Path(path).name)


def _read_again(key: dict[str, Any], reader: Reader) -> dict[str, Any]:
    """Each key entry read again by this code from its log (the sample's reading kept apart)."""
    now = {}
    for path in sorted({entry["log"] for entry in key.values()}):
        # A step folder renamed since (its digest's formula changed) still holds the log.
        where = next((p for p in _log_places(path) if p.exists()), Path(path))
        for sample in read_eval_log(str(where), resolve_attachments=True).samples or []:
            for turn in reader.turns(sample) if sample.scores else ():
                now[path, str(sample.id), sample.epoch, turn.turn] = turn.outcome
    return {
        id_: {
            **entry,
            "sampled_outcome": entry["outcome"],
            "outcome": now[entry["log"], entry["sample"], entry["epoch"], entry["turn"]],
        }
        for id_, entry in key.items()
    }


def join_reader(name: str, labels_path: Path, folder: Path) -> dict[str, Any]:
    """Join the labels with the key read again by this code; agreement per stratum, weighted."""
    key, labels = read_key_and_labels(labels_path, folder / f"{name}_key.json")
    key = _read_again(key, READERS[name])
    replies = {entry["id"]: entry["reply"] for entry in read_json(folder / f"{name}_blind.json")}
    rows = []
    for id_, entry in key.items():
        label, note = _label(labels[id_], list(entry["outcome"]), f"{labels_path}: {id_}")
        agree = all(field_agrees(entry["outcome"][f], answer) for f, answer in label.items())
        rows.append(
            {
                "id": id_,
                **entry,
                "label": label,
                "agree": agree,
                "note": note,
                "reply": replies[id_],
            }
        )
    models = ", ".join(sorted({row["model"] for row in rows}))
    return results(
        rows,
        f"{READERS[name].title} on a random sample of real replies ({models}), labelled blind.",
        f"python benchmarks/reading_sample.py sample {name}; label the blind file; "
        f"python benchmarks/reading_sample.py join {name} LABELS",
        "one labeller who saw only the blind file: the prompt turn, the asked answer fields and "
        "the reply; never the reader's outcome, the score or the expected answer",
        misread=lambda r: any(
            answer == "ambiguous" and r["outcome"][f] is not None
            for f, answer in r["label"].items()
        ),
        shown=("id", "model", "sample", "turn", "stratum", "sampled_outcome", "outcome", "label"),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sample", "join"))
    parser.add_argument("reader", choices=("cogeval", *READERS))
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        help="sample: Inspect logs or folders (cogeval: one log; else default "
        "/work/runs /work/notes); join: the labels file",
    )
    parser.add_argument("--folder", type=Path, default=Path("/work/blind"))
    parser.add_argument("--force", action="store_true", help="write over existing files")
    parser.add_argument(
        "--suffix", default="", help="join: results/<reader>_reading_random<SUFFIX>.json"
    )
    args = parser.parse_args()
    allow_overwrite(args.force)
    if args.command == "sample" and args.reader != "cogeval":
        sample_reader(args.reader, args.paths or list(LOG_ROOTS), args.folder)
        return 0
    if len(args.paths) != 1:
        parser.error(f"{args.command} {args.reader} takes one path")
    (path,) = args.paths
    if args.command == "sample":
        sample_cogeval(path, args.folder)
    elif args.reader == "cogeval":
        write_json_atomically(
            RESULTS / f"cogeval_reading_random{args.suffix}.json", join_cogeval(path, args.folder)
        )
    else:
        write_json_atomically(
            RESULTS / f"{args.reader}_reading_random{args.suffix}.json",
            join_reader(args.reader, path, args.folder),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
