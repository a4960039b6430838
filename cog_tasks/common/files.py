"""The one place that reads and writes the project's files (atomic writes, one output rule)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.common.errors import UserError
from cog_tasks.common.provenance import Provenance, record_read

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # A JSON escape of a UTF-16 surrogate.


class DataFileError(UserError):
    """A data file that cannot be read; the message names the file (and line)."""


class OutputExistsError(UserError, FileExistsError):
    """An output file that exists and was not named with ``--force``."""


def package_json(package: str, name: str) -> Any:
    """The JSON value of data file ``name`` shipped in ``package``."""
    from importlib import resources

    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def expand_user(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded (:class:`UserError` naming ``what``)."""
    try:
        return Path(path).expanduser()
    except RuntimeError as error:  # pathlib's "Could not determine home directory"
        raise UserError(f"{path} (from {what}): no such user's home folder") from error


_INPUTS: set[Path] = set()  # Every file this process read as input, resolved.
_WRITTEN: set[Path] = set()  # Every file this process wrote, resolved: it may write them again.
_OVERWRITE = [False]  # Whether the running command was given ``--force``.
_OWNED: set[Path] = set()  # Folders the running command owns (a resumable run folder), resolved.


def mark_input(path: str | os.PathLike[str]) -> None:
    """Record ``path`` as an input: no write of this process may replace it."""
    _INPUTS.add(Path(path).resolve())


def own_folder(folder: str | os.PathLike[str]) -> None:
    """Let the running command replace files in ``folder`` (a run folder it resumes, claimed)."""
    _OWNED.add(Path(folder).resolve())


def allow_overwrite(allowed: bool) -> None:
    """Set whether existing outputs may be written over (the command's ``--force``)."""
    _OVERWRITE[0] = allowed


def begin_command(force: bool) -> None:
    """Start a command's output rule afresh: no inputs or outputs yet, ``--force`` as given."""
    _INPUTS.clear()
    _WRITTEN.clear()
    _OWNED.clear()
    allow_overwrite(force)


def check_output(path: str | os.PathLike[str], *, replace: bool = False) -> Path:
    """Refuse to write an input, or over a file this process did not write (no ``--force``)."""
    target = Path(path)
    resolved = target.resolve()
    if any(resolved.is_relative_to(folder) for folder in _OWNED):
        return target  # the state of a claimed run folder, read back to resume
    if resolved in _INPUTS or (
        target.exists() and any(s.exists() and os.path.samefile(s, target) for s in _INPUTS)
    ):
        raise UserError(f"{target}: the output would overwrite its own input; give another --out")
    if target.exists() and not (replace or _OVERWRITE[0]) and resolved not in _WRITTEN:
        raise OutputExistsError(f"{target}: already exists; pass --force to overwrite it")
    return target


def new_output(path: str | os.PathLike[str], force: bool, *inputs: str | os.PathLike[str]) -> Path:
    """Check an output file before any work: the output rule, with these inputs and ``force``."""
    for source in inputs:
        if Path(source).exists():
            mark_input(source)
    if force:
        allow_overwrite(True)
    return check_output(path)


def report_folder(out: str | os.PathLike[str] | None, name: str) -> Path:
    """The folder a report writes into: ``out``, or a new ``./<name>`` (``-2``, ``-3`` if taken)."""
    if out is not None:
        return Path(out)
    folder, number = Path(name), 1
    while folder.exists():
        number += 1
        folder = Path(f"{name}-{number}")
    return folder


def write_atomically(path: str | os.PathLike[str], data: bytes, *, replace: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it (output rule first)."""
    target = check_output(path, replace=replace)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _WRITTEN.add(target.resolve())


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM raises :class:`KeyboardInterrupt` as SIGINT does (main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def scratch_folder(parent: str | os.PathLike[str], prefix: str) -> Iterator[Path]:
    """A new temporary folder in ``parent``, removed when the block ends, on SIGTERM too."""
    with terminate_as_interrupt():
        folder = Path(tempfile.mkdtemp(dir=parent, prefix=prefix))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)


#: What :func:`start_child` runs first (argv: parent pid, command): a parent-death signal, then
#: ``exec`` of the command; a ``preexec_fn`` would run Python in the fork of a threaded parent.
_DIE_WITH_PARENT = """import ctypes, os, signal, sys
ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG, kept across exec
if os.getppid() != int(sys.argv[1]):  # the parent died before prctl
    os.kill(os.getpid(), signal.SIGKILL)
os.execvp(sys.argv[2], sys.argv[2:])"""


def start_child(command: list[str], **popen: Any) -> subprocess.Popen[bytes]:
    """Start ``command`` in a new session; on Linux it dies with this thread (the main one)."""
    if sys.platform.startswith("linux"):
        command = [sys.executable, "-I", "-S", "-c", _DIE_WITH_PARENT, str(os.getpid()), *command]
    return subprocess.Popen(command, start_new_session=True, **popen)


@contextmanager
def child_process(
    command: list[str], stop: signal.Signals = signal.SIGTERM, **popen: Any
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (:func:`start_child`); however the block ends, its group is stopped."""
    with terminate_as_interrupt():
        process = start_child(command, **popen)
        try:
            yield process
        finally:
            stop_process_group(process, stop)


def stop_process_group(
    process: subprocess.Popen[bytes], stop: signal.Signals, timeout: float = 30.0
) -> None:
    """Send ``stop`` to the group of ``process``, then SIGKILL what is left after ``timeout`` s."""
    with suppress(ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, stop)
        process.wait(timeout)
    with suppress(ProcessLookupError):  # the leader if it ignored ``stop``, and what it left
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 ``text`` atomically (see :func:`write_atomically`)."""
    write_atomically(path, text.encode("utf-8"))


def write_json_atomically(path: str | os.PathLike[str], value: Any, indent: int = 2) -> None:
    """Write ``value`` as UTF-8 JSON (non-ASCII kept, trailing newline) atomically."""
    write_text_atomically(path, json.dumps(value, indent=indent, ensure_ascii=False) + "\n")


def write_jsonl_atomically(path: str | os.PathLike[str], rows: list[Any]) -> None:
    """Write one JSON value per line atomically."""
    write_text_atomically(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def save_figure(figure: Figure, path: str | os.PathLike[str], dpi: int = 120) -> Path:
    """Render a matplotlib figure (not closed) to PNG, write it atomically and return the path."""
    check_output(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    write_atomically(path, buffer.getvalue())
    return Path(path)


def pyplot() -> Any:
    """The ``matplotlib.pyplot`` module on the file-only Agg backend, imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file, recording its SHA-256 (:func:`record_read`)."""
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such file")
    mark_input(source)
    data = source.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    record_read(
        Provenance(source.name, "local", str(source), digest, "unverified", str(source.parent))
    )
    try:
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
    except UnicodeDecodeError as error:
        raise DataFileError(
            f"{source}: not UTF-8 text (byte {error.start}: {error.reason})"
        ) from error


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file; errors name the file (and line)."""
    return parse_json(read_text(path), str(path))


def parse_json(text: str, source: str) -> Any:
    """Parse one JSON value (:class:`DataFileError` naming ``source`` and line otherwise)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(f"{source}:{error.lineno}: not valid JSON ({error.msg})") from error
    except RecursionError as error:
        raise DataFileError(f"{source}: JSON nested too deep to read") from error
    if SURROGATE_ESCAPE.search(text):
        _check_encodable(value, source)
    return value


def _check_encodable(value: Any, source: str) -> None:
    r"""Refuse a string (value or key) of ``value`` holding a lone UTF-16 surrogate (``\ud800``)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((f"{where}.{key}", child) for key, child in item.items())
            texts = list(item)
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", child) for index, child in enumerate(item))
            texts = []
        else:
            texts = [item] if isinstance(item, str) else []
        for text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as error:
                character = ascii(text[error.start])
                raise DataFileError(
                    f"{source}: {where.lstrip('.') or 'the value'} holds a lone UTF-16 surrogate "
                    f"{character} (an unpaired \\u escape), which UTF-8 cannot hold"
                ) from error


def iter_jsonl(
    path: str | os.PathLike[str], require_object: bool = True
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, value)`` for each non-blank line of a JSONL file."""
    yield from parse_jsonl(read_text(path), str(path), require_object)


def parse_jsonl(text: str, source: str, require_object: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, value)`` for each non-blank line of JSON Lines text (LF-ended)."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataFileError(f"{source}:{number}: invalid JSON ({error.msg})") from error
        except RecursionError as error:
            raise DataFileError(f"{source}:{number}: JSON nested too deep to read") from error
        if SURROGATE_ESCAPE.search(line):
            _check_encodable(value, f"{source}:{number}")
        if require_object and not isinstance(value, dict):
            raise DataFileError(f"{source}:{number}: expected a JSON object")
        yield number, value
