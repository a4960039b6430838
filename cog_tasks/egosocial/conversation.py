"""A turn-taking helper shared by the interactive games.

Games talk to the model through an ``ask`` coroutine (text in, reply out); the
Inspect solvers supply one that appends a user message and generates, so the
whole game history stays in the conversation. Game news that needs no reply
(a round's result, the end of a hand) is queued and sent in front of the next
question, so user and assistant turns keep alternating.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

Ask = Callable[[str], Awaitable[str]]


class Conversation:
    """Queues news and prefixes it to the next question.

    Args:
        ask: Coroutine that sends one user message and returns the reply.
    """

    def __init__(self, ask: Ask) -> None:
        self._ask = ask
        self._news: list[str] = []
        self.turns = 0

    def tell(self, text: str) -> None:
        """Queue ``text`` for the next question."""
        self._news.append(text)

    async def ask(self, question: str) -> str:
        """Send queued news plus ``question`` as one message; return the reply."""
        message = "\n\n".join([*self._news, question])
        self._news.clear()
        self.turns += 1
        return await self._ask(message)
