"""The base of every error that means bad input, not a bug.

A ``cog-tasks`` command prints a :class:`UserError` as one line,
``<prog>: error: <message>``, and exits with code 2
(:func:`cog_tasks.common.cli.guarded`); any other exception is a bug and keeps
its traceback. Its subclasses name what was wrong: a data file
(:class:`cog_tasks.common.files.DataFileError`, and so every data source
error), a task parameter (:class:`cog_tasks.common.params.ParameterError`), a
setting (:class:`SettingError`), a command line
(:class:`cog_tasks.common.cli.UsageError`), a file that is not the Inspect log
it should be (:class:`cog_tasks.common.logs.InspectLogError`). Each derives from ``ValueError``
too, so callers that catch ``ValueError`` (Inspect's ``-T`` users, the tests)
still do.

This module imports nothing at import time: every layer may raise these errors
(and print :func:`warn` lines).
"""

from __future__ import annotations


class UserError(ValueError):
    """Bad input or an unusable setting; the message names the file, row, option or setting."""


class RunFailedError(UserError):
    """An evaluation a command started that did not finish; the message names its log."""

    @classmethod
    def of(cls, what: str, log: object) -> RunFailedError:
        """One line for a failed Inspect log: its status, the error's last line, the log's path.

        Args:
            what: What the run was (``condition 'plan'``).
            log: The ``EvalLog``.
        """
        error = getattr(log, "error", None)
        message = str(getattr(error, "message", "") or "").strip().splitlines()
        reason = message[-1][:300] if message else "no error recorded"
        return cls(
            f"{what} did not finish (status {getattr(log, 'status', '?')}: {reason}); "
            f"the whole traceback is in {getattr(log, 'location', 'its log')}"
        )


class SettingError(UserError):
    """An environment setting (``COG_TASKS_*``) whose value cannot be used; the message names it."""


def warn(message: str) -> None:
    """Print ``cog-tasks: warning: <message>`` on one line to standard error."""
    import sys

    from cog_tasks.common.secrets import redact_text

    text = redact_text(" ".join(line.strip() for line in message.splitlines() if line.strip()))
    print(f"cog-tasks: warning: {text}", file=sys.stderr)


def _user_error_in(error: BaseException | None) -> UserError | None:
    """The first :class:`UserError` in ``error``, its causes, contexts and exception groups."""
    stack, seen = [error], set()
    while stack:
        found = stack.pop()
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        if isinstance(found, UserError):
            return found
        stack += [*getattr(found, "exceptions", ()), found.__cause__, found.__context__]
    return None


def one_line_under_inspect() -> None:
    """Under the ``inspect`` command, end on our one line and exit code 2 for a :class:`UserError`.

    Inspect builds the model, then the task: a bad ``-T`` value raises in the
    task's constructor, inside Inspect's task group, and Inspect's exception
    hook prints the whole traceback and exits with 1. This wraps
    ``sys.excepthook`` (plain Python, no private Inspect API) so that an
    exception holding one of ours prints ``inspect: error: <message>`` alone,
    last, with exit code 2; anything else goes to the hook before it. Outside
    the ``inspect`` command nothing changes. The limit: errors Inspect catches
    and records in a log (a failed sample) never reach the hook, so they stay
    in the log and Inspect's summary.
    """
    import os
    import sys
    from pathlib import Path

    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    previous = sys.excepthook
    if program != "inspect" or getattr(previous, "one_line", False):
        return

    def hook(kind: type[BaseException], error: BaseException, trace: object) -> None:
        ours = _user_error_in(error)
        if ours is None:
            previous(kind, error, trace)  # type: ignore[arg-type]
            return
        from cog_tasks.common.secrets import redact_text

        text = " ".join(line.strip() for line in str(ours).splitlines() if line.strip())
        sys.stdout.flush()
        print(f"inspect: error: {redact_text(text)}", file=sys.stderr, flush=True)
        os._exit(2)  # an exception hook cannot set the exit code otherwise

    hook.one_line = True  # type: ignore[attr-defined]
    sys.excepthook = hook
