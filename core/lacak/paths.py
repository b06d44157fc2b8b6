"""Where lacak keeps user data (drop-in dictionaries) and caches (pattern databases).

``LACAK_DATA_DIR`` and ``LACAK_CACHE_DIR`` override the platform folders
chosen by :mod:`platformdirs`.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir", "user_data_dir"]


def user_data_dir() -> Path:
    """The folder for the user's own lacak data (not created)."""
    override = os.environ.get("LACAK_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("lacak", appauthor=False))


def cache_dir(*parts: str) -> Path:
    """A cache folder (``cache_dir("pdb")``), created if missing."""
    override = os.environ.get("LACAK_CACHE_DIR")
    if override:
        base = Path(override)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("lacak", appauthor=False))
    path = base.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
