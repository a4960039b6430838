"""Find and read CogBench files: the pinned Hub, a local folder or the fixture set."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from importlib import resources
from pathlib import Path

from cog_tasks.cogbench.records import (
    CogBenchRecord,
    RecordError,
    Trajectory,
    build_trajectories,
    parse_record,
)
from cog_tasks.common.files import DataFileError, expand_user
from cog_tasks.common.files import read_json as read_json_file
from cog_tasks.common.params import ParameterError
from cog_tasks.common.settings import HubSource
from cog_tasks.common.sources import Content, DataSource, check_unique, fetch

HF_REPO = "kwaikeg/CogBench"
DEFAULT_REVISION = "767df7c95cf77219f16a464e9cfcde8b7595e264"
REVISION_ENV = "COG_TASKS_COGBENCH_REVISION"
SUBSETS: tuple[str, ...] = ("a", "v")
LANGUAGES: tuple[str, ...] = ("english", "chinese")
PROFILE_FILE = "profile.json"
SAMPLE_SOURCE = "sample"


def bench_file(subset: str) -> str:
    """File name of a bench file (``cogbench_a.json``)."""
    return f"cogbench_{check_subset(subset)}.json"


def eval_file(subset: str) -> str:
    """File name of an eval file (``eval_cogbench_a.json``)."""
    return f"eval_cogbench_{check_subset(subset)}.json"


def check_subset(subset: str) -> str:
    """Validate a subset name (``a`` or ``v``)."""
    if subset not in SUBSETS:
        raise ParameterError(f"unknown CogBench subset {subset!r}; use one of {SUBSETS}")
    return subset


def check_language(language: str) -> str:
    """Validate a language name (``english`` or ``chinese``)."""
    if language not in LANGUAGES:
        raise ParameterError(f"unknown CogBench language {language!r}; use one of {LANGUAGES}")
    return language


def pinned_revision(revision: str | None = None) -> str:
    """Revision of ``kwaikeg/CogBench`` to read: argument, environment, then the pin."""
    return SOURCE.pinned(revision)


def sample_dir() -> Path:
    """Folder of the bundled fixture set (holds ``english/``)."""
    return Path(str(resources.files("cog_tasks.cogbench") / "sample"))


@dataclass(frozen=True)
class DataLocation:
    """A folder of CogBench files for one language; ``fixture`` for the bundled set."""

    folder: Path
    description: str
    fixture: bool = False

    def path(self, name: str) -> Path:
        """Path of one file in the folder (it may not exist)."""
        return self.folder / name


def read_hub_file(hub: HubSource, path: str) -> Content:
    """One file (``<language>/<name>``) of a Hub copy or folder laid out like :data:`HF_REPO`."""
    if hub.is_folder:
        folder = Path(hub.location)
        file = folder / path if (folder / path).is_file() else folder / Path(path).name
        return Content(file.read_bytes(), str(file), "hub", file)
    from huggingface_hub import hf_hub_download

    revision = hub.revision or "main"
    file = Path(hf_hub_download(hub.location, path, repo_type="dataset", revision=revision))
    return Content(
        file.read_bytes(), f"hf://datasets/{hub.location}@{revision}/{path}", "hub", file
    )


SOURCE = DataSource(
    benchmark="cogbench",
    title="CogBench",
    repo=HF_REPO,
    commit=DEFAULT_REVISION,
    url_template="https://huggingface.co/datasets/{repo}/resolve/{commit}/{path}",
    read_hub=read_hub_file,
    hub_copy=f"a copy laid out like {HF_REPO}, or a folder written by `cog-tasks data build "
    "cogbench`",
    commit_env=REVISION_ENV,
    more_ways_out=(
        "pass source=<folder>",
        "use source=sample for the bundled fixture set (not human data)",
    ),
)


def parse_records(data: object, source: str, require_profile: bool) -> list[CogBenchRecord]:
    """Validate the JSON content (a list of records) of a bench or eval file."""
    if not isinstance(data, list):
        raise RecordError(f"{source}: must hold a JSON list of records")
    if not data:
        raise RecordError(f"{source}: holds no records")
    name = source.rsplit("/", 1)[-1]
    records = [
        parse_record(raw, f"{name} record {index}", require_profile)
        for index, raw in enumerate(data)
    ]
    keys = ((f"record {i}", (r.topic, r.iteration, r.trajectory[1])) for i, r in enumerate(records))
    try:
        check_unique(keys, source, kind="(topic, iteration, profile name)")
    except DataFileError as error:
        raise RecordError(str(error)) from error
    check_iterations(records, source)
    return records


def check_iterations(records: list[CogBenchRecord], source: str) -> None:
    """Refuse a topic (and profile) whose iterations are not 0, 1, 2 ... without a gap."""
    found: dict[tuple[str, str], list[int]] = {}
    for record in records:
        found.setdefault(record.trajectory, []).append(record.iteration)
    for (topic, name), iterations in found.items():
        if sorted(iterations) != list(range(len(iterations))):
            profile = f", profile {name!r}" if name else ""
            raise RecordError(
                f"{source}: topic {topic!r}{profile} has iterations {sorted(iterations)}; "
                "expected 0, 1, 2 ... without a gap"
            )


def check_content(content: Content, name: str) -> list[CogBenchRecord]:
    """Parse and check a bench or eval file: the validator of :func:`fetch_records`."""
    try:
        data = content.json()
    except DataFileError as error:
        raise RecordError(str(error)) from error
    return parse_records(data, content.source, require_profile=name.startswith("eval_"))


def fetch_records(
    language: str, names: tuple[str, ...], revision: str | None = None, local: bool = True
) -> tuple[list[list[CogBenchRecord]], DataLocation]:
    """Each named file's records, the first's location (``local`` False: no local data)."""
    if not names:
        raise ValueError("name the CogBench files to fetch")
    found = [
        fetch(
            SOURCE,
            f"{check_language(language)}/{name}",
            partial(check_content, name=name),
            commit=revision,
            local=local,
        )
        for name in names
    ]
    first = found[0]
    assert first.path is not None  # every CogBench source is a file on disk
    if first.origin == "upstream":
        description = f"hf://datasets/{HF_REPO}@{pinned_revision(revision)}/{language}"
    else:
        description = first.source.rsplit("/", 1)[0]
    return [fetched.value for fetched in found], DataLocation(first.path.parent, description)


def locate(language: str, source: str) -> DataLocation:
    """Resolve ``"sample"`` or a directory to a folder of files."""
    check_language(language)
    if source == SAMPLE_SOURCE:
        folder = sample_dir() / language
        if not folder.is_dir():
            raise FileNotFoundError(
                f"the bundled CogBench fixture set has no {language!r} files (English only)"
            )
        return DataLocation(folder, "cog-tasks fixture set (fixture ratings, not human data)", True)
    path = expand_user(source, "source")
    folder = path / language if (path / language).is_dir() else path
    if not folder.is_dir():
        raise FileNotFoundError(f"CogBench data folder {folder} does not exist")
    return DataLocation(folder, str(folder))


def load_records(path: Path, require_profile: bool = False) -> list[CogBenchRecord]:
    """Read and validate a bench or eval file (``require_profile`` for eval files)."""
    if not path.is_file():
        raise FileNotFoundError(f"CogBench file {path} does not exist")
    try:
        data = read_json_file(path)
    except DataFileError as error:
        raise RecordError(str(error)) from error
    return parse_records(data, str(path), require_profile)


def load_trajectories(
    subset: str = "a",
    language: str = "english",
    source: str | None = None,
    revision: str | None = None,
    topics: list[str] | None = None,
    max_iteration: int | None = None,
) -> tuple[list[Trajectory], DataLocation]:
    """Load (topic, profile) trajectories with human ratings, and where they came from."""
    names = (eval_file(subset), bench_file(subset))
    if source in (None, "auto", "hub"):
        (eval_records, bench_records), location = fetch_records(
            language, names, revision, local=source != "hub"
        )
    else:
        location = locate(language, source)
        eval_records = load_records(location.path(names[0]), require_profile=True)
        bench_path = location.path(names[1])
        bench_records = load_records(bench_path) if bench_path.is_file() else []
    trajectories = build_trajectories(
        eval_records, bench_records, subset, language, location.description
    )
    if topics:
        known = sorted({t.topic for t in trajectories})
        unknown = sorted(set(topics) - set(known))
        if unknown:
            raise ParameterError(f"unknown CogBench topics {unknown}; known topics: {known}")
        trajectories = [t for t in trajectories if t.topic in topics]
    if max_iteration is not None:
        if max_iteration < 0:
            raise ParameterError(f"iterations must be >= 0, got {max_iteration}")
        last = max((s.iteration for t in trajectories for s in t.steps), default=0)
        if max_iteration > last:
            raise ParameterError(
                f"iterations must be at most {last} (the trajectories' last iteration), "
                f"got {max_iteration}"
            )
        trajectories = [
            replace(t, steps=tuple(s for s in t.steps if s.iteration <= max_iteration))
            for t in trajectories
        ]
    return trajectories, location
