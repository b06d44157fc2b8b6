"""A real ``lacak serve`` process: how it stops (Ctrl-C, SIGTERM, SIGKILL) and what is left of
it, the URL it prints reached with the host a browser sends, and half-sent requests held
open by the hundred.

Each test starts the command in a session of its own (as a terminal's foreground job is a
process group of its own) and reads the process table from ``/proc``: Linux only. Time
bounds are generous (seconds where the promise is "at once"), so the tests hold on a loaded
machine.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads the process table from /proc"
)

#: How long a server may take to start (plugins loaded, both workers up) on a loaded machine.
START = 300.0


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, parent)`` of a process, or ``None`` when it is gone (a zombie counts as gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (None if fields[0] in ("Z", "X") else (fields[0], int(fields[1])))  # type: ignore[return-value]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] == pid:
                found.append(int(entry.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class Served:
    """A ``lacak serve`` subprocess: its URL, its stderr lines so far, its worker processes."""

    def __init__(
        self,
        *args: str,
        workers: int = 2,
        env: dict[str, str] | None = None,
        limits: Any = None,
        started: bool = True,
    ) -> None:
        command = [sys.executable, "-m", "lacak", "serve", "--port", "0",
                   "--workers", str(workers), *args]  # fmt: skip
        self.count = workers
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**os.environ, "LACAK_PROGRESS": "0", **(env or {})},
            preexec_fn=limits,
        )
        self.lines: list[str] = []
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self.url = self._wait_for_url()
        self.workers = self._wait_for_workers() if started else []

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))

    def _wait_for_url(self) -> str:
        until = time.monotonic() + START
        while time.monotonic() < until:
            for line in self.lines:
                match = re.match(r"lacak serve: (http://\S+/) ", line)
                if match:
                    return match.group(1)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"lacak serve did not say where it listens: {self.lines}")

    def _wait_for_workers(self) -> list[int]:
        until = time.monotonic() + START
        while time.monotonic() < until:
            workers = [p for p in _children(self.process.pid) if "spawn_main" in _cmdline(p)]
            if len(workers) >= self.count and self.get("api/server").status_code == 200:
                return workers
            time.sleep(0.1)
        self.kill()
        raise AssertionError("the workers did not start")

    def get(self, path: str, **options: Any) -> httpx.Response:
        return httpx.get(self.url + path, timeout=60, **options)

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=60)

    def signal_group(self, number: int) -> None:
        """Send ``number`` to the whole process group, as a terminal does for Ctrl-C."""
        os.killpg(self.process.pid, number)

    def wait(self, timeout: float = 60.0) -> int:
        code = self.process.wait(timeout)
        self._reader.join(10)
        return code

    def kill(self) -> None:
        with _suppress():
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError)


def _gone(pids: list[int], within: float) -> list[int]:
    """The processes of ``pids`` still alive after waiting up to ``within`` seconds."""
    until = time.monotonic() + within
    alive = list(pids)
    while alive and time.monotonic() < until:
        alive = [pid for pid in alive if _stat(pid) is not None]
        time.sleep(0.05)
    return alive


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(env={"LACAK_CACHE_DIR": str(tmp_path / "cache")})
    try:
        yield server
    finally:
        server.kill()


def _busy(server: Served) -> threading.Thread:
    """A search that keeps a worker busy for seconds (the 15-puzzle, breadth-first)."""
    body = {"puzzle": "15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 1 2 0", "strategy": "bfs",
            "limits": {"seconds": 20}}  # fmt: skip

    def run() -> None:
        with _suppress_http():
            server.post("api/kinds/sliding/solve", body)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(1.0)
    return thread


class _suppress_http:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return exc[0] is not None and issubclass(exc[0], httpx.HTTPError)


def test_ctrl_c_stops_the_server_in_one_line_with_status_130(served: Served) -> None:
    """Ctrl-C left a worker running and printed 38 lines of tracebacks (a terminal sends
    SIGINT to the whole foreground group, the workers included)."""
    _busy(served)
    served.signal_group(signal.SIGINT)
    assert served.wait() == 130
    assert _gone(served.workers, within=10.0) == []
    after = [line for line in served.lines[1:] if line.strip()]
    assert len(after) == 1 and "stopped" in after[0], served.lines
    assert not any("Traceback" in line or "KeyboardInterrupt" in line for line in served.lines)


def test_sigterm_stops_the_server_in_one_line_with_status_0(served: Served) -> None:
    """SIGTERM left the workers behind for seconds, with a 'leaked semaphore objects'
    warning."""
    _busy(served)
    served.process.send_signal(signal.SIGTERM)
    assert served.wait() == 0
    assert _gone(served.workers, within=10.0) == []
    after = [line for line in served.lines[1:] if line.strip()]
    assert len(after) == 1 and "stopped" in after[0], served.lines
    assert not any("leaked" in line or "Traceback" in line for line in served.lines)


def test_the_workers_of_a_killed_server_end_with_it(served: Served) -> None:
    """SIGKILL gives the server no chance to stop its workers: they end by themselves."""
    _busy(served)
    os.kill(served.process.pid, signal.SIGKILL)
    served.wait()
    assert _gone(served.workers, within=10.0) == []


def test_workers_still_starting_when_the_server_is_killed_end_too(tmp_path: Path) -> None:
    """A worker that started as its server was killed watched the wrong parent (the one
    it had been given to by then) and lived on."""
    server = Served(env={"LACAK_CACHE_DIR": str(tmp_path / "cache")}, started=False)
    try:
        until = time.monotonic() + START
        workers: list[int] = []
        while not workers and time.monotonic() < until:
            workers = [p for p in _children(server.process.pid) if "spawn_main" in _cmdline(p)]
            time.sleep(0.01)
        assert workers, "no worker was started"
        os.kill(server.process.pid, signal.SIGKILL)  # while the workers load lacak
        server.wait()
        assert _gone(workers, within=60.0) == []
    finally:
        server.kill()


def test_the_url_it_prints_for_the_ipv6_loopback_is_served(tmp_path: Path) -> None:
    """``lacak serve --host ::1`` refused ``Host: [::1]:PORT``, which a browser sends to the
    URL it prints."""
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        pytest.skip("no IPv6 loopback here")
    server = Served("--host", "::1", workers=1, env={"LACAK_CACHE_DIR": str(tmp_path / "cache")})
    try:
        assert server.url.startswith("http://[::1]:")
        assert server.get("api/server").status_code == 200  # Host: [::1]:PORT
        assert server.get("", headers={"host": "rebound.example"}).status_code == 400
    finally:
        server.kill()


def _file_limit(limit: int) -> Any:
    def set_limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return set_limit


def test_hundreds_of_half_sent_requests_neither_exhaust_nor_silence_the_server(
    tmp_path: Path,
) -> None:
    """About 20,000 half-sent requests from loopback exhausted the server's file
    descriptors, and nothing was answered until they closed: here 300 against a server
    allowed 256 descriptors."""
    server = Served(
        workers=1, env={"LACAK_CACHE_DIR": str(tmp_path / "cache")}, limits=_file_limit(256)
    )
    host, port = re.match(r"http://([^:/]+):(\d+)/", server.url).groups()  # type: ignore[union-attr]
    held: list[socket.socket] = []
    try:
        for _ in range(300):
            sock = socket.create_connection((host, int(port)), timeout=60)
            sock.sendall(b"POST /api/kinds/sliding/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
            held.append(sock)
        assert _open_fds(server.process.pid) < 256
        answered = None
        until = time.monotonic() + 90
        while answered is None and time.monotonic() < until:
            with _suppress_http():
                response = httpx.get(server.url + "api/server", timeout=10)
                assert response.status_code in (200, 503), response.text
                if response.status_code == 200:
                    answered = response
            time.sleep(0.5)
            assert _open_fds(server.process.pid) < 256
        assert answered is not None, "no answer while half-sent requests were held"
        # every half-sent request was answered (503 at once past the cap, 408 at its time
        # limit) and closed by the server
        for sock in held:
            sock.settimeout(60)
            first = sock.recv(64)
            assert first.startswith((b"HTTP/1.1 503 ", b"HTTP/1.1 408 ")), first
    finally:
        for sock in held:
            sock.close()
        server.kill()
