"""The authors' Number Guessing game text, read at run time from their pinned repository.

The authors' ``interactive/reasoning_player.py`` (gyhou123/EgoSocialArena at
:data:`GAME_COMMIT`) holds the game as their runs sent it to the model: the
rules (two players, the model and Jack, each choosing an integer from 1 to
100; the number closest to 0.8 × the average wins the round and the other
player loses one health point, both lose one when the numbers are equal), an
example round with the starting health (10 points) and the question asked
each round (with the player's name, the round and its health). This project
does not ship that text: :func:`read_authors_game` reads the class attributes
``GAME_SETTING``, ``GAME_EXAMPLE`` and ``INQUIRY`` of the file's
``AgentPlayer`` class (with :mod:`ast`, never importing the file), from
``$COG_TASKS_DATA/egosocial/interactive/reasoning_player.py`` when it is
there, otherwise from the pinned URL (downloaded once into the cache; under
``HF_HUB_OFFLINE`` only the cache is read), through
:func:`cog_tasks.common.sources.fetch`.

The model's name in the authors' runs, John, is set by their run script, not
in this file (:data:`PLAYER_NAME`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import GITHUB_RAW, Content, DataSource, fetch
from cog_tasks.egosocial.authors import UPSTREAM_REPO

GAME_FILE = "interactive/reasoning_player.py"
#: The authors' commit whose ``interactive/`` folder holds the game.
GAME_COMMIT = "7d0daf295d6006c9999500a5a7bc5c9db93d4304"
GAME_CLASS = "AgentPlayer"
#: The attributes read: the rules, the example round, the per-round question.
GAME_ATTRIBUTES = ("GAME_SETTING", "GAME_EXAMPLE", "INQUIRY")
#: The fields the per-round question must fill.
INQUIRY_FIELDS = ("{name}", "{round}", "{hp}")
PLAYER_NAME = "John"
OPPONENT_NAME = "Jack"
INITIAL_HEALTH = 10


GAME_SOURCE = DataSource(
    benchmark="egosocial",
    title="EgoSocialArena",
    repo=UPSTREAM_REPO,
    commit=GAME_COMMIT,
    url_template=GITHUB_RAW,
    hub_copy="the authors' data files, not their game code",
    describe=lambda file: f"EgoSocialArena authors' game file {file!r}",
)


@dataclass(frozen=True)
class AuthorsGame:
    """The authors' game text.

    Attributes:
        setting: The rules (``GAME_SETTING``).
        example: The example round and the health rules (``GAME_EXAMPLE``).
        inquiry: The per-round question, with ``{name}``, ``{round}`` and ``{hp}``.
        source: Where it was read from.
    """

    setting: str
    example: str
    inquiry: str
    source: str = ""


def parse_game(content: Content) -> AuthorsGame:
    """Read the game's text from the file's ``AgentPlayer`` class (the validator of the fetch).

    The last assignment of each attribute in the class body wins, as in Python.

    Raises:
        DataFileError: Naming the file, when it is not Python, has no such
            class, lacks a string attribute, or its question lacks a field.
    """
    try:
        tree = ast.parse(content.text(), filename=content.source)
    except SyntaxError as error:
        raise DataFileError(
            f"{content.source}: not Python ({error.msg}, line {error.lineno})"
        ) from error
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    body = next((node.body for node in classes if node.name == GAME_CLASS), None)
    if body is None:
        raise DataFileError(f"{content.source}: no class {GAME_CLASS}")
    found: dict[str, str] = {}
    for node in body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    missing = [name for name in GAME_ATTRIBUTES if name not in found]
    if missing:
        raise DataFileError(f"{content.source}: {GAME_CLASS} has no string {', '.join(missing)}")
    setting, example, inquiry = (found[name] for name in GAME_ATTRIBUTES)
    lacking = [field for field in INQUIRY_FIELDS if field not in inquiry]
    if lacking:
        raise DataFileError(f"{content.source}: INQUIRY lacks {', '.join(lacking)}")
    return AuthorsGame(setting, example, inquiry, content.source)


def read_authors_game() -> AuthorsGame:
    """The authors' game text: the local copy under ``COG_TASKS_DATA``, else the pinned file.

    Raises:
        DataSourceError: When no source has the file (the message gives the ways out).
        DataFileError: When the file is not the authors' game file.
    """
    return fetch(GAME_SOURCE, GAME_FILE, parse_game).value
