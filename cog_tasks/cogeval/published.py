"""The paper's audited tasks (``source=published``): an index of paths, read at run time."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from cog_tasks.cogeval.graphs import (
    ANALYSIS_FAMILIES,
    CONDITION_FAMILIES,
    COUNT_CONDITIONS,
    PAPER_DOMAINS,
    cot_variants,
    in_experiment,
)
from cog_tasks.cogeval.parsing import extract_answer, split_route
from cog_tasks.cogeval.published_graph import question_start, scoring_context
from cog_tasks.cogeval.scoring import AnswerKind, infer_kind
from cog_tasks.common.files import DataFileError
from cog_tasks.common.params import ParameterError
from cog_tasks.common.provenance import cache_reads
from cog_tasks.common.settings import HubSource, hub_source, local_data_dir
from cog_tasks.common.sources import GITHUB_RAW, Content, DataSource, fetch

UPSTREAM_REPO = "cogeval/cogmaps"
UPSTREAM_COMMIT = "e731203dc4626decade618065f79eb1b4218debd"
INDEX_FILE = Path(__file__).with_name("published_index.json")
#: Conditions of the published tasks that our generator does not have, with their family.
PUBLISHED_ONLY_FAMILIES: dict[str, str] = {
    "nonteleShortcutShortest": "Shortcut",
    "teleShortcutShortest": "Shortcut",
}
#: Every condition a score table may hold: the generated ones and the published-only ones.
SCORED_CONDITION_FAMILIES: dict[str, str] = {**CONDITION_FAMILIES, **PUBLISHED_ONLY_FAMILIES}
#: Experiment 2's upstream condition folders, named as our conditions.
EXPERIMENT2_CONDITIONS: dict[str, str] = {
    "nClusters": "exp2ClusterCount",
    "ShortestPath": "exp2WithinCluster",
    "ShortestPathOneClusterAway": "exp2OneClusterAway",
}
#: Experiment 2's prompt variants, named as our ``cot`` values.
EXPERIMENT2_VARIANTS: dict[str, str] = {
    "original": "none",
    "original_BFS": "bfs",
    "original_DFS": "dfs",
}
UNSCORED_CONDITIONS: frozenset[str] = frozenset({"mapRepresentation"})
#: The items :func:`cog_tasks.cogeval.audit.audit` flags (a test checks the list against the data).
UNSCORABLE: frozenset[str] = frozenset(
    {
        "n13line.ordRooms.nonteleDetour@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.nonteleShortcut@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.rewardReval@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.teleDetour@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.teleShortcut@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.transReval@forefront-pythia-20b/temp_0_000",
        "n13line.ordRooms.valuePath@forefront-pythia-20b/temp_0_000",
        "n16cluster.unordSpatial.1stepPath@forefront-pythia-12b/temp_0_000",
        "n16cluster.unordSpatial.2stepPath@forefront-pythia-12b/temp_0_000",
        "n16cluster.unordSpatial.3stepPath@forefront-pythia-12b/temp_0_000",
        "n16cluster.unordSpatial.3stepPath@gpt-4-32k/temp_0_009",
        "n16cluster.unordSpatial.nstepPath@forefront-pythia-12b/temp_0_000",
        "n16cluster.unordSpatial.nstepPath@gpt-4-32k/temp_0_029",
        "n7tree.socialTies.teleDetour",
        "n7tree.socialTies.teleDetour@gpt-4-32k/temp_1_027",
        "n7tree.unordSpatial.nonteleDetour@forefront-pythia-20b/temp_0_000",
        "n7tree.unordSpatial.nonteleShortcut@forefront-pythia-20b/temp_0_000",
        "n7tree.unordSpatial.teleDetour@forefront-pythia-20b/temp_0_000",
    }
)


def _read_hub(hub: HubSource, path: str) -> Content:
    """One task file from a folder or Hub dataset laid out like ``COG_TASKS_DATA/cogeval``."""
    if hub.is_folder:
        file = Path(hub.location).expanduser() / path
        return Content(file.read_bytes(), str(file), "hub", file)
    from huggingface_hub import hf_hub_download

    file = Path(hf_hub_download(hub.location, path, repo_type="dataset", revision=hub.revision))
    return Content(file.read_bytes(), f"{hub} file {path}", "hub", file)


SOURCE = DataSource(
    benchmark="cogeval",
    title="CogEval",
    repo=UPSTREAM_REPO,
    commit=UPSTREAM_COMMIT,
    url_template=GITHUB_RAW,
    read_hub=_read_hub,
    hub_copy="a folder laid out as conversations/<graph>/<domain>/<condition>.json",
    more_ways_out=(
        "or put one file per task at $COG_TASKS_DATA/cogeval/conversations/<graph>/<domain>/"
        "<condition>.json (the layout of the shared data folder)",
        "run the generated tasks instead: -T source=generated in Inspect, the cogeval_generated "
        "group (or a cogeval_generated_<graph> task) in lm-eval",
    ),
    describe=lambda path: f"CogEval audited conversation {path!r}",
)


@dataclass(frozen=True)
class Conversation:
    """The system message, the user turns and the expected answers of one prompt."""

    system: str
    turns: tuple[str, ...]
    expected: tuple[str, ...]


def check_content(content: Content) -> Conversation:
    """Validate one audited conversation; assistant turns, scores and other fields are ignored."""
    return _conversation(content.json(), content.source)


def check_variants(content: Content) -> dict[str, Conversation]:
    """Every prompt of a local task file, by the upstream runs that were sent it."""
    data = content.json()
    variants = data.get("variants") if isinstance(data, dict) else None
    if not isinstance(variants, list) or not variants:
        raise DataFileError(
            f"{content.source}: expected a 'variants' list (every prompt the published runs "
            "used, with its 'runs'), the layout of the shared data folder"
        )
    by_run: dict[str, Conversation] = {}
    for number, variant in enumerate(variants, start=1):
        runs = variant.get("runs") if isinstance(variant, dict) else None
        if not isinstance(runs, list) or not runs:
            raise DataFileError(f"{content.source}: variant {number} names no 'runs'")
        conversation = _conversation(variant, f"{content.source} variant {number}")
        by_run.update(dict.fromkeys(runs, conversation))
    return by_run


def _conversation(data: Any, source: str) -> Conversation:
    """The system message, user turns and expected answers of one prompt."""
    messages = data.get("messages") if isinstance(data, dict) else None
    tests = data.get("tests") if isinstance(data, dict) else None
    if not isinstance(messages, list) or not isinstance(tests, dict) or len(tests) != 1:
        raise DataFileError(
            f"{source}: expected an object with a 'messages' list and one 'tests' entry"
        )
    texts: dict[str, list[str]] = {"system": [], "user": []}
    for number, message in enumerate(messages, start=1):
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise DataFileError(f"{source}: message {number} has no text 'content'")
        if message.get("role") in texts:
            texts[message["role"]].append(message["content"])
    [test] = tests.values()
    expected = test.get("expected_answer") if isinstance(test, dict) else None
    if isinstance(expected, str):
        expected = [expected]
    if (
        len(texts["system"]) != 1
        or not texts["user"]
        or not isinstance(expected, list)
        or not expected
        or not all(isinstance(answer, str) and answer.strip() for answer in expected)
    ):
        raise DataFileError(
            f"{source}: needs one system message, at least one user turn and a "
            "non-empty list of expected answers"
        )
    return Conversation(texts["system"][0], tuple(texts["user"]), tuple(dict.fromkeys(expected)))


@dataclass(frozen=True)
class PublishedTask:
    """One item of the paper (one distinct prompt of a task), located but not yet read."""

    id: str
    task: str
    graph: str
    domain: str
    condition: str
    cot: str
    local_path: str
    upstream_path: str
    scored_reply: int

    @property
    def family(self) -> str:
        """The condition family."""
        return SCORED_CONDITION_FAMILIES[self.condition]

    @property
    def run(self) -> str:
        """The upstream run named in the index (``gpt-4-32k/temp_0_003``)."""
        folder = self.local_path.removesuffix(".json")
        if self.family == "Experiment2":  # the run names its variant folder
            folder = folder.rsplit("/", 1)[0]
        return self.upstream_path.removeprefix(f"{folder}/").removesuffix(".json")

    def load(self) -> Conversation:
        """Read and check the item's conversation (local file, Hub copy, else upstream)."""
        root = local_data_dir()
        local = root is not None and (root / SOURCE.benchmark / self.local_path).is_file()
        if local or hub_source(SOURCE.benchmark) is not None:
            variants = _variants(self.local_path)
            if self.run not in variants:
                raise DataFileError(
                    f"{SOURCE.label(self.local_path)}: no variant was sent to run {self.run!r}"
                )
            return variants[self.run]
        return fetch(SOURCE, self.upstream_path, check_content).value

    def to_record(self) -> dict[str, Any]:
        """A record shaped like a generated item's, with a graph context where one is read."""
        conversation = self.load()
        kind = answer_kind(self.condition, conversation.expected)
        context = scoring_context(conversation.turns, kind, conversation.expected)
        return {
            "id": self.id,
            "task": self.task,
            "source": "published",
            "graph": self.graph,
            "domain": self.domain,
            "condition": self.condition,
            "family": self.family,
            "cot": self.cot,
            "seed": None,
            "system": conversation.system,
            "turns": list(conversation.turns),
            "prompt": "\n\n".join([conversation.system, *conversation.turns]),
            "expected": list(conversation.expected),
            "scored_reply": self.scored_reply,
            "kind": kind,
            "start": task_start(kind, conversation),
            "graph_context": context.to_dict() if context is not None else None,
        }


def answer_kind(condition: str, expected: Sequence[str]) -> AnswerKind:
    """The answer form of a published task."""
    return "count" if condition in COUNT_CONDITIONS else infer_kind(condition, expected)


def task_start(kind: AnswerKind, conversation: Conversation) -> str | None:
    """The start a route or first move may name first: the question's, else the routes' own."""
    if kind == "first_step":
        return question_start(conversation.turns)
    if kind == "path":
        return question_start(conversation.turns) or route_start(conversation.expected)
    return None


def route_start(expected: Sequence[str]) -> str | None:
    """The start state every optimal route shares, if they share one."""
    starts = {tuple(split_route(extract_answer(text) or text))[:1] for text in expected}
    return starts.pop()[0] if len(starts) == 1 and () not in starts else None


@cache_reads
def _variants(local_path: str) -> dict[str, Conversation]:
    """The prompts of one local (or Hub) task file by run, read once per process."""
    return fetch(SOURCE, local_path, check_variants).value


def _task(
    local_path: str, upstream_path: str, scored_reply: int, first: bool
) -> PublishedTask | None:
    parts = local_path.split("/")
    if parts[1].endswith("_cot"):
        _, graph_folder, domain, folder, file = parts
        variant = file.rsplit("_", 1)[0]
        condition, cot = EXPERIMENT2_CONDITIONS[folder], EXPERIMENT2_VARIANTS[variant]
        graph = graph_folder.removesuffix("_cot")
    else:
        _, graph, domain, file = parts
        condition, cot = file.removesuffix(".json"), "none"
    if condition in UNSCORED_CONDITIONS:
        return None
    suffix = "" if cot == "none" else f".{cot}"
    task_id = f"{graph}.{domain}.{condition}{suffix}"
    item = PublishedTask(
        task_id, task_id, graph, domain, condition, cot, local_path, upstream_path, scored_reply
    )
    return item if first else replace(item, id=f"{task_id}@{item.run}")


@cache
def published_index() -> tuple[PublishedTask, ...]:
    """Every scored published item, from the package's index of paths."""
    index = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
    seen: set[str] = set()
    items = []
    for local, upstream, scored_reply in index["items"]:
        items.append(_task(local, upstream, scored_reply, first=local not in seen))
        seen.add(local)
    return tuple(item for item in items if item is not None)


def select_published(
    graphs: Sequence[str] | None = None,
    domains: Sequence[str] | None = None,
    conditions: Sequence[str] | None = None,
    cot: str | None = None,
    design: str = "all",
    experiment: int | None = None,
    unscorable: bool = False,
) -> list[PublishedTask]:
    """The published items that match, in index order (:data:`UNSCORABLE` ones on request)."""
    variants = cot_variants(experiment, cot)
    every = published_index()
    for name, chosen, known in (
        ("graph", graphs, {task.graph for task in every}),
        ("domain", domains, {task.domain for task in every}),
        ("condition", conditions, {task.condition for task in every}),
    ):
        unknown = sorted(set(chosen or ()) - known)
        if unknown:
            raise ParameterError(
                f"CogEval published tasks: unknown {name} {unknown[0]!r}; valid: {sorted(known)}"
            )
    return [
        task
        for task in every
        if (unscorable or task.id not in UNSCORABLE)
        and (not graphs or task.graph in graphs)
        and (not domains or task.domain in domains)
        and (not conditions or task.condition in conditions)
        and task.cot in variants
        and in_experiment(task.condition, experiment)
        and (
            design != "paper" or (task.domain in PAPER_DOMAINS and task.family in ANALYSIS_FAMILIES)
        )
    ]
