"""``lacak serve``: interactive pages for every registered puzzle, and a JSON API.

The application is generic over the registry: every puzzle kind, strategy,
heuristic, generator and dictionary a plugin registers appears on the pages
and in the API with no page code. A kind whose plugin ships a page of its own
(a :class:`~lacak.Page`: JavaScript drawing from the API's JSON, served by
:mod:`lacak.web.pages`) is shown by it; any other kind gets the generic page
(a state box, strategy and heuristic choices, the kind's own picture of the
result, and the search tree). Nothing here knows a puzzle kind.

Needs the optional extra ``lacak[web]`` (FastAPI, uvicorn). The work itself
(:mod:`lacak.web.work`) is plain lacak and needs nothing more.

- :func:`create_app` builds the ASGI application (:mod:`lacak.web.app`);
- :func:`serve` runs it with uvicorn (:mod:`lacak.web.server`), as ``lacak serve`` does.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from ..errors import LacakError

__all__ = ["EXTRA_HINT", "create_app", "missing", "serve"]

#: What to install for the web application.
EXTRA_HINT = "pip install 'lacak[web]'"

#: The modules the web application needs (the ``web`` extra).
NEEDS = ("fastapi", "uvicorn", "fastapi_offline")


def missing() -> list[str]:
    """The modules of the ``web`` extra that are not installed (empty when all are)."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def _require() -> None:
    absent = missing()
    if absent:
        raise LacakError(
            f"lacak serve needs the web extra ({', '.join(absent)} missing): {EXTRA_HINT}"
        )


def create_app(**options: Any) -> Any:
    """The web application (see :func:`lacak.web.app.create_app` for the options).

    :raises LacakError: the ``web`` extra is not installed (the message says what to
        install).
    """
    _require()
    from .app import create_app as build  # (deferred: FastAPI, the [web] extra)

    return build(**options)


def serve(*args: Any, **options: Any) -> int:
    """Run the web application until stopped (see :func:`lacak.web.server.serve`).

    :returns: the exit status (130 when stopped by Ctrl-C, else 0).
    :raises LacakError: the ``web`` extra is not installed, or the address cannot be
        listened on.
    """
    _require()
    from .server import serve as run  # (deferred: uvicorn, the [web] extra)

    return run(*args, **options)
