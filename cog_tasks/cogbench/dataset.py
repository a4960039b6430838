"""The bundled CogBench sample set as a dataset repository laid out like ``kwaikeg/CogBench``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from string import Template

import cog_tasks
from cog_tasks.cogbench.loader import (
    HF_REPO,
    PROFILE_FILE,
    SUBSETS,
    bench_file,
    eval_file,
    load_records,
    sample_dir,
)
from cog_tasks.common.files import write_atomically, write_text_atomically
from cog_tasks.common.provenance import recording_reads

LANGUAGE = "english"
CARD_TEMPLATE = "dataset_card.md"


def sample_files() -> list[str]:
    """The sample set's file names, bench and eval files of both subsets and the profiles."""
    return [*(bench_file(s) for s in SUBSETS), *(eval_file(s) for s in SUBSETS), PROFILE_FILE]


def write_sample_folder(folder: Path) -> str:
    """Copy the validated sample files under ``folder/english/``, write the card, say what."""
    source = sample_dir() / LANGUAGE
    target = folder / LANGUAGE
    target.mkdir(parents=True, exist_ok=True)
    counts = {}
    with recording_reads() as reads:
        for subset in SUBSETS:
            counts[subset] = len(load_records(source / eval_file(subset), require_profile=True))
            load_records(source / bench_file(subset))
    for name in sample_files():
        write_atomically(target / name, (source / name).read_bytes())
    write_text_atomically(folder / "README.md", dataset_card(counts) + reads.card())
    sizes = ", ".join(f"eval_cogbench_{subset}={count}" for subset, count in counts.items())
    return f"cogbench (sample set): {sizes}; wrote {len(sample_files()) + 1} files under {folder}"


def dataset_card(eval_counts: dict[str, int]) -> str:
    """The dataset card for the sample set, given the record count of each eval file."""
    template = Template(
        resources.files("cog_tasks.cogbench").joinpath(CARD_TEMPLATE).read_text("utf-8")
    )
    return template.substitute(
        version=cog_tasks.__version__,
        upstream_repo=HF_REPO,
        count_a=eval_counts["a"],
        count_v=eval_counts["v"],
        configs="\n".join(
            f"- config_name: {name.removesuffix('.json')}\n  data_files:\n"
            f"  - split: test\n    path: {LANGUAGE}/{name}"
            for name in sample_files()
            if name != PROFILE_FILE
        ),
    )
