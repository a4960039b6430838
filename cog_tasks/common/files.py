"""The one place that reads and writes the project's files.

- Writes are atomic: data goes to a temporary file beside the target, which is
  then renamed over it, so an interrupted run never leaves a half-written file.
  Files end up with mode 0644 whatever the process umask of ``mkstemp`` (0600).
- Reads name the file (and line, for JSONL) in every error, decode errors
  included. JSON nested too deep to read, and a lone UTF-16 surrogate
  (a JSON escape of half a pair, which no UTF-8 file can hold), are refused alike.
- :func:`expand_user` expands ``~`` in a path the user gave, naming it when
  the user does not exist; :func:`new_output` refuses to write over an
  existing output unless ``--force`` was given.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.common.errors import UserError
from cog_tasks.common.provenance import Provenance, record_read

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate: the only way JSON text can hold a lone one."""


class DataFileError(UserError):
    """A data file that cannot be read; the message names the file (and line)."""


class OutputExistsError(UserError, FileExistsError):
    """An output file that exists and was not named with ``--force``."""


def expand_user(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded.

    Args:
        path: The path as the user gave it.
        what: Where it came from (``$COG_TASKS_DATA``, ``-T source``), quoted in errors.

    Raises:
        UserError: Naming the path and ``what`` when the user does not exist.
    """
    try:
        return Path(path).expanduser()
    except RuntimeError as error:  # pathlib's "Could not determine home directory"
        raise UserError(f"{path} (from {what}): no such user's home folder") from error


def new_output(path: str | os.PathLike[str], force: bool, *inputs: str | os.PathLike[str]) -> Path:
    """Check an output file before anything is written to it.

    Args:
        path: The output file.
        force: Whether the user allowed writing over an existing file (``--force``).
        inputs: Files the command reads; the output may never be one of them.

    Returns:
        ``path``.

    Raises:
        OutputExistsError: When ``path`` exists and ``force`` is false.
        UserError: When ``path`` is one of ``inputs`` (``--force`` or not).
    """
    target = Path(path)
    for source in inputs:
        if target.exists() and Path(source).exists() and target.samefile(source):
            raise UserError(f"{target}: the output would overwrite its own input; give another")
    if target.exists() and not force:
        raise OutputExistsError(f"{target}: already exists; pass --force to overwrite it")
    return target


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``.

    Args:
        path: The target file; its folder must exist.
        data: The whole content.
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
    """Render a matplotlib figure to PNG and write it atomically.

    Args:
        figure: The figure; it is not closed here.
        path: Target ``.png`` file.
        dpi: Resolution.

    Returns:
        The path written.
    """
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
    """Read a UTF-8 text file (newlines universal, as :meth:`Path.read_text`).

    The SHA-256 of the bytes read goes to
    :func:`~cog_tasks.common.provenance.record_read`, as a local file without a pin.

    Raises:
        FileNotFoundError: Naming the file when it does not exist.
        DataFileError: Naming the file when it is not valid UTF-8.
    """
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such file")
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
    """Read a JSON file.

    Raises:
        FileNotFoundError: Naming the file when it does not exist.
        DataFileError: Naming the file (and line) for bad UTF-8 or bad JSON.
    """
    return parse_json(read_text(path), str(path))


def parse_json(text: str, source: str) -> Any:
    """Parse one JSON value.

    Args:
        text: The JSON text.
        source: Where it came from (a file, a URL), quoted in errors.

    Raises:
        DataFileError: Naming the source and line of bad JSON.
    """
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
    r"""Refuse a string (value or key) of ``value`` holding a lone UTF-16 surrogate.

    JSON may escape one (``\ud800``); Python reads it, but no UTF-8 file can
    hold it, so a run would fail much later, writing its log.

    Raises:
        DataFileError: Naming ``source`` and where in the value the string is.
    """
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
    """Yield ``(line number, value)`` for each non-blank line of a JSONL file.

    Args:
        path: The file.
        require_object: Reject lines that are not JSON objects.

    Raises:
        FileNotFoundError: Naming the file when it does not exist.
        DataFileError: Naming the file and line of bad UTF-8, bad JSON or a non-object.
    """
    yield from parse_jsonl(read_text(path), str(path), require_object)


def parse_jsonl(text: str, source: str, require_object: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, value)`` for each non-blank line of JSON Lines text.

    Lines end at LF only (CR LF too): U+2028, U+0085 and the other
    characters :meth:`str.splitlines` also breaks at may stand inside a JSON
    string, unescaped.

    Args:
        text: The JSON Lines text.
        source: Where it came from (a file, a URL), quoted in errors.
        require_object: Reject lines that are not JSON objects.

    Raises:
        DataFileError: Naming the source and line of bad JSON or a non-object.
    """
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
