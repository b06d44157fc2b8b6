"""The web application of ``lacak serve``: the pages, and the JSON API under ``/api/``.

Built with FastAPI (on Starlette): the request bodies are pydantic models, so
every request is checked (types, lengths, ranges) before any lacak code runs,
and the OpenAPI description at ``/api/openapi.json`` and the interactive
documentation at ``/api/docs`` (Swagger UI, served from the package
``fastapi-offline``: nothing is fetched from elsewhere) come from the same
models. Whatever the models let through, lacak checks as it always does: a
:class:`~lacak.LacakError` becomes a 4xx answer carrying its one-line message.

Answers to errors are ``{"detail": "<one line>", "error": "<type>"}``, with
``"field"`` too when the error is about one part of the request (``"puzzle"``,
``"size"``, ``"options.goal"``: :func:`lacak.web.work.field_of`), and
status 404 (no such puzzle kind), 413 (a body too large), 422 (bad input:
lacak's own checks, or the models'), 503 (the pool is full, or a worker died:
try again) or 504 (work that ran far past its limit). A plugin's bug is a 500
saying so.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from pathlib import PurePath
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Scope

from ..errors import (
    LacakError,
    OutOfMemoryError,
    PluginError,
)
from ..plugin.registry import Registry, default_registry
from ..version import __version__
from . import pages, work
from .pool import Busy, Lost, Overrun, Pool

__all__ = ["create_app", "host_name"]

#: Seconds a job may run past its own time limit before the server stops waiting for it.
GRACE = 15.0

#: The largest request body accepted, in bytes.
MAX_BODY = 4_000_000

# -- request and answer models ----------------------------------------------------------------

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Key = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Value = Annotated[str, StringConstraints(max_length=10_000)]
Values = Annotated[dict[Key, Value], Field(max_length=64)]
Format = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]{1,16}$")]
KindName = Annotated[str, Path(min_length=1, max_length=100, description="A puzzle kind.")]


class _Model(BaseModel):
    # strict: a number is a JSON number (not "5", not true), text is a JSON string
    model_config = ConfigDict(extra="forbid", strict=True)


class LimitsIn(_Model):
    """Bounds on one search (each at most the server's cap; see ``GET /api/server``)."""

    max_depth: int | None = Field(None, ge=0, le=1_000_000, description="Deepest level.")
    max_nodes: int | None = Field(None, ge=0, description="Most nodes to expand.")
    seconds: float | None = Field(
        None, ge=0, allow_inf_nan=False, description="Time limit, set-up included."
    )


class SolveRequest(_Model):
    """A puzzle to solve, as on the command line (``lacak KIND solve``)."""

    puzzle: str = Field(
        max_length=MAX_BODY, description="The puzzle's text (as 'lacak KIND solve' reads it)."
    )
    options: Values = Field(
        default_factory=dict, description="The kind's options, as text (KEY: VALUE)."
    )
    strategy: Name | None = Field(None, description="A strategy; default the best for it.")
    heuristic: Name | None = Field(
        None, description="A heuristic with options ('weighted:w1=1,w2=2'), or 'none'."
    )
    strategy_options: Values = Field(
        default_factory=dict, description="The strategy's options, as text (-O KEY=VALUE)."
    )
    limits: LimitsIn = Field(default_factory=lambda: LimitsIn.model_validate({}))
    trace: int = Field(
        0, ge=0, le=1_000_000, description="Record this many nodes of the search tree."
    )
    steps: int = Field(
        0, ge=0, le=1_000_000, description="Record this many steps of the search (each "
        "expansion, with its open and closed lists; a generic strategy, astar unless named)."
    )
    picture: Format | None = Field(
        None, description="Draw the result in this format of the kind ('text', 'svg', ...)."
    )


class GenerateRequest(_Model):
    """An instance to make with a registered generator (``lacak.generate``)."""

    algorithm: Name = Field(description="The generator's name.")
    size: Annotated[str, StringConstraints(max_length=32)] | None = Field(
        None, description="ROWSxCOLS, or null for the generator's own."
    )
    seed: int | None = Field(
        None, ge=0, le=2**53, description="The same seed makes the same instance "
        "(at most 2**53, which JavaScript's numbers hold exactly)."
    )
    options: Values = Field(
        default_factory=dict,
        description="The generator's options, as text (KEY: VALUE; GET /api/kinds/{kind} "
        "lists each generator's).",
    )
    prepare: Values = Field(
        default_factory=dict,
        description="The kind's own options for a made instance, as text: those of "
        "'lacak batch KIND', applied by the kind's BatchKind.prepare.",
    )
    picture: Format | None = Field(
        None,
        description="Draw the instance in this format of the kind ('svg', 'png'...), "
        "with the kind's own render.",
    )


class ErrorAnswer(BaseModel):
    """What every error answer holds."""

    detail: str = Field(description="What went wrong, in one line.")
    error: str = Field(description="The kind of error (a lacak error class, or another word).")
    field: str | None = Field(
        None,
        description="The part of the request it is about, when it is about one: a field "
        "of the body, dotted ('puzzle', 'size', 'options.goal', 'limits.max_depth'). "
        "Absent otherwise.",
    )


class PageInfo(BaseModel):
    """A kind's own page (its plugin's files, served under /pages/KIND/)."""

    title: str = Field(description="Its name in the pages' menu.")
    script: str = Field(description="The address of its ES module; its default export "
                        "fills the page: async (root, catalogue).")  # fmt: skip
    styles: list[str] = Field(description="The addresses of its stylesheets.")


class KindSummary(BaseModel):
    kind: str
    description: str
    plugin: str
    example: str
    page: PageInfo | None = Field(
        description="The kind's own page, or null: the generic page shows it."
    )


class OptionInfo(BaseModel):
    name: str
    default: Any = None
    help: str = ""
    accepts: dict[str, Any] = Field(
        default_factory=dict,
        description="What a request may give (lacak.options.describe_accepts): "
        "{'type': 'one-of', 'values': [...]}, 'integer' or 'number' (with 'minimum' and "
        "'maximum' when bounded), 'text' ('max_length', 'pattern'), 'name' (a registered "
        "name of 'catalogue': 'dictionaries' lists them), 'flag', or 'not-accepted'.",
    )


class StrategyInfo(BaseModel):
    name: str
    description: str
    optimal: bool
    fewest_moves: bool
    heuristic: Literal["required", "optional", "unused"]
    specialised: bool
    options: list[OptionInfo]


class HeuristicInfo(BaseModel):
    name: str
    description: str
    admissible: bool
    consistent: bool
    options: list[OptionInfo]


class GeneratorInfo(BaseModel):
    name: str
    description: str
    options: list[OptionInfo]
    metadata: dict[str, Any]


class Catalogue(KindSummary):
    """What a page offers for one kind."""

    options: list[OptionInfo]
    formats: list[str]
    text_report: bool
    solve_options: list[OptionInfo]
    prepare: list[OptionInfo] = Field(
        description="The kind's options for a made instance (generate's 'prepare'), with "
        "the defaults its plugin declares (those of 'lacak batch KIND')."
    )
    strategies: list[StrategyInfo]
    heuristics: list[HeuristicInfo]
    generators: list[GeneratorInfo]


class DictionaryInfo(BaseModel):
    name: str
    language: str
    description: str


class Picture(BaseModel):
    format: str
    data: str
    base64: bool


class Generated(BaseModel):
    """A generated instance (see ``lacak.web.work.generate``)."""

    kind: str
    algorithm: str
    size: list[int] | None
    seed: int
    options: dict[str, Any]
    text: str | None = Field(description="Its text form, which solve reads back (or null).")
    state: str | None = Field(description="Its initial state in the kind's notation (or null).")
    instance: dict[str, Any] | None = Field(description="Its own JSON (its to_dict()).")
    stats: dict[str, Any] | None = Field(description="Its statistics (its stats()).")
    geometry: dict[str, Any] | None = Field(
        default=None,
        description="The shapes a page draws it with (its geometry(), or null): each "
        "cell's sides and centre, for instance.",
    )
    picture: Picture | None = Field(description="The picture asked for (or null).")


class ChoiceInfo(BaseModel):
    label: str
    strategy: str
    heuristic: str | None
    strategy_from: str
    heuristic_from: str
    notes: list[str]


class Solved(BaseModel):
    """A search's answer (see ``lacak.web.work.solve``)."""

    result: dict[str, Any] = Field(
        description="The search result: the documented JSON of docs/results.md "
        "(docs/result.schema.json), the kind's extras included."
    )
    choice: ChoiceInfo | None
    advice: str | None
    trace: dict[str, Any] | None = Field(description="The search tree (SearchTrace.to_dict).")
    steps: dict[str, Any] | None = Field(
        None, description="The search step by step: 'list' (SearchTrace.steps_to_list, each "
        "list cut to its first entries), 'open' and 'closed' (the lists' names), 'truncated'."
    )
    picture: Picture | None
    limits: dict[str, Any]


class ServerInfo(BaseModel):
    version: str
    workers: int
    queue: int
    processes: bool
    pending: int
    caps: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorAnswer, "description": "A body that is not JSON."},
    422: {"model": ErrorAnswer, "description": "Bad input: the message says what."},
    413: {"model": ErrorAnswer, "description": "The request body is too large."},
}
WORK_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    404: {"model": ErrorAnswer, "description": "No such puzzle kind."},
    500: {"model": ErrorAnswer, "description": "A plugin's bug (the message names it)."},
    503: {"model": ErrorAnswer, "description": "Busy, or a worker died: try again."},
    504: {"model": ErrorAnswer, "description": "The work ran far past its time limit."},
}


def _error(status: int, detail: str, kind: str, field: str | None = None) -> JSONResponse:
    answer = {"detail": " ".join(detail.split()), "error": kind}
    if field is not None:
        answer["field"] = field
    return JSONResponse(answer, status_code=status)


def _body_field(location: Any) -> str | None:
    """The dotted field of the body a request model's error is at (``None``: not in the
    body, or the body as a whole)."""
    parts = list(location or ())
    if not parts or parts[0] != "body" or len(parts) < 2:
        return None
    return ".".join(str(part) for part in parts[1:])


def _status(error: LacakError) -> int:
    if isinstance(error, PluginError):
        return 500
    return 422


class _BodyLimit:
    """Refuse request bodies past ``limit`` bytes with 413, whether or not they say
    their length (a pure ASGI middleware: it counts what is received)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(self.limit)(scope, receive, send)
                return
        received = 0
        started = refused = False

        async def counted() -> MutableMapping[str, Any]:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit and not started:
                    refused = True  # answer 413 now; the app sees the client gone
                    await _too_large(self.limit)(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not refused:  # (once refused, the app's complaint of a client gone is moot)
                raise


def _too_large(limit: int) -> JSONResponse:
    return _error(413, f"the request body is larger than {limit:,} bytes", "TooLarge")


#: ``host[:port]``: a bracketed IPv6 address or a name without brackets, colons or spaces.
_HOST = re.compile(r"(?:\[([0-9A-Fa-f:.]+)\]|([^\[\]:/@\s]+))(?::[0-9]{1,5})?")


def host_name(header: str) -> str | None:
    """The host of a ``Host`` header, normalised (lower case, no trailing dot; an IPv6
    address without its brackets, in its short form), or ``None`` when the header is
    not ``host[:port]`` (``[::1]:8000`` is ``::1``, what a browser sends to the URL
    ``http://[::1]:8000/``).

    >>> host_name("[::1]:8000"), host_name("LocalHost.:80"), host_name("[::1")
    ('::1', 'localhost', None)
    """
    match = _HOST.fullmatch(header)
    if match is None:
        return None
    literal, name = match.groups()
    if literal is not None:
        try:
            return str(ipaddress.IPv6Address(literal))
        except ValueError:
            return None
    return name.lower().rstrip(".") or None


class _HostCheck:
    """Refuse requests whose ``Host`` is not one of ``allowed`` (400, the API's error
    shape): another site's page cannot then reach the server through a name of its own
    (DNS rebinding). Names are compared by :func:`host_name`, so ``[::1]:8000`` is ``::1``."""

    def __init__(self, app: Any, allowed: list[str]) -> None:
        self.app = app
        self.allowed = {host_name(f"[{h.strip('[]')}]" if ":" in h else h) for h in allowed}
        self.allowed.discard(None)

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        if scope["type"] in ("http", "websocket"):
            header = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
            if host_name(header.decode("latin-1")) not in self.allowed:
                response = _error(400, "this server answers only to its own host names",
                                  "InvalidHost")  # fmt: skip
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: Headers of every page: nothing is loaded from anywhere but this server.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def static_folder() -> Any:
    """The folder of the pages' HTML, CSS and JavaScript (package data of ``lacak.web``)."""
    return resources.files("lacak.web") / "static"


def create_app(
    *,
    caps: work.Caps | None = None,
    pool: Pool | None = None,
    registry: Registry | None = None,
    trusted_hosts: list[str] | None = None,
    max_body: int = MAX_BODY,
) -> FastAPI:
    """The web application: the pages at ``/`` (their shared files under ``/static/``, each
    kind's own page under ``/pages/KIND/``: :mod:`lacak.web.pages`), the API under ``/api/``.

    :param caps: what one request may ask at most (default :class:`~lacak.web.work.Caps`).
    :param pool: where generations and searches run (default: two worker
        processes, or with ``registry`` two threads using it, closed when the
        application shuts down; a pool given is left to its giver to close).
    :param registry: the registry to serve (default: the installed plugins').
    :param trusted_hosts: the ``Host`` names accepted (``None``: any); ``lacak serve``
        on loopback accepts only loopback names, so other sites' pages cannot reach
        it through a name of theirs (DNS rebinding).
    :param max_body: the largest request body, in bytes.
    """
    from fastapi_offline import FastAPIOffline  # (deferred: slow to import, for the app only)

    caps = caps if caps is not None else work.Caps()
    owned = pool is None
    if pool is None:
        pool = Pool(2, processes=registry is None, registry=registry)
    reg = registry

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        pool.warm()
        try:
            yield
        finally:
            if owned:  # a pool given to the app is its giver's to close
                pool.close()

    app = FastAPIOffline(
        title="lacak",
        version=__version__,
        description="lacak's puzzles, generators and searches over HTTP: the JSON API behind "
        "the pages of `lacak serve`. Results use the documented shape of docs/results.md, "
        "the kind's extras included.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        static_url="/api/docs-static",
        lifespan=lifespan,
    )
    app.state.caps = caps
    app.state.pool = pool

    def registry_now() -> Registry:
        return reg if reg is not None else default_registry()

    registry_now()  # load the plugins now, not on the first request

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        errors = error.errors()
        for item in errors[:5]:
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
        field = _body_field(errors[0].get("loc")) if errors else None
        return _error(422, "; ".join(parts) or "invalid request", "ValidationError", field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        response = _error(error.status_code, str(error.detail), "HTTPError")
        for name, value in (error.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(LacakError)
    async def refused(_request: Request, error: LacakError) -> JSONResponse:
        return _error(_status(error), str(error), type(error).__name__, work.field_of(error))

    @app.exception_handler(Busy)
    async def busy(_request: Request, error: Busy) -> JSONResponse:
        response = _error(503, str(error), "Busy")
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(Lost)
    async def lost(_request: Request, error: Lost) -> JSONResponse:
        return _error(503, str(error), "WorkerDied")

    @app.exception_handler(Overrun)
    async def overrun(_request: Request, error: Overrun) -> JSONResponse:
        return _error(504, str(error), "Overrun")

    def check_kind(kind: str) -> None:
        if kind not in registry_now().puzzle_types():
            known = ", ".join(sorted(registry_now().puzzle_types()))
            raise _NoKind(f"no puzzle kind {kind!r} (kinds: {known})")

    @app.exception_handler(_NoKind)
    async def no_kind(_request: Request, error: _NoKind) -> JSONResponse:
        return _error(404, str(error), "UnknownComponentError")

    @app.get(
        "/api/kinds",
        response_model=list[KindSummary],
        summary="The registered puzzle kinds",
        tags=["catalogue"],
    )
    def list_kinds() -> Any:
        return work.kinds(registry=reg)

    @app.get(
        "/api/kinds/{kind}",
        response_model=Catalogue,
        responses=WORK_ERRORS,
        summary="A kind's options, strategies, heuristics and generators",
        tags=["catalogue"],
    )
    def kind_catalogue(kind: KindName) -> Any:
        check_kind(kind)
        return work.catalogue(kind, registry=reg)

    @app.get(
        "/api/dictionaries",
        response_model=list[DictionaryInfo],
        summary="The registered dictionaries (drop-in files included)",
        tags=["catalogue"],
    )
    def list_dictionaries() -> Any:
        return work.dictionaries(registry=reg)

    @app.get(
        "/api/server",
        response_model=ServerInfo,
        summary="The server's version, workers and caps",
        tags=["catalogue"],
    )
    def server() -> Any:
        return {
            "version": __version__,
            "workers": pool.workers,
            "queue": pool.queue,
            "processes": pool.processes,
            "pending": pool.pending,
            "caps": caps.to_dict(),
        }

    @app.post(
        "/api/kinds/{kind}/generate",
        response_model=Generated,
        responses=WORK_ERRORS,
        summary="Make an instance with a registered generator",
        tags=["work"],
    )
    async def generate(kind: KindName, body: GenerateRequest) -> Any:
        check_kind(kind)
        request = body.model_dump()
        return await pool.run("generate", kind, request, caps, timeout=caps.max_seconds + GRACE)

    @app.post(
        "/api/kinds/{kind}/solve",
        response_model=Solved,
        responses=WORK_ERRORS,
        summary="Solve a puzzle: the result, the choice, the tree and a picture",
        tags=["work"],
    )
    async def solve(kind: KindName, body: SolveRequest) -> Any:
        check_kind(kind)
        request = body.model_dump()
        seconds = body.limits.seconds
        wait = min(seconds if seconds is not None else caps.default_seconds, caps.max_seconds)
        try:
            return await pool.run("solve", kind, request, caps, timeout=wait + GRACE)
        except OutOfMemoryError as error:
            return _error(422, str(error), type(error).__name__, work.field_of(error))

    folder = static_folder()

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(str(folder / "index.html"), headers=PAGE_HEADERS)

    app.mount("/static", StaticFiles(directory=str(folder)), name="static")

    app.mount(pages.PREFIX, _PageFiles(registry_now), name="pages")
    if trusted_hosts is not None:
        app.add_middleware(_HostCheck, allowed=list(trusted_hosts))
    app.add_middleware(_BodyLimit, limit=max_body)
    return app


class _PageFiles(StaticFiles):
    """The kinds' own pages, ``/pages/KIND/FILE``: each a file of the folder its kind's
    :class:`~lacak.Page` declares and nothing outside it (:func:`lacak.web.pages.find`),
    answered as ``/static/`` answers (``GET`` and ``HEAD``, ``ETag`` and
    ``Last-Modified``, ``304 Not Modified``, a bare ``404 Not Found`` that says nothing
    of the file system), with the media types of :func:`lacak.web.pages.media_type` and
    the pages' headers. The kinds are those of the registry in force at each request,
    as datasette serves each plugin's static files under ``/-/static-plugins/PLUGIN/``."""

    def __init__(self, registry: Callable[[], Registry]) -> None:
        super().__init__(check_dir=False)
        self._registry = registry

    def get_path(self, scope: Scope) -> str:
        # the path after /pages/ as asked (percent-decoded), its dots kept for pages.find
        # to refuse (StaticFiles would fold them away); a kind's name is its first part
        path, root = scope["path"], scope.get("root_path", "")
        return (path[len(root):] if path.startswith(root) else path).removeprefix("/")

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        kind, _, file = path.partition("/")
        types = self._registry().puzzle_types()
        page = types[kind].page if kind in types else None
        folder = None if page is None else pages.folder_of(page)
        found = None if folder is None else pages.find(folder, file)
        if found is None:
            return "", None
        try:
            return str(found), found.stat()
        except OSError:  # gone since pages.find saw it
            return "", None

    def file_response(
        self,
        full_path: Any,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = FileResponse(
            full_path,
            status_code=status_code,
            stat_result=stat_result,
            media_type=pages.media_type(PurePath(full_path)),
            headers=PAGE_HEADERS,
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


class _NoKind(Exception):
    pass

