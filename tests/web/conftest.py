"""Fixtures of the web tests: the application with its work in threads and small caps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (pip install 'lacak[web]') is not installed")

from fastapi.testclient import TestClient
from lacak.web import create_app
from lacak.web.pool import Pool
from lacak.web.work import Caps

#: Caps that keep every request of the tests short.
SMALL = Caps(max_seconds=3.0, default_seconds=1.0, max_nodes=200_000, max_cells=2_500,
             max_trace=2_000, max_frontier=200_000)  # fmt: skip


def make_app(**options: Any) -> Any:
    """The application, its work in two threads (the default registry), small caps."""
    options.setdefault("caps", SMALL)
    options.setdefault("pool", Pool(2, processes=False))
    return create_app(**options)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as test_client:
        yield test_client
