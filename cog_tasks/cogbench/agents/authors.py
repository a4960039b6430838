"""The CogGPT authors' own prompts (CC BY-NC-SA 4.0), fetched at run time, never copied."""

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
    """The three prompt templates of the authors' CogGPT (distillation, update, grading)."""

    distill: str
    update: str
    grade: str


def check_prompt(content: Content, name: str) -> str:
    """The template text, once it holds every field its step fills in."""
    text = content.text()
    for template_field in TEMPLATE_FIELDS[name]:
        if template_field not in text:
            raise DataFileError(f"{content.source}: has no {template_field} field to fill in")
    return text


@functools.cache
def authors_prompts() -> AuthorsPrompts:
    """The authors' prompts, resolved once per process."""
    texts = {
        name: fetch(SOURCE, f"prompts/{name}.txt", lambda c, n=name: check_prompt(c, n)).value
        for name in TEMPLATE_FIELDS
    }
    return AuthorsPrompts(**texts)
