"""The CLI kit: one error wrapper on every command, ``--out``, ``--status``, comma lists.

Also checks that starting ``cog-tasks`` imports no heavy framework.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cog_tasks.cli import build_parser, main
from cog_tasks.common.cli import (
    DEFAULT_STATUSES,
    HTTP_CLIENTS,
    add_name_value_option,
    add_out_option,
    add_status_option,
    comma_list,
    command_parsers,
    count_at_least,
    guarded,
    is_user_error,
    positive_int,
)
from cog_tasks.common.errors import UserError
from cog_tasks.common.files import OutputExistsError, expand_user, new_output

HEAVY = ("pandas", "torch", "lm_eval", "inspect_ai", "transformers", "datasets", "matplotlib")
PASSED_THROUGH = {"cog-tasks lm-eval"}  # handed to lm-eval's own command line by main()


def test_every_command_of_every_group_is_wrapped() -> None:
    commands = {
        parser.prog: parser.get_default("func") for parser in command_parsers(build_parser())
    }
    assert {"cog-tasks model-path", "cog-tasks list", "cog-tasks data build"} <= set(commands)
    assert {"cog-tasks coglm interdependence", "cog-tasks egosocial chance"} <= set(commands)
    unwrapped = [
        prog
        for prog, function in commands.items()
        if prog not in PASSED_THROUGH
        and getattr(function, "guarded_program", None) != prog  # named by its own command
    ]
    assert unwrapped == []


def test_the_walk_sees_an_unwrapped_command() -> None:
    parser = argparse.ArgumentParser(prog="tool")
    commands = parser.add_subparsers()
    commands.add_parser("plain").set_defaults(func=lambda args: 0)
    commands.add_parser("safe").set_defaults(func=guarded(lambda args: 0, "tool safe"))
    wrapped = {
        p.prog: hasattr(p.get_default("func"), "guarded_program") for p in command_parsers(parser)
    }
    assert wrapped == {"tool plain": False, "tool safe": True}


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a_file.txt"
    path.write_text("not a folder\n")
    return path


@pytest.mark.parametrize(
    ("arguments", "program", "names"),
    [
        (["egosocial", "report", "MISSING"], "cog-tasks egosocial report", "MISSING"),
        (["coglm", "report", "MISSING"], "cog-tasks coglm report", "MISSING"),
        (["cogeval", "report", "MISSING"], "cog-tasks cogeval report", "MISSING"),
        (["cogbench", "report", "MISSING"], "cog-tasks cogbench report", "MISSING"),
        (["data", "build", "coglm", "--out", "{a_file}"], "cog-tasks data build", "a_file.txt"),
        (["data", "build", "coglm", "{a_file}"], "cog-tasks data build", "a_file.txt"),
        (["model-path", "nope"], "cog-tasks model-path", "'nope'"),
        (["data", "push", "coglm", "--repo-id", "o/n"], "cog-tasks data push", "huggingface.co"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    arguments: list[str], program: str, names: str, a_file: Path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(a_file.parent)
    assert main([part.format(a_file=a_file) for part in arguments]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 1
    assert errors[0].startswith(f"{program}: error: ") and names in errors[0]


def test_bad_input_in_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cog_tasks.cli", "egosocial", "report", str(tmp_path / "MISSING")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("cog-tasks egosocial report: error: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("folder", "message"),
    [("empty", "could not fetch the CogLM file"), ("missing", "data directory")],
)
def test_missing_data_under_lm_eval_is_one_line(tmp_path: Path, folder: str, message: str) -> None:
    """lm-eval reads our data through our loader: its failure is ours to report."""
    (tmp_path / "empty").mkdir()
    environment = {
        **os.environ,
        "COG_TASKS_DATA": str(tmp_path / folder),
        "COG_TASKS_CACHE": str(tmp_path / "cache"),
        "HF_HUB_OFFLINE": "1",
    }
    arguments = ["lm-eval", "--model", "dummy", "--tasks", "coglm_plan", "--limit", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "cog_tasks.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"cog-tasks lm-eval: error: {message}")


@pytest.mark.parametrize(
    "bug",
    [
        TypeError("a bug"),
        KeyError("a bug"),
        AttributeError("a bug"),
        RuntimeError("a bug"),
        RecursionError("a bug"),
    ],
)
def test_a_bug_keeps_its_traceback(bug: Exception) -> None:
    def buggy(args: argparse.Namespace) -> int:
        raise bug

    with pytest.raises(type(bug), match="a bug"):
        guarded(buggy, "tool buggy")(argparse.Namespace())


def test_an_unknown_name_or_a_network_failure_is_one_line(capsys) -> None:
    def offline(args: argparse.Namespace) -> int:
        from huggingface_hub.errors import OfflineModeIsEnabled

        raise OfflineModeIsEnabled("Cannot reach https://huggingface.co: offline mode is enabled.")

    assert guarded(offline, "cog-tasks data push")(argparse.Namespace()) == 2
    assert capsys.readouterr().err == (
        "cog-tasks data push: error: Cannot reach https://huggingface.co: "
        "offline mode is enabled.\n"
    )


def test_a_network_failure_of_the_hub_client_is_one_line(capsys) -> None:
    from huggingface_hub import HfApi  # noqa: F401 (imports the Hub's HTTP client)

    client = next(sys.modules[name] for name in HTTP_CLIENTS if name in sys.modules)
    url = "https://huggingface.co/api/repos/create"

    def push(args: argparse.Namespace) -> int:
        request = client.Request("POST", url)
        raise client.ConnectError("[Errno -2] Name or service not known", request=request)

    assert guarded(push, "cog-tasks data push")(argparse.Namespace()) == 2
    assert capsys.readouterr().err == (
        f"cog-tasks data push: error: cannot reach {url}: [Errno -2] Name or service not known\n"
    )


def test_comma_list_refuses_empty_items() -> None:
    assert comma_list("a, b ,c") == ["a", "b", "c"]
    for bad in ("a,,b", "a,", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="empty item"):
            comma_list(bad)


def test_a_comma_list_option_rejects_an_empty_item(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["cogeval", "generate", "--out", "x.jsonl", "--graphs", "n7line,,n7tree"])
    assert exit_info.value.code == 2
    assert "empty item in 'n7line,,n7tree'" in capsys.readouterr().err


def _status_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tool")
    add_status_option(parser)
    return parser


def test_status_has_one_default_and_takes_comma_lists_repeatedly() -> None:
    parser = _status_parser()
    assert parser.parse_args([]).status == ("success",)
    assert parser.parse_args(["--status", "error"]).status == ("error",)
    chosen = parser.parse_args(["--status", "error,success", "--status", "started"]).status
    assert chosen == ("started", "success", "error")
    assert DEFAULT_STATUSES == ("success",)  # the default tuple was not extended in place


def test_status_rejects_an_unknown_status(capsys) -> None:
    with pytest.raises(SystemExit):
        _status_parser().parse_args(["--status", "success,done"])
    assert "unknown 'done'" in capsys.readouterr().err


def test_every_status_option_is_the_kit_one() -> None:
    for parser in command_parsers(build_parser()):
        for action in parser._actions:
            if "--status" in action.option_strings:
                assert action.default == DEFAULT_STATUSES, parser.prog
                assert parser.parse_args(["--status", "error"] + _required(parser)).status == (
                    "error",
                ), parser.prog


def _required(parser: argparse.ArgumentParser) -> list[str]:
    """Values for a parser's required arguments, positional or not (``cogeval exp2 --log``).

    The commands with ``--status`` take paths, so ``x`` does for every value.
    """
    values = []
    for action in parser._actions:
        if action.required:
            values += [action.option_strings[0], "x"] if action.option_strings else ["x"]
    return values


def _out_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tool")
    add_out_option(parser, "file to write", old=("-o", "--output"), old_positional="OUTPUT")
    return parser


def test_out_keeps_the_old_names_as_deprecated_aliases(capsys) -> None:
    parser = _out_parser()
    assert parser.parse_args(["--out", "a.json"]).out == Path("a.json")
    for old in (["-o", "b.json"], ["--output", "b.json"], ["b.json"]):
        assert parser.parse_args(old).out == Path("b.json")
    assert capsys.readouterr().err == ""  # silent: a command's error stays one line
    assert parser.parse_args([]).out is None
    help_text = " ".join(parser.format_help().split())
    assert "(-o, --output: deprecated names of --out)" in help_text
    assert "OUTPUT" not in help_text


def test_out_given_twice_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        _out_parser().parse_args(["--out", "a.json", "b.json"])
    assert "give the output once" in capsys.readouterr().err


def test_old_output_names_still_work_on_the_commands(tmp_path: Path, capsys) -> None:
    parser = build_parser()
    old_and_new = [
        (["coglm", "report", "R", "--chart", "c.png"], Path("c.png")),
        (["coglm", "table5", "L", "--out", "t.png"], Path("t.png")),
        (["cogbench", "export", "L", "-o", "e.json"], Path("e.json")),
        (["cogbench", "export", "L", "--output", "e.json"], Path("e.json")),
        (["data", "build", "coglm", str(tmp_path)], tmp_path),
        (["data", "build", "coglm", "--out", str(tmp_path)], tmp_path),
    ]
    for arguments, out in old_and_new:
        assert parser.parse_args(arguments).out == out, arguments


def test_every_output_option_is_the_kit_one() -> None:
    output_names = {"--out", "-o", "--output", "--chart"}
    for parser in command_parsers(build_parser()):
        for action in parser._actions:
            if output_names & set(action.option_strings):
                assert action.option_strings[0] == "--out" and action.dest == "out", parser.prog


def test_data_build_without_an_output_is_one_line(capsys) -> None:
    assert main(["data", "build", "coglm"]) == 2
    assert capsys.readouterr().err == (
        "cog-tasks data build: error: the following argument is required: --out\n"
    )


def test_starting_the_command_imports_no_heavy_framework() -> None:
    code = (
        "import sys; from cog_tasks.cli import build_parser; build_parser(); "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {set(HEAVY)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("arguments", [["--help"], ["tasks-path"]])
def test_help_and_tasks_path_import_no_heavy_framework(arguments: list[str]) -> None:
    code = (
        "import sys\nfrom cog_tasks.cli import main\n"
        f"try:\n    main({arguments!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {set(HEAVY)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_library_value_error_keeps_its_traceback() -> None:
    """``int("x")`` in a command is a bug, and so any plain ``ValueError``; a UserError is not."""

    def buggy(args: argparse.Namespace) -> int:
        return int("x")

    with pytest.raises(ValueError, match="invalid literal"):
        guarded(buggy, "tool buggy")(argparse.Namespace())
    try:
        int("x")
    except ValueError as error:
        assert not is_user_error(error)
    assert is_user_error(UserError("a user error"))


def test_counts_and_force(tmp_path: Path) -> None:
    """``count_at_least`` refuses text and small numbers; ``new_output`` guards existing files."""
    assert positive_int("3") == 3 and count_at_least(0)("0") == 0
    for text in ("0", "-1", "x", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError, match=">= 1"):
            positive_int(text)
    source = tmp_path / "in.jsonl"
    source.write_text("{}\n")
    target = tmp_path / "out.jsonl"
    assert new_output(target, False, source) == target
    target.write_text("old\n")
    with pytest.raises(OutputExistsError, match=f"{target}: already exists; pass --force"):
        new_output(target, False, source)
    assert new_output(target, True, source) == target
    for force in (False, True):
        with pytest.raises(UserError, match="overwrite its own input"):
            new_output(source, force, source)


def test_task_arguments_once_each_and_as_yaml(capsys) -> None:
    """``-T`` values are YAML, none empty, none repeated; each refusal is one line."""
    parser = argparse.ArgumentParser(prog="tool")
    add_name_value_option(parser, "-T", "task_args", "a task argument")
    assert parser.parse_args(["-T", "a=1", "-T", "b=x,y"]).task_args == [("a", 1), ("b", "x,y")]
    for argv, message in (
        (["-T", "a=1", "-T", "a=2"], "-T a= given twice"),
        (["-T", "a="], "'a=': no value"),
        (["-T", "a=[1,"], "'a=[1,': not a YAML value"),
        (["-T", "a=!!python/name:os.system"], "not a YAML value"),
    ):
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        assert message in capsys.readouterr().err


def test_expand_user_names_an_unknown_user() -> None:
    assert expand_user("~/x", "here") == Path.home() / "x"
    with pytest.raises(UserError, match=r"^~nosuchuser/x \(from \$SETTING\): no such user"):
        expand_user("~nosuchuser/x", "$SETTING")
