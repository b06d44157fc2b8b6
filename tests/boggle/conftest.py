"""Fixtures for the Boggle tests: a private cache folder, test dictionaries, a CLI runner."""

from __future__ import annotations

from collections.abc import Iterator

import lacak
import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compiled word graphs go to a temporary folder, not the user's cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.mktemp("lacak-cache")))
    yield
    mp.undo()


TINY_WORDS = ["ACT", "AT", "CAT", "COAT", "QUA", "QUAT", "TA", "TACO", "TAX", "TAXI", "THE", "HAT"]


@pytest.fixture(scope="session")
def tiny() -> lacak.Dictionary:
    """A small English-like dictionary with the whole A-Z alphabet."""
    return lacak.Dictionary(
        name="tiny", language="en", words=TINY_WORDS, alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    )


def timeless(data: dict, *, engine: bool = False) -> dict:
    """A result's JSON without what the clock says (``stats.seconds``), and with
    ``engine=True`` without ``strategy`` too (``boggle-numpy``, ``boggle``...: the
    engine's name), for comparing results of different runs or engines."""
    data = {**data, "stats": {k: v for k, v in data["stats"].items() if k != "seconds"}}
    if engine:
        data.pop("strategy")
    return data
