"""Fixtures shared by the sliding-puzzle tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def ranked_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Databases looked up by rank only, as groups too big for sparse tables are (pdb-78)."""
    from lacak_sliding import pdb

    pdb.forget_memory()
    monkeypatch.setattr(pdb, "SPARSE_LIMIT", 0)
    try:
        yield
    finally:
        pdb.forget_memory()
