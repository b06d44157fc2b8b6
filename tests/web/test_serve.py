"""``lacak serve``: the command, its warnings, and what it says without the web extra."""

from __future__ import annotations

import socket
from typing import Any

import lacak.web
import lacak.web.server as server
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli


def test_without_the_web_extra_serve_says_what_to_install_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lacak.web, "missing", lambda: ["fastapi", "uvicorn"])
    result = CliRunner().invoke(make_cli(), ["serve", "--port", "0"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "pip install 'lacak[web]'" in lines[0]
    assert "fastapi, uvicorn missing" in lines[0]


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True),
     ("localhost", True), ("0.0.0.0", False), ("::", False), ("192.168.1.5", False),
     ("example.org", False)],
)  # fmt: skip
def test_which_hosts_are_this_machine_only(host: str, loopback: bool) -> None:
    assert server.is_loopback(host) is loopback


def _fake_run(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Serve without serving: the socket is a loopback one, uvicorn returns at once."""
    import uvicorn

    seen: dict[str, Any] = {}
    real_listen = server.listen

    def listen(host: str, port: int) -> socket.socket:
        seen["host"] = host
        return real_listen("127.0.0.1", 0)

    def run(self: Any, sockets: Any = None) -> None:
        seen["app"] = self.config.app
        seen["sockets"] = sockets

    monkeypatch.setattr(server, "listen", listen)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    return seen


def test_binding_wider_than_loopback_is_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _fake_run(monkeypatch)
    said: list[str] = []
    server.serve("0.0.0.0", 0, workers=1, say=said.append, warn=said.append)
    assert seen["host"] == "0.0.0.0"
    assert said[0].startswith("warning: listening on 0.0.0.0") and "127.0.0.1" in said[0]
    assert said[1].startswith("lacak serve: http://127.0.0.1:")


def test_loopback_is_the_default_and_accepts_only_loopback_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lacak.web.app import _HostCheck

    seen = _fake_run(monkeypatch)
    result = CliRunner().invoke(make_cli(), ["serve", "--port", "0", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert seen["host"] == "127.0.0.1"
    assert "warning" not in result.output and "lacak serve: http://127.0.0.1:" in result.output
    middleware = [m for m in seen["app"].user_middleware if m.cls is _HostCheck]
    assert middleware and "localhost" in middleware[0].kwargs["allowed"]


def test_a_port_in_use_is_one_clear_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(make_cli(), ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    assert len(result.output.strip().splitlines()) == 1


def test_connections_are_accepted_without_nagle_delays() -> None:
    """Answers on a kept-alive connection waited 40 ms each for a delayed ACK."""
    with server.listen("127.0.0.1", 0) as sock:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


@pytest.mark.parametrize(
    "base", ["http://[::1]:8123", "http://[::1]", "http://[0:0:0:0:0:0:0:1]:80",
             "http://localhost:8000", "http://LOCALHOST.:8000", "http://127.0.0.1:9"],
)  # fmt: skip
def test_the_host_a_browser_sends_to_a_loopback_address_is_accepted(base: str) -> None:
    """``lacak serve --host ::1`` refused ``Host: [::1]:PORT``, what a browser sends to the
    URL it prints."""
    from fastapi.testclient import TestClient

    from .conftest import make_app

    with TestClient(make_app(trusted_hosts=list(server.LOOPBACK_NAMES)), base_url=base) as local:
        assert local.get("/api/server").status_code == 200


@pytest.mark.parametrize(
    "host", ["rebound.example", "rebound.example:8000", "[::2]:80", "127.0.0.1.example",
             "[::1", "[::1]x", "::1", ""],
)  # fmt: skip
def test_other_hosts_are_refused_in_the_api_s_error_shape(host: str) -> None:
    from fastapi.testclient import TestClient

    from .conftest import make_app

    with TestClient(make_app(trusted_hosts=list(server.LOOPBACK_NAMES))) as local:
        response = local.get("/api/server", headers={"host": host})
    assert response.status_code == 400
    assert response.json()["error"] == "InvalidHost"
