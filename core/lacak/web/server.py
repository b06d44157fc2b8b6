"""Running the web application with uvicorn: what ``lacak serve`` does.

Ctrl-C (SIGINT) and SIGTERM stop the server at once, in one line: the workers
are ended (a search running included: its request is answered with 503), and
:func:`serve` returns the exit status, 130 for Ctrl-C and 0 for SIGTERM.
uvicorn's own way, re-raising the signal once it has stopped, is not used: it
gave tracebacks and a ``leaked semaphore objects`` warning, and left workers.

Connections are bounded (:class:`ConnectionLimits`): a request's headers must
arrive within 10 s of the connection (or of the previous answer on it), its
body within 30 s of its headers, else the server answers 408 (or, for a body,
closes the connection); and past a cap of connections held at once (half the
process's file descriptors, at most 1,000) a new one is answered 503 at once
and closed. Half-sent requests by the thousand then neither exhaust the
server's file descriptors nor keep it from answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import signal
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import attrs
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import InvalidOptionError, LacakError
from . import work
from .pool import Pool

__all__ = ["LOOPBACK_NAMES", "ConnectionLimits", "is_loopback", "serve", "uvicorn_config"]

#: Host names that mean this machine only.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only (``127.0.0.1``, ``::1``,
    ``localhost``)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: one the system picks).

    :raises LacakError: the address cannot be used (in use, not this machine's, ...).
    """
    if not 0 <= port <= 65535:
        raise InvalidOptionError(f"a port is 0 to 65535, got {port}")
    bare = host.strip("[]")
    try:
        infos = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise LacakError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    family, _type, _proto, _name, address = infos[0]
    try:
        sock = socket.create_server(address[:2], family=family)
    except OSError as error:
        raise LacakError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    # Connections accepted on it inherit TCP_NODELAY: without it, each answer after the
    # first on a kept-alive connection waited 40 ms for a delayed ACK (Nagle), which
    # bench/web.py showed as a 50 ms floor on every request.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def url_of(sock: socket.socket) -> str:
    """``http://127.0.0.1:8000/``: where a listening socket is reached."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    return f"http://{shown}:{port}/"


#: The most connections held at once, whatever the file-descriptor limit.
MAX_CONNECTIONS = 1000


def _positive(_instance: Any, attribute: Any, value: float) -> None:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{attribute.name} must be a positive number of seconds, got {value!r}")


def _cap(_instance: Any, _attribute: Any, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"max_connections must be a positive integer (or None), got {value!r}")


@attrs.frozen(kw_only=True)
class ConnectionLimits:
    """How long a client may take to send a request, and how many connections the server
    holds at once (see the module's description)."""

    #: Seconds from a connection (or the end of the previous answer on it) to the end of
    #: a request's headers; past them the server answers 408 and closes the connection.
    header_seconds: float = attrs.field(default=10.0, validator=_positive)
    #: Seconds from the end of a request's headers to the end of its body; past them the
    #: server closes the connection.
    body_seconds: float = attrs.field(default=30.0, validator=_positive)
    #: Connections held at once; past them a new one is answered 503 and closed. ``None``:
    #: half the process's file-descriptor limit, at most :data:`MAX_CONNECTIONS`.
    max_connections: int | None = attrs.field(default=None, validator=_cap)

    def connection_cap(self) -> int:
        """The connections held at once (:attr:`max_connections`, or what ``None`` means)."""
        if self.max_connections is not None:
            return self.max_connections
        try:
            import resource  # (deferred: POSIX only)

            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        except (ImportError, OSError, ValueError):  # no such limit here (Windows)
            return MAX_CONNECTIONS
        if soft == resource.RLIM_INFINITY or soft <= 0:
            return MAX_CONNECTIONS
        return max(1, min(MAX_CONNECTIONS, soft // 2))


def _raw_answer(status: str, error: str, detail: str, *extra: str) -> bytes:
    """A whole HTTP answer in the API's error shape, sent past h11 (no request was read)."""
    body = json.dumps({"detail": detail, "error": error}).encode()
    head = [f"HTTP/1.1 {status}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", *extra]  # fmt: skip
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def _guarded(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol (h11) held to ``limits``."""
    cap = limits.connection_cap()
    busy = _raw_answer(
        "503 Service Unavailable",
        "Busy",
        f"the server holds {cap:,} connections, its most; try again shortly",
        "retry-after: 1",
    )
    late = _raw_answer(
        "408 Request Timeout",
        "RequestTimeout",
        f"the request's headers did not arrive within {limits.header_seconds:g} seconds",
    )

    class Guarded(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _timed: Any = None  # the request whose body is timed

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > cap:
                transport.write(busy)
                transport.close()
                return
            self._arm(limits.header_seconds, self._headers_late)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            answered = self.cycle
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.cycle is answered:  # waiting for the next request's headers
                self._timed = answered
                self._arm(limits.header_seconds, self._headers_late)
            else:  # a request sent before the answer (pipelined) has begun
                self._watch()

        def _watch(self) -> None:
            """Move the timer on when a request's headers or body have all arrived."""
            cycle = self.cycle
            if cycle is None:
                return
            if cycle is not self._timed:  # a new request's headers are in
                self._timed = cycle
                self._disarm()
                if cycle.more_body:
                    self._arm(limits.body_seconds, self._body_late)
            elif not cycle.more_body and self._timer is not None and not cycle.response_complete:
                self._disarm()

        def _arm(self, seconds: float, then: Callable[[], None]) -> None:
            self._disarm()
            self._timer = self.loop.call_later(seconds, then)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _headers_late(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                self.transport.write(late)
                self.transport.close()

        def _body_late(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                self.transport.close()  # (the application sees the client gone)

    return Guarded


def uvicorn_config(
    app: Any, *, limits: ConnectionLimits | None = None, **options: Any
) -> uvicorn.Config:
    """The uvicorn configuration ``lacak serve`` runs ``app`` with: connections held to
    ``limits`` (default :class:`ConnectionLimits`), quiet logs, a short graceful stop.

    :param options: more of :class:`uvicorn.Config`'s (they override these).
    """
    limits = limits or ConnectionLimits()
    settings: dict[str, Any] = {
        "http": _guarded(limits),
        # the listening queue, which is also how many connections the event loop takes
        # at a time: each lives a few turns of the loop before a refusal closes it, so
        # a small one keeps a flood of connections within the file descriptors
        "backlog": max(8, min(128, limits.connection_cap() // 8)),
        "log_level": "warning",
        "access_log": False,
        "lifespan": "on",
        "timeout_graceful_shutdown": GRACE,
    }
    return uvicorn.Config(app, **{**settings, **options})


#: Exit status of a server stopped by each signal (Ctrl-C: 128 + SIGINT, as shells say).
EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 0}

#: Seconds uvicorn waits for requests in flight once told to stop (the workers are
#: ended at once, so they are answered well within this).
GRACE = 5


class _Server(uvicorn.Server):
    """uvicorn's server, told what stops it: the first SIGINT or SIGTERM ends the pool's
    workers at once (``on_stop``) and is remembered in :attr:`stopped_by`, and the
    signal is not raised again once the server has stopped (uvicorn does that, for the
    default exit)."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self.stopped_by: int | None = None
        self._on_stop = on_stop

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
            threading.Thread(target=self._on_stop, name="lacak-serve-stop", daemon=True).start()
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    workers: int = 2,
    memory_mb: int | None = 4096,
    caps: work.Caps | None = None,
    say: Callable[[str], None] = print,
    warn: Callable[[str], None] = print,
) -> int:
    """Serve the pages and the API until stopped (Ctrl-C, SIGTERM).

    :param host: the address to listen on; loopback by default. Any other address
        makes the server reachable from other machines, which ``warn`` says.
    :param port: the port (0: one the system picks; the address is said).
    :param open_browser: open the pages in a web browser once the server listens.
    :param workers: worker processes for generations and searches.
    :param memory_mb: the address-space limit of each worker process (``None``: none).
    :param say: where the address is told, and the stop; ``warn``: where the warning goes.
    :returns: the exit status: 130 when stopped by Ctrl-C (SIGINT), else 0.
    :raises LacakError: the address cannot be listened on.
    """
    from .app import create_app  # (deferred: FastAPI, the [web] extra)

    if workers < 1:
        raise InvalidOptionError(f"--workers is at least 1, got {workers}")
    sock = listen(host, port)
    loopback = is_loopback(host)
    if not loopback:
        warn(
            f"warning: listening on {host}, so other machines can reach this server; it has "
            "no authentication (each request runs under limits). Use the default "
            "--host 127.0.0.1 to keep it to this machine."
        )
    trusted = [*LOOPBACK_NAMES, host.strip("[]")] if loopback else None
    pool = Pool(workers, processes=True, memory_mb=memory_mb)
    server: _Server | None = None
    try:
        app = create_app(caps=caps, pool=pool, trusted_hosts=trusted)
        url = url_of(sock)
        server = _Server(uvicorn_config(app), on_stop=pool.close)
        say(f"lacak serve: {url} (API docs at {url}api/docs); Ctrl-C stops it")
        if open_browser:
            threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # before uvicorn listens for signals, or after
        stopped_by: int | None = signal.SIGINT
    else:
        stopped_by = server.stopped_by
    finally:
        pool.close()
        sock.close()
    if stopped_by is None:
        return 0
    say(f"lacak serve: stopped ({'Ctrl-C' if stopped_by == signal.SIGINT else 'SIGTERM'})")
    return EXIT_STATUS.get(signal.Signals(stopped_by), 0)


def _open_when_up(server: object, url: str) -> None:
    for _ in range(200):
        if getattr(server, "started", False):
            webbrowser.open(url)
            return
        time.sleep(0.05)
