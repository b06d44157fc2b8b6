"""Connections the server holds: a request's headers and body must arrive within their time
limits, and past a cap of connections held at once a new one is refused at once with 503,
so that half-sent requests by the hundred neither exhaust the server's file descriptors
nor stop it answering (``lacak.web.server.ConnectionLimits``).

The server runs here in a thread on a loopback socket, with limits of a second or two;
waits are generous (tens of seconds), so the tests hold on a loaded machine.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from lacak.web import server as web_server

from .conftest import make_app

#: Generous bound on anything that should take a second or two here.
WAIT = 30.0


class Running:
    """uvicorn serving the application on a loopback port, in a thread."""

    def __init__(self, limits: web_server.ConnectionLimits) -> None:
        self.sock = web_server.listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        config = web_server.uvicorn_config(make_app(), limits=limits)
        self.server = web_server.uvicorn.Server(config)
        self.thread = threading.Thread(
            target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])), daemon=True
        )
        self.thread.start()
        until = time.monotonic() + WAIT
        while not self.server.started and time.monotonic() < until:
            time.sleep(0.02)
        assert self.server.started

    def url(self, path: str = "api/server") -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=WAIT)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)
        self.sock.close()


@pytest.fixture
def running() -> Iterator[Running]:
    limits = web_server.ConnectionLimits(header_seconds=1.0, body_seconds=1.5, max_connections=20)
    served = Running(limits)
    try:
        yield served
    finally:
        served.stop()


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (within :data:`WAIT`)."""
    chunks = []
    sock.settimeout(WAIT)
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_request_whose_headers_never_end_is_closed_with_408(running: Running) -> None:
    """A half-sent request was held for good (about 20,000 of them exhausted the server's
    file descriptors and nothing was answered until they closed)."""
    with running.connect() as sock:
        sock.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nAcc")
        started = time.monotonic()
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "RequestTimeout"
    assert time.monotonic() - started < WAIT


def test_headers_sent_a_byte_at_a_time_do_not_hold_the_connection(running: Running) -> None:
    """Each byte used to restart the idle timer: the headers' time limit counts from the
    start."""
    request = b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with running.connect() as sock:
        started = time.monotonic()
        closed = False
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - started > WAIT:
                break
        answer = b"" if closed else _read_all(sock)
    assert closed or answer.startswith(b"HTTP/1.1 408 "), answer
    assert time.monotonic() - started < WAIT


def test_a_body_that_never_ends_is_closed(running: Running) -> None:
    with running.connect() as sock:
        sock.sendall(
            b"POST /api/kinds/sliding/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"puzzle\": "
        )
        started = time.monotonic()
        answer = _read_all(sock)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer
    assert time.monotonic() - started < WAIT
    assert httpx.get(running.url(), timeout=WAIT).status_code == 200  # and it goes on


def test_past_the_cap_a_connection_is_refused_at_once_and_the_server_still_answers() -> None:
    # (headers given 5 s here, so that the held requests are not closed before the extra
    # connection is made, on a loaded machine)
    limits = web_server.ConnectionLimits(header_seconds=5.0, body_seconds=5.0, max_connections=20)
    running = Running(limits)
    held = [running.connect() for _ in range(20)]
    try:
        for sock in held:
            sock.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0")
        until = time.monotonic() + WAIT
        while len(running.server.server_state.connections) < 20 and time.monotonic() < until:
            time.sleep(0.02)  # (until the server has taken them all)
        with running.connect() as extra:
            answer = _read_all(extra)
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        assert b"retry-after: 1" in answer.lower()
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "Busy"
        # the half-sent requests are closed at their time limit; then it answers again
        until = time.monotonic() + WAIT
        status = None
        while time.monotonic() < until:
            status = httpx.get(running.url(), timeout=WAIT).status_code
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200
    finally:
        for sock in held:
            sock.close()
        running.stop()


def test_a_kept_alive_client_is_served_request_after_request(running: Running) -> None:
    with httpx.Client(timeout=WAIT) as client:
        for _ in range(5):
            assert client.get(running.url()).status_code == 200
            time.sleep(0.3)  # (less than the headers' limit between requests)
        posted = client.post(
            running.url("api/kinds/sliding/solve"), json={"puzzle": "123450786"}
        )
        assert posted.status_code == 200 and posted.json()["result"]["found"] is True


def test_the_default_cap_keeps_file_descriptors_for_the_rest() -> None:
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    cap = web_server.ConnectionLimits().connection_cap()
    assert 1 <= cap <= max(1, soft // 2) and cap <= web_server.MAX_CONNECTIONS


def _limits(**fields: Any) -> web_server.ConnectionLimits:
    return web_server.ConnectionLimits(**fields)


@pytest.mark.parametrize(
    "fields",
    [{"header_seconds": 0}, {"body_seconds": -1}, {"max_connections": 0},
     {"header_seconds": float("nan")}],
)  # fmt: skip
def test_limits_that_allow_nothing_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        _limits(**fields)
