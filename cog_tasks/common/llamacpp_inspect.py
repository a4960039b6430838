"""Inspect provider ``llamacpp/NAME``: an embedded model's GGUF through llama.cpp."""

from __future__ import annotations

import atexit
import os
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    RetryDecision,
    modelapi,
    openai_api,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from cog_tasks.common.llamacpp import BACKEND, DEFAULT_CONTEXT, LlamaServer, require_llama_cpp
from cog_tasks.common.settings import cache_dir


class LlamaCppAPI(ModelAPI):
    """A llama.cpp server this provider owns, spoken to by Inspect's OpenAI-compatible client."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        context: int = DEFAULT_CONTEXT,
        threads: int = 0,
        **model_args: Any,
    ) -> None:
        folder = cache_dir() / BACKEND
        folder.mkdir(parents=True, exist_ok=True)
        self.server = LlamaServer(
            model_name,
            context=int(context),
            threads=int(threads),
            log=folder / f"{model_name}-{os.getpid()}.log",
        ).start()
        atexit.register(self.server.stop)
        config = config or GenerateConfig()
        # One request at a time (adaptive concurrency would queue ~100 at the one slot). Inspect
        # 0.3.285 reads it only from this config, which every --model of the eval shares.
        if config.max_connections is None:
            config.max_connections = 1
        super().__init__(self.server.model, self.server.base_url, BACKEND, config=config)
        self.client = openai_api(
            model_name=self.server.model,
            base_url=self.server.base_url,
            api_key=BACKEND,
            config=config,
            service=BACKEND,
            **model_args,
        )

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput | tuple[ModelOutput | Exception, ModelCall]:
        """Generate through the server (Inspect's OpenAI-compatible client)."""
        return await self.client.generate(input, tools, tool_choice, config)

    def should_retry(self, ex: BaseException) -> bool | RetryDecision:
        """The client's retry rule."""
        return self.client.should_retry(ex)

    async def aclose(self) -> None:
        """Close the client, then stop the server."""
        await self.client.aclose()
        self.server.stop()


@modelapi(name=BACKEND)
def llamacpp() -> type[ModelAPI]:
    """The ``llamacpp`` provider class (refuses, naming the extra, without llama-cpp-python)."""
    require_llama_cpp()
    return LlamaCppAPI
