"""Running the web application with uvicorn: what ``lacak serve`` does."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
import webbrowser
from collections.abc import Callable

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
) -> None:
    """Serve the pages and the API until interrupted (Ctrl-C).

    :param host: the address to listen on; loopback by default. Any other address
        makes the server reachable from other machines, which ``warn`` says.
    :param port: the port (0: one the system picks; the address is said).
    :param open_browser: open the pages in a web browser once the server listens.
    :param workers: worker processes for generations and searches.
    :param memory_mb: the address-space limit of each worker process (``None``: none).
    :param say: where the address is told; ``warn``: where the warning goes.
    :raises LacakError: the address cannot be listened on.
    """
    import uvicorn

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
    app = create_app(caps=caps, pool=pool, trusted_hosts=trusted)
    url = url_of(sock)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    say(f"lacak serve: {url} (API docs at {url}api/docs); Ctrl-C stops it")
    if open_browser:
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        pool.close()
        sock.close()


def _open_when_up(server: object, url: str) -> None:
    for _ in range(200):
        if getattr(server, "started", False):
            webbrowser.open(url)
            return
        time.sleep(0.05)
