"""The one place that reads and writes the project's files.

- Writes are atomic: data goes to a temporary file beside the target, which is
  then renamed over it, so an interrupted run never leaves a half-written file.
  Files end up with mode 0644 whatever the process umask of ``mkstemp`` (0600).
- Reads name the file (and line, for JSONL) in every error, decode errors
  included.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class DataFileError(ValueError):
    """A data file that cannot be read; the message names the file (and line)."""


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
    """Read a UTF-8 text file.

    Raises:
        FileNotFoundError: Naming the file when it does not exist.
        DataFileError: Naming the file when it is not valid UTF-8.
    """
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such file")
    try:
        return source.read_text(encoding="utf-8")
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
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(f"{source}:{error.lineno}: not valid JSON ({error.msg})") from error


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

    Args:
        text: The JSON Lines text.
        source: Where it came from (a file, a URL), quoted in errors.
        require_object: Reject lines that are not JSON objects.

    Raises:
        DataFileError: Naming the source and line of bad JSON or a non-object.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataFileError(f"{source}:{number}: invalid JSON ({error.msg})") from error
        if require_object and not isinstance(value, dict):
            raise DataFileError(f"{source}:{number}: expected a JSON object")
        yield number, value
