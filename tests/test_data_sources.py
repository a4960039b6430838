"""The one data-source module, over every benchmark: order, validation, cache, offline.

The network is faked by replacing :func:`cog_tasks.common.sources.download`;
good payloads are the files of ``$COG_TASKS_DATA`` (``../shared/data``) and the
bundled CogBench sample set, read in place (copied only under ``tmp_path``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cog_tasks.benchmarks import specs
from cog_tasks.cogbench import loader as cogbench_loader
from cog_tasks.coglm import records as coglm_records
from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.common import sources
from cog_tasks.common.errors import SettingError
from cog_tasks.common.files import DataFileError
from cog_tasks.common.settings import HubSource, hub_env, hub_source, offline, parse_hub
from cog_tasks.common.sources import Content, DataSource, DataSourceError, MissingDataFile, fetch
from cog_tasks.egosocial import authors as egosocial_authors

CONST = ABILITY_BY_CODE["const"]
BENCHMARKS = ("coglm", "egosocial", "cogbench")
BAD_PAYLOADS = {
    "html": b"<html><body>429 Too Many Requests</body></html>",
    "empty": b"",
    "wrong-shape": b'{"unexpected": "shape"}\n',
    "no-items": b"[]\n",
}


@dataclass(frozen=True)
class Case:
    """One benchmark's source, its first file, a good copy of it and its real loader.

    Attributes:
        source: The benchmark's declared source.
        files: Upstream path -> a good copy, in the order the loader fetches them.
        validate: The loader's validator of the first file.
        load: Runs the benchmark's real loader; returns how many items it read.
        items: How many items ``load`` reads from the good copies.
    """

    source: DataSource
    files: dict[str, Path]
    validate: Callable[[Content], Any]
    load: Callable[[], int]
    items: int

    @property
    def path(self) -> str:
        """The first file the loader fetches."""
        return next(iter(self.files))


def make_case(benchmark: str, shared_data: Path) -> Case:
    """The case of one benchmark."""
    if benchmark == "coglm":
        return Case(
            coglm_records.SOURCE,
            {CONST.relative_path: shared_data / "coglm" / CONST.relative_path},
            partial(coglm_records.check_content, ability=CONST),
            lambda: len(coglm_records.load_records("const")),
            50,
        )
    if benchmark == "egosocial":
        file = "socialfirst.jsonl"
        return Case(
            egosocial_authors.SOURCE,
            {file: shared_data / "egosocial" / file},
            partial(egosocial_authors.check_content, file=file),
            lambda: len(egosocial_authors.load_choice_items("daily_life")),
            49,
        )
    sample = cogbench_loader.sample_dir() / "english"
    names = ("eval_cogbench_a.json", "cogbench_a.json")
    return Case(
        cogbench_loader.SOURCE,
        {f"english/{name}": sample / name for name in names},
        partial(cogbench_loader.check_content, name=names[0]),
        lambda: len(cogbench_loader.load_trajectories("a")[0]),
        4,
    )


@pytest.fixture(params=BENCHMARKS)
def case(request: pytest.FixtureRequest, shared_data: Path) -> Case:
    """Each benchmark in turn."""
    return make_case(request.param, shared_data)


@pytest.fixture
def no_local_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No COG_TASKS_DATA, no Hub setting, no revision override, network allowed, empty cache.

    Returns:
        The cache root.
    """
    for variable in ("COG_TASKS_DATA", "COG_TASKS_COGBENCH_REVISION"):
        monkeypatch.delenv(variable, raising=False)
    for spec in specs():
        monkeypatch.delenv(hub_env(spec.name), raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def serve(
    monkeypatch: pytest.MonkeyPatch, payload: Callable[[str], bytes] | bytes | Exception
) -> list[str]:
    """Replace the one download function; returns the list of URLs asked for."""
    asked: list[str] = []

    def fake_download(url: str) -> bytes:
        asked.append(url)
        if isinstance(payload, Exception):
            raise payload
        return payload(url) if callable(payload) else payload

    monkeypatch.setattr(sources, "download", fake_download)
    return asked


def serve_files(monkeypatch: pytest.MonkeyPatch, case: Case) -> list[str]:
    """Serve the good copies of the case's files at their upstream URLs."""
    by_url = {case.source.url(path): file.read_bytes() for path, file in case.files.items()}
    return serve(monkeypatch, lambda url: by_url[url])


def cached_files(cache: Path) -> list[Path]:
    """Every file under the cache root."""
    return sorted(path for path in cache.rglob("*") if path.is_file())


def test_resolution_order_local_then_hub_then_upstream(
    case: Case, no_local_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = case.files[case.path].read_bytes()
    local = tmp_path / "data" / case.source.benchmark / case.path
    local.parent.mkdir(parents=True)
    local.write_bytes(good)
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path / "data"))
    monkeypatch.setenv(case.source.hub_env, "org/copy@v1")
    read: list[tuple[str, str]] = []

    def read_hub(hub: HubSource, path: str) -> Content:
        read.append((str(hub), path))
        return Content(good, f"{hub} {path}", "hub")

    source = replace(case.source, read_hub=read_hub)
    asked = serve(monkeypatch, good)
    from_local = fetch(source, case.path, case.validate)
    assert (from_local.origin, from_local.path, read, asked) == ("local", local, [], [])
    local.unlink()
    from_hub = fetch(source, case.path, case.validate)
    assert (from_hub.origin, read, asked) == ("hub", [("org/copy@v1", case.path)], [])
    monkeypatch.delenv(case.source.hub_env)
    from_upstream = fetch(source, case.path, case.validate)
    cached = no_local_data / case.source.benchmark / case.source.commit / case.path
    assert (from_upstream.origin, from_upstream.path, asked) == (
        "upstream",
        cached,
        [case.source.url(case.path)],
    )
    assert cached.read_bytes() == good
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the cache is read offline, without a download
    assert fetch(source, case.path, case.validate).value == from_upstream.value
    assert len(asked) == 1
    assert from_local.value == from_hub.value == from_upstream.value


def test_checked_download_is_cached_then_read_offline(
    case: Case, no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = serve_files(monkeypatch, case)
    assert case.load() == case.items
    assert len(asked) == len(case.files)
    assert [p.name for p in cached_files(no_local_data)] == sorted(
        Path(path).name for path in case.files
    )
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert case.load() == case.items
    assert len(asked) == len(case.files)


@pytest.mark.parametrize("payload", BAD_PAYLOADS.values(), ids=BAD_PAYLOADS.keys())
def test_bad_download_never_enters_the_cache(
    case: Case, no_local_data: Path, monkeypatch: pytest.MonkeyPatch, payload: bytes
) -> None:
    asked = serve(monkeypatch, payload)
    with pytest.raises(DataSourceError, match="not the expected file, so it was not cached"):
        case.load()
    assert asked == [case.source.url(case.path)]
    assert cached_files(no_local_data) == []
    serve_files(monkeypatch, case)  # the next call downloads again, and succeeds
    assert case.load() == case.items


def test_egosocial_html_page_is_not_cached_as_socialfirst(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(monkeypatch, BAD_PAYLOADS["html"])
    for _ in range(2):  # the second call downloads again: nothing was cached
        with pytest.raises(DataSourceError, match=r"socialfirst\.jsonl:1: invalid JSON"):
            egosocial_authors.load_choice_items("daily_life")
    assert not (no_local_data / "egosocial").exists()


def test_coglm_download_must_hold_the_pinned_count(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(
        monkeypatch, json.dumps([{"question": "Q", "candidates": ["a", "b"], "answer": 0}]).encode()
    )
    with pytest.raises(DataSourceError, match="holds 1 items, the pinned upstream file 50"):
        coglm_records.load_records("const")
    assert cached_files(no_local_data) == []


def test_bad_cached_file_names_itself(case: Case, no_local_data: Path) -> None:
    cached = case.source.cached(case.path)
    cached.parent.mkdir(parents=True)
    cached.write_text("<html>")
    with pytest.raises(DataSourceError, match=rf"delete {cached} and run again") as error:
        case.load()
    assert str(error.value).startswith(str(cached))


def test_offline_fails_at_once_with_the_ways_out(
    case: Case, no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    asked = serve(monkeypatch, AssertionError("the network was tried"))
    with pytest.raises(DataSourceError) as error:
        case.load()
    message = str(error.value)
    benchmark = case.source.benchmark
    assert asked == []
    assert "HF_HUB_OFFLINE is set, so no download was tried" in message
    assert case.source.url(case.path) in message and case.source.commit in message
    assert f"$COG_TASKS_DATA/{benchmark}/{case.path}" in message
    assert f"{hub_env(benchmark)}=ORG/NAME[@REVISION]" in message
    assert f"cog-tasks data build {benchmark}" in message


def test_network_error_names_the_url_and_caches_nothing(
    case: Case, no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = serve(monkeypatch, OSError("Name or service not known"))
    with pytest.raises(DataSourceError, match="OSError: Name or service not known"):
        case.load()
    assert asked == [case.source.url(case.path)]
    assert cached_files(no_local_data) == []


def test_a_bad_hub_copy_names_itself(case: Case, no_local_data: Path) -> None:
    source = replace(case.source, read_hub=lambda hub, path: Content(b"<html>", "copy", "hub"))
    with pytest.raises(DataSourceError, match="The Hub copy org/copy .* is not a valid copy"):
        fetch(source, case.path, case.validate, hub="org/copy")

    def unreachable(hub: HubSource, path: str) -> Content:
        raise ConnectionError("no route")

    source = replace(case.source, read_hub=unreachable)
    with pytest.raises(DataSourceError, match="from argument.*ConnectionError: no route"):
        fetch(source, case.path, case.validate, hub="org/copy")


def test_a_missing_file_in_the_data_dir_argument(case: Case, tmp_path: Path) -> None:
    with pytest.raises(MissingDataFile, match=rf"not found: {tmp_path}") as error:
        fetch(case.source, case.path, case.validate, data_dir=tmp_path)
    assert isinstance(error.value, FileNotFoundError)


def test_a_bad_local_file_keeps_its_own_error(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = tmp_path / case.source.benchmark / case.path
    local.parent.mkdir(parents=True)
    local.write_text("<html>")
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    with pytest.raises(ValueError, match=rf"{local}:1: (not valid|invalid) JSON") as error:
        case.load()
    assert not isinstance(error.value, DataSourceError) and "delete" not in str(error.value)


def test_content_parsers_name_the_source() -> None:
    with pytest.raises(DataFileError, match=r"src: not UTF-8 text \(byte 1"):
        Content(b"[\xe9]", "src", "local").json()
    with pytest.raises(DataFileError, match=r"src:3: expected a JSON object"):
        Content(b'{"a": 1}\n\n[1]\n', "src", "local").jsonl()
    assert Content(b'\n{"a": 1}\n', "src", "local").jsonl() == [(2, {"a": 1})]


def test_old_error_names_remain_as_aliases() -> None:
    assert coglm_records.CogLMDownloadError is DataSourceError
    assert egosocial_authors.AuthorsDataUnavailable is DataSourceError
    assert issubclass(DataSourceError, DataFileError)


def test_cogbench_revision_setting_moves_the_url_and_the_cache(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COG_TASKS_COGBENCH_REVISION", "abc1234")
    path = "english/eval_cogbench_a.json"
    assert cogbench_loader.SOURCE.url(path) == (
        "https://huggingface.co/datasets/kwaikeg/CogBench/resolve/abc1234/english/"
        "eval_cogbench_a.json"
    )
    assert cogbench_loader.SOURCE.cached(path) == no_local_data / "cogbench" / "abc1234" / path


@pytest.mark.parametrize("value", ["../../../etc", "main", "abc", "ABC1234", "abc1234 "])
def test_cogbench_revision_setting_must_be_a_commit(
    value: str, no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A revision names a cache folder: only a commit, never a path or a moving branch."""
    monkeypatch.setenv("COG_TASKS_COGBENCH_REVISION", value)
    with pytest.raises(SettingError, match="COG_TASKS_COGBENCH_REVISION"):
        cogbench_loader.SOURCE.cached("english/eval_cogbench_a.json")
    with pytest.raises(SettingError, match="revision"):
        cogbench_loader.SOURCE.url("english/eval_cogbench_a.json", commit=value)


@pytest.mark.parametrize("value", [" ", "\t", "ORG/ ", "org/name@", "org/name@-x", "org/name@a b"])
def test_blank_or_malformed_hub_setting_is_refused(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blank Hub value is not the current folder; a bad revision is not passed on."""
    monkeypatch.setenv("COG_TASKS_COGLM_HUB", value)
    with pytest.raises(SettingError, match="COG_TASKS_COGLM_HUB"):
        hub_source("coglm")


def test_hub_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [hub_env(b) for b in ("coglm", "cogeval", "cogbench", "egosocial")] == [
        "COG_TASKS_COGLM_HUB",
        "COG_TASKS_COGEVAL_HUB",
        "COG_TASKS_COGBENCH_HUB",
        "COG_TASKS_EGOSOCIAL_HUB",
    ]
    source = parse_hub("org/coglm@v1.0", "X")
    assert (source.location, source.revision, source.is_folder) == ("org/coglm", "v1.0", False)
    assert parse_hub(str(tmp_path), "X").is_folder
    for bad in ("coglm", "org/coglm@", "a/b/c"):
        with pytest.raises(ValueError, match="expected ORG/NAME"):
            parse_hub(bad, "COG_TASKS_COGLM_HUB")
    monkeypatch.setenv("COG_TASKS_COGEVAL_HUB", "org/cogeval")
    assert str(hub_source("cogeval")) == "org/cogeval"
    assert hub_source("cogeval", "org/other@main").revision == "main"
    monkeypatch.delenv("COG_TASKS_EGOSOCIAL_HUB", raising=False)
    assert hub_source("egosocial") is None
    monkeypatch.setenv("HF_HUB_OFFLINE", "true")
    assert offline()
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    assert not offline()


def test_missing_coglm_hub_copy_names_the_setting(no_local_data: Path, tmp_path: Path) -> None:
    with pytest.raises(DataSourceError, match="COG_TASKS_COGLM_HUB"):
        coglm_records.load_records("const", hub=str(tmp_path))  # an empty folder


def test_cogbench_reads_a_built_folder_through_the_hub_setting(
    no_local_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cog_tasks.cogbench.dataset import write_sample_folder

    write_sample_folder(tmp_path / "built")
    monkeypatch.setenv("COG_TASKS_COGBENCH_HUB", str(tmp_path / "built"))
    from_hub, location = cogbench_loader.load_trajectories("a", source="hub")
    sample, _ = cogbench_loader.load_trajectories("a", source="sample")
    assert location.folder == tmp_path / "built" / "english"
    assert location.description == str(tmp_path / "built" / "english")
    assert [t.steps for t in from_hub] == [t.steps for t in sample]


def test_missing_optional_dependency_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from cog_tasks.cogbench.agents.memory import LongTermMemory
    from cog_tasks.common.extras import import_extra

    monkeypatch.setitem(sys.modules, "chromadb", None)  # as if not installed
    with pytest.raises(ModuleNotFoundError, match=r'pip install "cog-tasks\[coggpt\]"'):
        LongTermMemory("probe")
    assert import_extra("json", "api").dumps([]) == "[]"


@pytest.mark.parametrize("payload", [b"", b" \n\n"], ids=["empty", "blank"])
def test_an_empty_local_file_is_refused_by_name(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, payload: bytes
) -> None:
    local = tmp_path / case.source.benchmark / case.path
    local.parent.mkdir(parents=True)
    local.write_bytes(payload)
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    with pytest.raises(DataFileError, match=rf"^{local}: the file is empty$"):
        case.load()


def test_an_empty_cached_download_names_itself_to_delete(case: Case, no_local_data: Path) -> None:
    cached = case.source.cached(case.path)
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"\n")
    with pytest.raises(DataSourceError, match=rf"^{cached}: the file is empty\. .*delete {cached}"):
        case.load()


def test_a_pinned_item_count_is_exact_for_downloads(
    case: Case, no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pinned = replace(case.source, item_counts={case.path: case.items + 1})
    serve_files(monkeypatch, case)
    with pytest.raises(DataSourceError, match=r"holds \d+ items, the pinned upstream file"):
        fetch(pinned, case.path, case.validate)
    assert cached_files(no_local_data) == []
    right = replace(case.source, item_counts={case.path: len(case.validate(local_copy(case)))})
    assert fetch(right, case.path, case.validate).origin == "upstream"


def test_a_local_copy_with_another_count_is_named_in_a_warning(case: Case, tmp_path: Path) -> None:
    local = tmp_path / case.source.benchmark / case.path
    local.parent.mkdir(parents=True)
    local.write_bytes(case.files[case.path].read_bytes())
    items = len(case.validate(local_copy(case)))
    pinned = replace(case.source, item_counts={case.path: items + 1})
    with pytest.warns(sources.ItemCountWarning, match=rf"^{local}: holds {items} items"):
        assert len(fetch(pinned, case.path, case.validate, data_dir=tmp_path).value) == items


def local_copy(case: Case) -> Content:
    """The good copy of the case's first file, as local content."""
    file = case.files[case.path]
    return Content(file.read_bytes(), str(file), "local", file)


def test_check_unique_names_the_file_the_repeat_and_the_first() -> None:
    rows = [(1, {"a": 1, "b": 2}), (2, {"a": 2}), (3, {"b": 2, "a": 1})]
    with pytest.raises(
        DataFileError, match=r"^f\.jsonl: line 3 repeats line 1 \(the same record\)$"
    ):
        sources.check_unique(((f"line {n}", sources.record_key(r)) for n, r in rows), "f.jsonl")
    ids = [("item 0", "x-1"), ("item 1", "x-2"), ("item 2", "x-2")]
    with pytest.raises(DataFileError, match=r"item 2 repeats item 1 \(the same id 'x-2'\)"):
        sources.check_unique(ids, "f.json", kind="id")
    sources.check_unique([("item 0", "x-1"), ("item 1", "x-2")], "f.json", kind="id")


# ------------------------------------------------------------------------ provenance (issue 40)

PINNED = ("coglm", "egosocial")
"""The benchmarks whose upstream files are pinned by SHA-256 (CogBench: none yet)."""


def flipped(case: Case) -> bytes:
    """The case's good copy with one answer changed: same shape and count, other content."""
    text = case.files[case.path].read_text(encoding="utf-8")
    if case.source.benchmark == "coglm":
        items = json.loads(text)
        items[0]["answer"] = 1 - items[0]["answer"]
        return json.dumps(items).encode("utf-8")
    first, rest = text.split("\n", 1)
    record = json.loads(first)
    record["Answer"] = next(option for option in record["Option"] if option != record["Answer"])
    return (json.dumps(record, ensure_ascii=False) + "\n" + rest).encode("utf-8")


@pytest.mark.parametrize("name", PINNED)
def test_every_pinned_file_matches_the_shared_mirror(name: str, shared_data: Path) -> None:
    """The package's SHA-256 of each pinned file is the byte-for-byte mirror's."""
    import hashlib

    source = make_case(name, shared_data).source
    assert len(source.pins) == {"coglm": 10, "egosocial": 3}[name]
    for path, pin in source.pins.items():
        data = (shared_data / name / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == pin.sha256, path
        assert sources.content_sha256(Content(data, path, "local"), path) == pin.content, path


@pytest.mark.parametrize("name", PINNED)
def test_provenance_of_each_origin(
    name: str, shared_data: Path, no_local_data: Path, tmp_path: Path, monkeypatch
) -> None:
    """Local, Hub (rebuilt as compact JSON), download and cache: origin, hash and check."""
    case = make_case(name, shared_data)
    good = case.files[case.path].read_bytes()
    data = tmp_path / "data" / name / case.path
    data.parent.mkdir(parents=True)
    data.write_bytes(good)
    local = fetch(case.source, case.path, case.validate, data_dir=tmp_path / "data").provenance
    assert (local.origin, local.check, local.source) == ("local", "pinned", str(data))
    assert local.sha256 == case.source.pins[case.path].sha256
    if name == "coglm":  # a Hub copy is rebuilt from rows: other bytes, the same JSON
        rebuilt = json.dumps(json.loads(good))
    else:
        rebuilt = "\n".join(json.dumps(row) for _, row in Content(good, "x", "local").jsonl())
    hub = replace(
        case.source, read_hub=lambda hub, path: Content(rebuilt.encode(), f"{hub} c", "hub")
    )
    monkeypatch.setenv(case.source.hub_env, "org/copy@abc1234")
    from_hub = fetch(hub, case.path, case.validate).provenance
    assert (from_hub.origin, from_hub.check, from_hub.source) == (
        "hub",
        "same content",
        "org/copy@abc1234 c",
    )
    monkeypatch.delenv(case.source.hub_env)
    serve_files(monkeypatch, case)
    downloaded = fetch(case.source, case.path, case.validate).provenance
    again = fetch(case.source, case.path, case.validate).provenance
    assert [(p.origin, p.check) for p in (downloaded, again)] == [
        ("upstream", "pinned"),
        ("cache", "pinned"),
    ]
    assert asdict(downloaded)["sha256"] == again.sha256 == local.sha256


@pytest.mark.parametrize("name", PINNED)
def test_a_copy_with_flipped_answers_is_named(
    name: str, shared_data: Path, no_local_data: Path, tmp_path: Path, monkeypatch
) -> None:
    """A local or Hub copy that differs warns; a download or cache that differs fails."""
    case = make_case(name, shared_data)
    changed = flipped(case)
    data = tmp_path / "data" / name / case.path
    data.parent.mkdir(parents=True)
    data.write_bytes(changed)
    with pytest.warns(sources.DataHashWarning, match=rf"^{data}: SHA-256 \w+ is not the pinned"):
        fetched = fetch(case.source, case.path, case.validate, data_dir=tmp_path / "data")
    assert fetched.provenance.check == "differs"
    hub = replace(case.source, read_hub=lambda hub, path: Content(changed, "the hub copy", "hub"))
    monkeypatch.setenv(case.source.hub_env, "org/copy")
    with pytest.warns(sources.DataHashWarning, match="^the hub copy: SHA-256"):
        assert fetch(hub, case.path, case.validate).provenance.check == "differs"
    monkeypatch.delenv(case.source.hub_env)
    serve(monkeypatch, changed)
    with pytest.raises(DataSourceError, match="is not the pinned upstream file's"):
        fetch(case.source, case.path, case.validate)
    assert cached_files(no_local_data) == []
    cached = case.source.cached(case.path)
    cached.parent.mkdir(parents=True)
    cached.write_bytes(changed)  # a cached download changed after it was checked
    with pytest.raises(DataSourceError, match=rf"delete {cached}"):
        fetch(case.source, case.path, case.validate)


def test_cogbench_files_are_unverified(no_local_data: Path, monkeypatch) -> None:
    """No pin exists for the CogBench files on the Hub yet: recorded as unverified."""
    case = make_case("cogbench", Path())
    serve_files(monkeypatch, case)
    provenance = fetch(case.source, case.path, case.validate).provenance
    assert (provenance.origin, provenance.check) == ("upstream", "unverified")
