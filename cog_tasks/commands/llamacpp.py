"""``cog-tasks serve NAME`` and ``cog-tasks gguf-path NAME``: the embedded GGUFs as shipped."""

from __future__ import annotations

import argparse
import sys

NAMES_HELP = "embedded model: smollm2, gemma3-270m, qwen2.5-coder-1.5b"


def _gguf_path(args: argparse.Namespace) -> int:
    from cog_tasks.common.models import embedded_gguf_path

    print(embedded_gguf_path(args.name))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from cog_tasks.common.files import terminate_as_interrupt
    from cog_tasks.common.llamacpp import LlamaServer

    server = LlamaServer(args.name, context=args.context, port=args.port, threads=args.threads)
    try:
        with terminate_as_interrupt(), server:
            print(server.base_url, flush=True)
            print(f"model: {server.model}  gguf: {server.gguf}", file=sys.stderr, flush=True)
            return server.wait()
    except KeyboardInterrupt:
        return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``serve`` and ``gguf-path``."""
    gguf = commands.add_parser(
        "gguf-path", help="print (and join on first use) an embedded model's GGUF as shipped"
    )
    gguf.add_argument("name", nargs="?", default="smollm2", help=NAMES_HELP)
    gguf.set_defaults(func=_gguf_path)
    serve = commands.add_parser(
        "serve",
        help="serve an embedded model's GGUF through llama.cpp (extra llamacpp); prints its URL",
    )
    serve.add_argument("name", help=NAMES_HELP)
    serve.add_argument(
        "--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)"
    )
    serve.add_argument("--context", type=int, default=8192, help="context size in tokens")
    serve.add_argument(
        "--threads", type=int, default=0, help="CPU threads (default: every usable core)"
    )
    serve.set_defaults(func=_serve)
