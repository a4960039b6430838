"""The base of every error that means bad input, not a bug; importing it imports nothing."""

from __future__ import annotations


class UserError(ValueError):
    """Bad input or an unusable setting; the message names the file, row, option or setting."""


class RunFailedError(UserError):
    """An evaluation a command started that did not finish; the message names its log."""

    @classmethod
    def of(cls, what: str, log: object) -> RunFailedError:
        """One line for a failed Inspect log: its status, the error's last line, the log's path."""
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
    """Under the ``inspect`` command, end on one line and exit code 2 for a :class:`UserError`."""
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
