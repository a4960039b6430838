"""A turn-taking helper: news is sent in front of the next question, so turns alternate."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

Ask = Callable[[str], Awaitable[str]]


class Conversation:
    """Queues news and prefixes it to the next question sent through ``ask``."""

    def __init__(self, ask: Ask) -> None:
        self._ask = ask
        self._news: list[str] = []

    def tell(self, text: str) -> None:
        """Queue ``text`` for the next question."""
        self._news.append(text)

    async def ask(self, question: str) -> str:
        """Send queued news plus ``question`` as one message; return the reply."""
        message = "\n\n".join([*self._news, question])
        self._news.clear()
        return await self._ask(message)
