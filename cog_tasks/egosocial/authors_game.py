"""The authors' Number Guessing game text, read (never imported) from their pinned repository."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import GITHUB_RAW, Content, DataSource, fetch
from cog_tasks.egosocial.authors import UPSTREAM_REPO

GAME_FILE = "interactive/reasoning_player.py"
#: The authors' run script, which sets the player's persona.
PERSONA_FILE = "interactive/main.py"
PERSONA_NAME = "PERSONA_A"
#: The authors' commit whose ``interactive/`` folder holds the game.
GAME_COMMIT = "7d0daf295d6006c9999500a5a7bc5c9db93d4304"
GAME_CLASS = "AgentPlayer"
#: The attributes read: the rules and the per-round question.
GAME_ATTRIBUTES = ("GAME_SETTING", "INQUIRY")
#: The fields the per-round question must fill.
INQUIRY_FIELDS = ("{name}", "{round}", "{hp}")
PLAYER_NAME = "John"

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
    """The authors' game text (``inquiry`` has ``{name}``, ``{round}``, ``{hp}``) and its source."""

    setting: str
    inquiry: str
    persona: str = ""
    source: str = ""


def _python(content: Content) -> ast.Module:
    try:
        return ast.parse(content.text(), filename=content.source)
    except SyntaxError as error:
        raise DataFileError(
            f"{content.source}: not Python ({error.msg}, line {error.lineno})"
        ) from error


def parse_game(content: Content) -> AuthorsGame:
    """Read the game's text from the file's ``AgentPlayer`` class (the last assignment wins)."""
    classes = [node for node in _python(content).body if isinstance(node, ast.ClassDef)]
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
    setting, inquiry = (found[name] for name in GAME_ATTRIBUTES)
    lacking = [field for field in INQUIRY_FIELDS if field not in inquiry]
    if lacking:
        raise DataFileError(f"{content.source}: INQUIRY lacks {', '.join(lacking)}")
    return AuthorsGame(setting, inquiry, source=content.source)


def parse_persona(content: Content) -> str:
    """The string assigned to ``PERSONA_A`` in the run script; ``DataFileError`` unless just one."""
    personas = [
        node.value.value
        for node in ast.walk(_python(content))
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and any(isinstance(t, ast.Name) and t.id == PERSONA_NAME for t in node.targets)
    ]
    if len(personas) != 1:
        found = "no" if not personas else f"{len(personas)}"
        raise DataFileError(f"{content.source}: {found} string {PERSONA_NAME} (expected one)")
    return personas[0]


def read_authors_game() -> AuthorsGame:
    """The authors' game text: the local copies under ``COG_TASKS_DATA``, else the pinned files."""
    game = fetch(GAME_SOURCE, GAME_FILE, parse_game).value
    persona = fetch(GAME_SOURCE, PERSONA_FILE, parse_persona).value
    return replace(game, persona=persona)
