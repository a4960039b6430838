"""Readers of graph facts from the original CogEval templates (reference material only)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def load_template(templates_dir: Path, graph: str, domain: str = "ordRooms") -> dict[str, Any]:
    """One template file as a dictionary."""
    return json.loads((templates_dir / graph / f"{domain}.json").read_text(encoding="utf-8"))


def template_rewards(text: str) -> dict[int, float]:
    """Rewards and penalties stated as '... of N for visiting room M'."""
    rewards = {}
    for kind, value, room in re.findall(r"(reward|penalty) of (\d+) for visiting room (\d+)", text):
        rewards[int(room)] = float(value) * (-1 if kind == "penalty" else 1)
    return rewards


def template_adjacency(text: str) -> set[frozenset[int]]:
    """Undirected edges from sentences 'Room X is (also) connected to rooms a, b and c'."""
    edges = set()
    pattern = r"Room (\d+) is (?:also )?connected to rooms? ([\d,\sand]+?)\."
    for room, others in re.findall(pattern, text):
        for other in re.findall(r"\d+", others):
            edges.add(frozenset((int(room), int(other))))
    return edges


def template_line_graph(text: str) -> tuple[set[tuple[int, int]], dict[int, float]]:
    """Edges and rewards of a line graph told as two exploration episodes.

    The sentence with the lobby's 'two choices' is dropped; each episode (split
    at 'start over') visits rooms in order of first mention from the lobby (0),
    and its 'N dollars' lie in the last room.
    """
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", text) if "two choices" not in s]
    edges: set[tuple[int, int]] = set()
    rewards: dict[int, float] = {}
    for episode in " ".join(sentences).split("start over"):
        chain: list[int] = []
        for room in re.findall(r"room ?(\d+)", episode):
            if int(room) not in chain:
                chain.append(int(room))
        path = [0, *chain]
        edges.update(zip(path, path[1:], strict=False))
        money = re.search(r"(\d+) dollars", episode)
        if money:
            rewards[chain[-1]] = float(money.group(1))
    return edges, rewards
