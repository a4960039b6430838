"""Find and read CogBench files: Hugging Face Hub (pinned), a local folder, or the fixture set.

Sources, chosen with ``source``:

- ``None`` / ``"auto"``: ``$COG_TASKS_DATA/cogbench/<language>/`` when that
  folder exists, otherwise the Hub.
- ``"hub"``: ``$COG_TASKS_COGBENCH_HUB`` when set (``ORG/NAME[@REVISION]`` of a
  repository laid out like the authors', or a folder written by ``cog-tasks
  data build cogbench``), otherwise ``kwaikeg/CogBench`` at the pinned revision
  (:data:`DEFAULT_REVISION`, overridable with ``$COG_TASKS_COGBENCH_REVISION``
  or the ``revision`` argument), through the Hugging Face cache. Under
  ``HF_HUB_OFFLINE=1`` only that cache is read; every failure names the file,
  the revision and the ways out.
- ``"sample"``: the fixture set bundled in this package (English only; its
  ratings are fixtures written for tests, not human data).
- any other string: a directory holding ``<language>/`` or the files themselves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from cog_tasks.cogbench.records import (
    CogBenchRecord,
    RecordError,
    Trajectory,
    build_trajectories,
    parse_profiles,
    parse_record,
)
from cog_tasks.common.files import DataFileError
from cog_tasks.common.files import read_json as read_json_file
from cog_tasks.common.settings import (
    DATA_ENV,
    HubSource,
    hub_env,
    hub_source,
    local_data_dir,
    offline,
)

HF_REPO = "kwaikeg/CogBench"
DEFAULT_REVISION = "767df7c95cf77219f16a464e9cfcde8b7595e264"
REVISION_ENV = "COG_TASKS_COGBENCH_REVISION"
HUB_ENV = hub_env("cogbench")
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
        raise ValueError(f"unknown CogBench subset {subset!r}; use one of {SUBSETS}")
    return subset


def check_language(language: str) -> str:
    """Validate a language name (``english`` or ``chinese``)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown CogBench language {language!r}; use one of {LANGUAGES}")
    return language


def pinned_revision(revision: str | None = None) -> str:
    """Revision of ``kwaikeg/CogBench`` to read: argument, environment, then the pin."""
    return revision or os.environ.get(REVISION_ENV) or DEFAULT_REVISION


def sample_dir() -> Path:
    """Folder of the bundled fixture set (holds ``english/``)."""
    return Path(str(resources.files("cog_tasks.cogbench") / "sample"))


@dataclass(frozen=True)
class DataLocation:
    """A folder of CogBench files for one language.

    Attributes:
        folder: Directory with ``cogbench_*.json``, ``eval_cogbench_*.json``...
        description: Human-readable source, logged with results.
        fixture: True for the bundled fixture set (its ratings are not human).
    """

    folder: Path
    description: str
    fixture: bool = False

    def path(self, name: str) -> Path:
        """Path of one file in the folder (it may not exist)."""
        return self.folder / name


def _hub_failure(repo: str, revision: str, path: str, language: str, reason: str) -> str:
    url = f"https://huggingface.co/datasets/{repo}/resolve/{revision}/{path}"
    return (
        f"could not fetch the CogBench file {url} (dataset {repo} at revision {revision}): "
        f"{reason}. Ways out: (1) set {DATA_ENV} to a folder holding cogbench/{language}/ "
        f"with cogbench_{{a,v}}.json, eval_cogbench_{{a,v}}.json and profile.json as in "
        f"{HF_REPO}; (2) set {HUB_ENV}=ORG/NAME[@REVISION] to a copy laid out the same way, "
        "or to a folder written by `cog-tasks data build cogbench`; (3) pass source=<folder>; "
        "(4) use source=sample for the bundled fixture set (not human data)."
    )


def _download(language: str, names: tuple[str, ...], repo: str, revision: str) -> DataLocation:
    from huggingface_hub import hf_hub_download

    if not names:
        raise ValueError("name the CogBench files to fetch from the Hub")
    paths = []
    for name in names:
        path = f"{language}/{name}"
        try:
            paths.append(Path(hf_hub_download(repo, path, repo_type="dataset", revision=revision)))
        except Exception as error:  # any Hub failure gets the same advice
            reason = f"{type(error).__name__}: {error}"
            if offline():
                reason = f"HF_HUB_OFFLINE is set and the file is not cached ({reason})"
            raise FileNotFoundError(_hub_failure(repo, revision, path, language, reason)) from error
    return DataLocation(paths[0].parent, f"hf://datasets/{repo}@{revision}/{language}")


def _hub_location(language: str, names: tuple[str, ...], revision: str | None) -> DataLocation:
    """The configured Hub copy (``$COG_TASKS_COGBENCH_HUB``) or the authors' pinned dataset."""
    source: HubSource | None = hub_source("cogbench")
    if source is None:
        return _download(language, names, HF_REPO, pinned_revision(revision))
    if source.is_folder:
        return _folder_location(source.location, language)
    return _download(language, names, source.location, revision or source.revision or "main")


def _folder_location(source: str, language: str) -> DataLocation:
    path = Path(source).expanduser()
    folder = path / language if (path / language).is_dir() else path
    if not folder.is_dir():
        raise FileNotFoundError(f"CogBench data folder {folder} does not exist")
    return DataLocation(folder, str(folder))


def locate(
    language: str = "english",
    source: str | None = None,
    revision: str | None = None,
    needed: tuple[str, ...] = (),
) -> DataLocation:
    """Resolve ``source`` (see the module docstring) to a folder of files.

    Args:
        language: ``english`` or ``chinese``.
        source: ``None``/``"auto"``, ``"hub"``, ``"sample"`` or a directory.
        revision: Hub revision; defaults to :func:`pinned_revision`.
        needed: File names to fetch when the source is the Hub.

    Returns:
        The location.

    Raises:
        FileNotFoundError: When the folder (or a Hub download) is missing.
    """
    check_language(language)
    if source in (None, "auto"):
        root = local_data_dir()
        local = root / "cogbench" / language if root else None
        if local is not None and local.is_dir():
            return DataLocation(local, str(local))
        source = "hub"
    if source == "hub":
        return _hub_location(language, needed, revision)
    if source == SAMPLE_SOURCE:
        folder = sample_dir() / language
        if not folder.is_dir():
            raise FileNotFoundError(
                f"the bundled CogBench fixture set has no {language!r} files (English only)"
            )
        return DataLocation(folder, "cog-tasks fixture set (fixture ratings, not human data)", True)
    return _folder_location(source, language)


def read_json(path: Path) -> object:
    """Load a JSON file; errors name it (decode errors included)."""
    if not path.is_file():
        raise FileNotFoundError(f"CogBench file {path} does not exist")
    try:
        return read_json_file(path)
    except DataFileError as error:
        if "datasets--" in path.as_posix():  # a file in the Hugging Face cache
            raise RecordError(
                f"{error}. The cached download is damaged: delete {path.resolve()} (a blob "
                "of the Hugging Face cache; `huggingface-cli delete-cache` removes the whole "
                "revision) and run again to fetch it anew."
            ) from error
        raise RecordError(str(error)) from error


def load_records(path: Path, require_profile: bool = False) -> list[CogBenchRecord]:
    """Read and validate a bench or eval file.

    Args:
        path: The JSON file (a list of records).
        require_profile: True for eval files, whose records carry a profile.

    Returns:
        The records, in file order.

    Raises:
        RecordError: Naming the file and record index of the first bad record.
    """
    data = read_json(path)
    if not isinstance(data, list):
        raise RecordError(f"{path}: must hold a JSON list of records")
    return [
        parse_record(raw, f"{path.name} record {index}", require_profile)
        for index, raw in enumerate(data)
    ]


def load_profiles(location: DataLocation) -> list[dict[str, str]]:
    """Read ``profile.json`` from a location."""
    path = location.path(PROFILE_FILE)
    return parse_profiles(read_json(path), path.name)


def load_trajectories(
    subset: str = "a",
    language: str = "english",
    source: str | None = None,
    revision: str | None = None,
    topics: list[str] | None = None,
    max_iteration: int | None = None,
) -> tuple[list[Trajectory], DataLocation]:
    """Load (topic, profile) trajectories with human ratings.

    Args:
        subset: ``"a"`` (articles) or ``"v"`` (short videos).
        language: ``"english"`` or ``"chinese"``.
        source: See :func:`locate`.
        revision: Hub revision override.
        topics: Keep only these topics (exact names).
        max_iteration: Keep iterations ``0..max_iteration``.

    Returns:
        The trajectories and where they came from.

    Raises:
        ValueError: For an unknown topic or a negative ``max_iteration``.
    """
    names = (eval_file(subset), bench_file(subset))
    location = locate(language, source, revision, needed=names)
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
            raise ValueError(f"unknown CogBench topics {unknown}; known topics: {known}")
        trajectories = [t for t in trajectories if t.topic in topics]
    if max_iteration is not None:
        if max_iteration < 0:
            raise ValueError(f"iterations must be >= 0, got {max_iteration}")
        trajectories = [
            replace(t, steps=tuple(s for s in t.steps if s.iteration <= max_iteration))
            for t in trajectories
        ]
    return trajectories, location
