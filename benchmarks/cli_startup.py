"""Time how long ``cog-tasks --help`` and ``cog-tasks tasks-path`` take to start.

Each command runs ``--runs`` times in a fresh process (the console script next
to this Python, as the ``cog-tasks`` command runs it); the median, fastest and
slowest wall-clock times are written to ``--output``, with the heavy modules
(:data:`HEAVY`: numpy and the frameworks) that starting the command imports,
which should be none (issue 46). Target (issue 21): a median of at most 0.5 s
on 2 CPU cores. Each run records the load average:
time on an otherwise idle machine.

Usage::

    python benchmarks/cli_startup.py                 # 9 runs of each command
    python benchmarks/cli_startup.py --runs 3 --output /tmp/startup.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from cog_tasks.common.files import begin_command, write_json_atomically

RESULTS = Path(__file__).resolve().parent / "results" / "cli_startup.json"
COMMANDS = (("--help",), ("tasks-path",))
HEAVY = (
    "numpy",
    "scipy",
    "statsmodels",
    "pandas",
    "torch",
    "lm_eval",
    "inspect_ai",
    "transformers",
    "datasets",
    "matplotlib",
)
TARGET_S = 0.5


def console_script() -> str:
    """The ``cog-tasks`` script installed with this Python (else the one on ``PATH``)."""
    beside = Path(sys.executable).parent / "cog-tasks"
    found = str(beside) if beside.is_file() else shutil.which("cog-tasks")
    if found is None:
        raise SystemExit("cog-tasks is not installed: pip install -e .")
    return found


def time_command(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + system) seconds of ``runs`` fresh processes of ``command``.

    CPU time does not grow with other people's load the way wall time does.
    """
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return times, cpu


def heavy_imports(arguments: tuple[str, ...]) -> list[str]:
    """The heavy top-level modules imported by running ``cog-tasks ARGUMENTS`` in-process."""
    code = (
        "import sys\nfrom cog_tasks.cli import main\n"
        f"try:\n    main({list(arguments)!r})\nexcept SystemExit:\n    pass\n"
        "import json\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Time both commands and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes per command")
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON file to write")
    parser.add_argument("--force", action="store_true", help="replace an existing --output")
    args = parser.parse_args()
    begin_command(force=args.force)

    script = console_script()
    subprocess.run([script, "--help"], check=True, stdout=subprocess.DEVNULL)  # warm the disk
    results = {}
    for arguments in COMMANDS:
        times, cpu = time_command([script, *arguments], args.runs)
        label = " ".join(("cog-tasks", *arguments))
        results[label] = {
            "median_s": round(statistics.median(times), 3),
            "median_cpu_s": round(statistics.median(cpu), 3),
            "min_s": round(min(times), 3),
            "max_s": round(max(times), 3),
            "heavy_modules_imported": heavy_imports(arguments),
            "within_target": statistics.median(times) <= TARGET_S,
        }
        print(f"{label}: median {results[label]['median_s']:.3f} s over {args.runs} runs")
    record = {
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "python benchmarks/cli_startup.py"
        + (f" --runs {args.runs}" if args.runs != 9 else ""),
        "script": script,
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "runs": args.runs,
        "target_s": TARGET_S,
        "results": results,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(args.output, record)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
