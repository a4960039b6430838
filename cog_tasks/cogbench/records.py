"""CogBench records in the authors' schema (docs/data.md), and the trajectories built from them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cog_tasks.cogbench.metrics import WeightScheme, iteration_value
from cog_tasks.cogbench.parsing import coerce_rating, profile_from_text
from cog_tasks.cogbench.rationality import NO_REASONING, UNREADABLE, JudgeVerdict
from cog_tasks.common.errors import UserError


class RecordError(UserError):
    """A CogBench record that does not fit the schema; the message names where."""


@dataclass(frozen=True)
class MethodAnswer:
    """One method's answer to one question, as stored in an eval file."""

    rating: int | None
    reason: str = ""
    rationality: int | None = None  # human score 1-5, ``None`` when unset (-1)
    profile: str = ""
    judge: JudgeVerdict | None = None  # kept in ``judge_rationality``; ``None``: not judged


@dataclass(frozen=True)
class QuestionnaireItem:
    """A questionnaire statement with its human majority rating and methods' answers."""

    question: str
    human_rating: int | None = None
    answers: Mapping[str, MethodAnswer] = field(default_factory=dict)


@dataclass(frozen=True)
class CogBenchRecord:
    """One (topic, iteration[, profile]) record; the profile is the initial one (eval files)."""

    topic: str
    iteration: int
    information_flow: str
    questionnaire: tuple[QuestionnaireItem, ...]
    profile: Mapping[str, str] | None = None

    @property
    def trajectory(self) -> tuple[str, str]:
        """Its topic and profile ``Name`` ('' without one): the trajectory it belongs to."""
        return self.topic, (self.profile or {}).get("Name", "")


def information_flow_text(flow: object, where: str) -> str:
    """Join an ``information_flow`` (strings or dicts of non-empty values) into one text."""
    if flow is None:
        return ""
    if isinstance(flow, str):
        return flow.strip()
    if not isinstance(flow, list):
        raise RecordError(f"{where}: information_flow must be a list, got {type(flow).__name__}")
    parts = []
    for index, item in enumerate(flow):
        if isinstance(item, Mapping):
            text = "\n".join(str(value).strip() for value in item.values() if value)
        elif isinstance(item, str):
            text = item.strip()
        else:
            raise RecordError(
                f"{where}: information_flow item {index} must be a string or a dict, "
                f"got {type(item).__name__}"
            )
        if text:
            parts.append(text)
    return "\n\n".join(parts)


def _method_answer(raw: object, where: str) -> MethodAnswer:
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: must be a dict with rating/reason/rationality")
    return MethodAnswer(
        rating=coerce_rating(raw.get("rating")),
        reason=str(raw.get("reason") or "").strip(),
        rationality=coerce_rating(raw.get("rationality")),
        profile=str(raw.get("profile") or "").strip(),
        judge=_judge_verdict(raw.get("judge_rationality"), where),
    )


def _judge_verdict(raw: object, where: str) -> JudgeVerdict | None:
    """A stored ``judge_rationality``: ``None`` (-1 or absent: not judged) or the verdict."""
    if raw is None or raw == -1 or raw == "-1":
        return None
    value = int(raw) if isinstance(raw, str) and raw.strip().isdigit() else raw
    try:
        return JudgeVerdict.from_recorded(value)  # type: ignore[arg-type]
    except ValueError:
        raise RecordError(
            f"{where}: judge_rationality must be a score 1-5, {UNREADABLE!r}, "
            f"{NO_REASONING!r} or -1 (not judged), got {raw!r}"
        ) from None


def _human_rating(raw: object, where: str) -> int | None:
    if raw is None or raw == -1 or raw == "-1":
        return None
    rating = coerce_rating(raw)
    if rating is None:
        raise RecordError(f"{where}: human_rating must be 1-5 or -1 (unset), got {raw!r}")
    return rating


def _questionnaire_item(raw: object, where: str) -> QuestionnaireItem:
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: must be a dict with a 'question'")
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise RecordError(f"{where}: has no 'question' text")
    answer = raw.get("answer") or {}
    if not isinstance(answer, Mapping):
        raise RecordError(f"{where}: 'answer' must be a dict")
    return QuestionnaireItem(
        question=question.strip(),
        human_rating=_human_rating(answer.get("human_rating"), f"{where} human_rating"),
        answers={
            str(method): _method_answer(value, f"{where} answer {method!r}")
            for method, value in answer.items()
            if method != "human_rating"
        },
    )


def _profile(raw: object, where: str) -> dict[str, str]:
    if isinstance(raw, str):
        raw = profile_from_text(raw)
    if not isinstance(raw, Mapping) or not raw:
        raise RecordError(f"{where}: 'profile' must be a non-empty dict of attributes")
    return {str(key): str(value) for key, value in raw.items()}


def parse_record(raw: object, where: str, require_profile: bool = False) -> CogBenchRecord:
    """Validate one bench or eval record; ``where`` names it in errors."""
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: must be a JSON object, got {type(raw).__name__}")
    topic = raw.get("topic")
    if not isinstance(topic, str) or not topic.strip():
        raise RecordError(f"{where}: has no 'topic'")
    iteration = raw.get("iteration")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 0:
        raise RecordError(f"{where}: 'iteration' must be a non-negative integer, got {iteration!r}")
    questionnaire = raw.get("questionnaire")
    if not isinstance(questionnaire, list) or not questionnaire:
        raise RecordError(f"{where}: 'questionnaire' must be a non-empty list")
    profile = raw.get("profile")
    if profile is None and require_profile:
        raise RecordError(f"{where}: has no 'profile'")
    return CogBenchRecord(
        topic=topic.strip(),
        iteration=iteration,
        information_flow=information_flow_text(raw.get("information_flow"), where),
        questionnaire=tuple(
            _questionnaire_item(item, f"{where} questionnaire item {index}")
            for index, item in enumerate(questionnaire)
        ),
        profile=None if profile is None else _profile(profile, where),
    )


def slug(text: str) -> str:
    """Lower-case id fragment: runs of non-word characters become ``_``."""
    return re.sub(r"\W+", "_", text.strip().lower()).strip("_") or "x"


@dataclass(frozen=True)
class TrajectoryStep:
    """What one iteration of a trajectory presents to the agent, with the human ratings."""

    iteration: int
    information_flow: str
    questions: tuple[str, ...]
    human_ratings: tuple[int | None, ...]


@dataclass(frozen=True)
class Trajectory:
    """One (topic, profile) pair through its iterations: one Inspect sample."""

    subset: str
    language: str
    topic: str
    profile: Mapping[str, str]
    steps: tuple[TrajectoryStep, ...]
    source: str = ""

    @property
    def profile_name(self) -> str:
        """The profile's ``Name`` (or a stand-in when the data has none)."""
        return self.profile.get("Name") or "unnamed"

    @property
    def id(self) -> str:
        """Stable sample id: ``<subset>-<topic>-<profile name>``."""
        return f"{self.subset}-{slug(self.topic)}-{slug(self.profile_name)}"

    def rated_alike(self, rating: int | None, scheme: WeightScheme, kappa: str) -> dict[str, float]:
        """Its ``Score.value`` tallies with every statement rated ``rating`` (``None``: unread)."""
        value: dict[str, float] = {}
        for step in self.steps:
            ratings = (step.human_ratings, [rating] * len(step.human_ratings))
            flat = iteration_value(
                step.iteration, step.questions, *ratings, scheme, kappa == "per_question"
            )
            value.update(flat)
        return value

    def to_metadata(self) -> dict[str, Any]:
        """JSON-ready form for ``Sample.metadata``."""
        return {
            "subset": self.subset,
            "language": self.language,
            "topic": self.topic,
            "profile": dict(self.profile),
            "source": self.source,
            "steps": [
                {key: list(v) if isinstance(v, tuple) else v for key, v in asdict(step).items()}
                for step in self.steps
            ],
        }

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any]) -> Trajectory:
        """Inverse of :meth:`to_metadata`."""
        steps = tuple(
            TrajectoryStep(**{key: tuple(v) if isinstance(v, list) else v for key, v in s.items()})
            for s in metadata["steps"]
        )
        named = (metadata[name] for name in ("subset", "language", "topic"))
        return cls(*named, dict(metadata["profile"]), steps, metadata.get("source", ""))


def build_trajectories(
    eval_records: Sequence[CogBenchRecord],
    bench_records: Sequence[CogBenchRecord],
    subset: str,
    language: str,
    source: str = "",
) -> list[Trajectory]:
    """Group eval records into (topic, profile) trajectories, flows from the bench records."""
    flows = {(r.topic, r.iteration): r.information_flow for r in bench_records}
    groups: dict[tuple[str, str], list[CogBenchRecord]] = {}
    profiles: dict[tuple[str, str], Mapping[str, str]] = {}
    for index, record in enumerate(eval_records):
        if record.profile is None:
            raise RecordError(f"eval record {index} (topic {record.topic!r}) has no profile")
        key = (record.topic, record.profile.get("Name") or repr(sorted(record.profile.items())))
        groups.setdefault(key, []).append(record)
        profiles.setdefault(key, record.profile)
    trajectories = []
    for key in sorted(groups):
        records = sorted(groups[key], key=lambda r: r.iteration)
        iterations = [r.iteration for r in records]
        if len(set(iterations)) != len(iterations):
            raise RecordError(f"topic {key[0]!r}, profile {key[1]!r}: repeated iterations")
        steps = tuple(
            TrajectoryStep(
                iteration=r.iteration,
                information_flow=r.information_flow or flows.get((r.topic, r.iteration), ""),
                questions=tuple(item.question for item in r.questionnaire),
                human_ratings=tuple(item.human_rating for item in r.questionnaire),
            )
            for r in records
        )
        trajectories.append(
            Trajectory(subset, language, key[0], dict(profiles[key]), steps, source)
        )
    check_sample_ids(trajectories, source)
    return trajectories


def check_sample_ids(trajectories: Sequence[Trajectory], source: str) -> None:
    """Refuse two trajectories with one sample id: the id folds case and punctuation."""
    first: dict[str, Trajectory] = {}
    for trajectory in trajectories:
        other = first.setdefault(trajectory.id, trajectory)
        if other is not trajectory:
            raise RecordError(
                f"{source or 'eval records'}: topic {trajectory.topic!r}, profile "
                f"{trajectory.profile_name!r} and topic {other.topic!r}, profile "
                f"{other.profile_name!r} get the same sample id {trajectory.id!r}; rename one"
            )
