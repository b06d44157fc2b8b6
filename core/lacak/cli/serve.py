"""``lacak serve``: the interactive pages and the JSON API (needs the web extra)."""

from __future__ import annotations

import click

__all__ = ["serve_command"]


def serve_command() -> click.Command:
    """The ``lacak serve`` command."""

    @click.command("serve")
    @click.option(
        "--host",
        default="127.0.0.1",
        show_default=True,
        help="Address to listen on (loopback: this machine only; others get a warning).",
    )
    @click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=8000,
        show_default=True,
        help="Port (0: any free one, said on start).",
    )
    @click.option("--open", "open_browser", is_flag=True, help="Open the pages in a browser.")
    @click.option(
        "--workers",
        type=click.IntRange(1, 64),
        default=2,
        show_default=True,
        help="Worker processes for generations and searches.",
    )
    @click.option(
        "--memory",
        "memory_mb",
        type=click.IntRange(0),
        default=4096,
        show_default=True,
        help="Address-space limit of each worker process, in MB (0: none).",
    )
    def serve(host: str, port: int, open_browser: bool, workers: int, memory_mb: int) -> int:
        """Serve interactive pages for every puzzle kind, and a JSON API under /api/.

        Mazes (generate, solve, animate), Boggle (solve, words and their paths),
        sliding puzzles (step through a solution, search trees) and a page for any
        other kind a plugin adds; the API is described at /api/openapi.json and
        /api/docs. Needs the web extra: pip install 'lacak[web]'. Ctrl-C stops it
        (exit status 130), as SIGTERM does (0).
        """
        from .. import web  # (deferred: FastAPI and uvicorn load only for this command)

        return web.serve(
            host,
            port,
            open_browser=open_browser,
            workers=workers,
            memory_mb=memory_mb or None,
            say=lambda line: click.echo(line, err=True),
            warn=lambda line: click.echo(line, err=True),
        )

    return serve
