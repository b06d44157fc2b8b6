"""Running the web application with uvicorn: what ``lacak serve`` does.

Ctrl-C (SIGINT) and SIGTERM stop the server at once, in one line: the workers
are ended (a search running included: its request is answered with 503), and
:func:`serve` returns the exit status, 130 for Ctrl-C and 0 for SIGTERM.
uvicorn's own way, re-raising the signal once it has stopped, is not used: it
gave tracebacks and a ``leaked semaphore objects`` warning, and left workers.
"""

from __future__ import annotations

import contextlib
import ipaddress
import signal
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from types import FrameType

import uvicorn

from ..errors import InvalidOptionError, LacakError
from . import work
from .pool import Pool

__all__ = ["LOOPBACK_NAMES", "is_loopback", "serve"]

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
    from .app import create_app

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
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=GRACE,
        )
        server = _Server(config, on_stop=pool.close)
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
