"""Isolation for dictionary tests: a private cache and user folder, no LACAK_DICTIONARY_PATH."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the cache and user-data folders into ``tmp_path``, and load lacak's own
    plugins only: a dictionary a third-party plugin installed here registers (the example
    plugin's ``pets``) is not one of the folders and listings these tests pin."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LACAK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("LACAK_DICTIONARY_PATH", raising=False)
    monkeypatch.setenv("LACAK_LOAD_PLUGINS", "search,sliding,mazes,boggle,dictionaries")
    yield tmp_path
