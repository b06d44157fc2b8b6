"""Where lacak keeps user data (drop-in dictionaries) and caches (see :mod:`lacak.cache`).

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


def _cache_path(*parts: str) -> Path:
    """The cache folder's path (not created)."""
    override = os.environ.get("LACAK_CACHE_DIR")
    if override:
        base = Path(override)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("lacak", appauthor=False))
    return base.joinpath(*parts)


def cache_dir(*parts: str) -> Path:
    """A cache folder (``cache_dir("pdb")``), created if missing.

    Files in it are read and written through :mod:`lacak.cache`.

    :raises CacheError: the folder cannot be created (the message names it and
        says to set ``LACAK_CACHE_DIR`` to a writable folder).
    """
    path = _cache_path(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        from .cache import _failure
        from .errors import CacheError

        problem, todo = _failure("create the cache folder", path, error)
        raise CacheError(f"{problem}; {todo}") from None
    return path
