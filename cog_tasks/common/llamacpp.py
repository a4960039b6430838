"""The embedded models' GGUFs served natively by llama.cpp (extra ``llamacpp``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cog_tasks.common.errors import UserError
from cog_tasks.common.extras import MissingExtra
from cog_tasks.common.files import start_child, stop_process_group
from cog_tasks.common.runs import file_sha256

EXTRA = "llamacpp"  # The cog-tasks extra that installs llama-cpp-python with its server.
BACKEND = "llamacpp"  # The backend's name in a run's model name.
SHA_DIGITS = 16  # Hex digits of the GGUF's SHA-256 kept in the served model name.
DEFAULT_CONTEXT = 8192  # Tokens: CogEval's 2,048-token replies after its longest prompts.
START_TIMEOUT = 300.0  # Seconds to wait for the server to answer (a 1 GB GGUF on two loaded cores).


def require_llama_cpp() -> None:
    """Refuse, in one line naming the extra, when llama-cpp-python's server is not installed."""
    import importlib.util

    for module in ("llama_cpp", "uvicorn", "fastapi", "sse_starlette"):
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(
                f"{module} is not installed; llama.cpp serving comes with the {EXTRA!r} extra: "
                f'pip install "cog-tasks[{EXTRA}]" (builds llama-cpp-python from source, ~10 min)'
            )


@cache
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    return file_sha256(path)


def gguf_sha256(path: Path) -> str:
    """SHA-256 of a GGUF file, computed once per process for each size and modification time."""
    status = path.stat()
    return _sha256(str(path), status.st_size, status.st_mtime_ns)


def served_name(name: str, sha256: str) -> str:
    """The model name a run records: embedded name, backend and shortened GGUF SHA-256."""
    return f"{name}@{BACKEND}:{sha256[:SHA_DIGITS]}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class LlamaServer:
    """llama-cpp-python's OpenAI-compatible server on an embedded model's GGUF (context manager)."""

    name: str
    context: int = DEFAULT_CONTEXT
    port: int = 0
    threads: int = 0
    log: Path | None = None
    gguf: Path | None = None
    sha256: str = ""
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def model(self) -> str:
        """The served model name (:func:`served_name`)."""
        return served_name(self.name, self.sha256)

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``http://127.0.0.1:PORT/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        """The server's command line (after :meth:`start` has found the GGUF)."""
        options = {
            "--model": self.gguf,
            "--model_alias": self.model,
            "--host": "127.0.0.1",
            "--port": self.port,
            "--n_ctx": self.context,
            "--interrupt_requests": "False",
            "--n_threads": self.threads or _usable_cores(),
        }
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            *(str(x) for o in options.items() for x in o),
        ]

    def start(self, timeout: float = START_TIMEOUT) -> LlamaServer:
        """Start the server and wait until it lists its model (or ``timeout`` passes)."""
        from cog_tasks.common.models import embedded_gguf_path

        require_llama_cpp()
        self.gguf = embedded_gguf_path(self.name)
        self.sha256 = gguf_sha256(self.gguf)
        self.port = self.port or free_port()
        # Without a log file the server's output goes to stderr: stdout stays the caller's.
        output = self.log.open("ab") if self.log else sys.stderr
        self._process = start_child(self.command(), stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise UserError(
                    f"llama.cpp server on {self.gguf} exited with {self._process.returncode}"
                    + (f"; its output is in {self.log}" if self.log else "")
                )
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=5):
                    return self
            except (urllib.error.URLError, OSError):
                time.sleep(0.5)
        self.stop()
        raise UserError(f"llama.cpp server on {self.gguf} did not answer within {timeout:.0f} s")

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the server's process group: SIGINT, then SIGKILL after ``timeout`` seconds."""
        process, self._process = self._process, None
        if process is not None:
            stop_process_group(process, signal.SIGINT, timeout)

    def wait(self) -> int:
        """Block until the server exits; return its exit status."""
        assert self._process is not None, "start() first"
        return self._process.wait()

    def __enter__(self) -> LlamaServer:
        return self.start() if self._process is None else self

    def __exit__(self, *_: object) -> None:
        self.stop()


def _usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
