"""The CogGPT authors' own prompts, read at run time from their pinned repository.

KwaiKEG/CogGPT publishes the three prompts of CogGPT (``prompts/distill.txt``,
``update.txt`` and ``grade.txt``) under CC BY-NC-SA 4.0, so cog-tasks never
copies them: :func:`authors_prompts` resolves each file through the one data
source (:func:`cog_tasks.common.sources.fetch`): ``$COG_TASKS_DATA/coggpt/prompts/``
first, then the pinned commit on GitHub (downloaded once and cached). Each is
a Python format string with ``{profile}`` and ``{memory}`` (and ``{question}``
for grading); ``{{``/``}}`` are literal braces.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import GITHUB_RAW, Content, DataSource, fetch

UPSTREAM_REPO = "KwaiKEG/CogGPT"
UPSTREAM_COMMIT = "0af5cdd08cd866f08818b718d164bf370828e478"
TEMPLATE_FIELDS: dict[str, tuple[str, ...]] = {
    "distill": ("{profile}", "{memory}"),
    "update": ("{profile}", "{memory}"),
    "grade": ("{profile}", "{memory}", "{question}"),
}


SOURCE = DataSource(
    benchmark="coggpt",
    title="CogGPT",
    repo=UPSTREAM_REPO,
    commit=UPSTREAM_COMMIT,
    url_template=GITHUB_RAW,
    hub_copy="the CogBench data, not the CogGPT authors' prompts",
    more_ways_out=("pass -T prompts=ours for cog-tasks' own prompts",),
    describe=lambda path: f"CogGPT authors' prompt {path!r}",
)


@dataclass(frozen=True)
class AuthorsPrompts:
    """The three prompt templates of the authors' CogGPT.

    Attributes:
        distill: Short-term memory to scored knowledge, as a JSON list.
        update: Short-term memory to an updated profile.
        grade: Profile, recalled memory and a question to ``Thoughts:``/``Rating:``.
    """

    distill: str
    update: str
    grade: str


def check_prompt(content: Content, name: str) -> str:
    """The template text, once it holds every field its step fills in.

    Raises:
        DataFileError: Naming the file and the missing field.
    """
    text = content.text()
    for template_field in TEMPLATE_FIELDS[name]:
        if template_field not in text:
            raise DataFileError(f"{content.source}: has no {template_field} field to fill in")
    return text


@functools.cache
def authors_prompts() -> AuthorsPrompts:
    """The authors' prompts, resolved once per process.

    Raises:
        DataSourceError: When no source has them (the message gives the ways out).
    """
    texts = {
        name: fetch(SOURCE, f"prompts/{name}.txt", lambda c, n=name: check_prompt(c, n)).value
        for name in TEMPLATE_FIELDS
    }
    return AuthorsPrompts(**texts)
