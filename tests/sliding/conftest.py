"""Fixtures shared by the sliding-puzzle tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def ranked_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Databases looked up by rank only, as groups too big for sparse tables are (pdb-78)."""
    from lacak_sliding.pdb import lookup  # the limit is read where the tables are made

    lookup.forget_memory()
    monkeypatch.setattr(lookup, "SPARSE_LIMIT", 0)
    try:
        yield
    finally:
        lookup.forget_memory()
