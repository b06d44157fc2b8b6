"""What lacak keeps on disk: where its files are, its verified cache files, compiled engines.

- :mod:`lacak.store.paths`: the folders (``LACAK_CACHE_DIR``, the user's data folder) and
  bounded, regular-file-only reads of the files people hand lacak;
- :mod:`lacak.store.cache`: cache files that are checked on every load and written
  atomically (a damaged one is rebuilt, never used);
- :mod:`lacak.store.compiled`: numba's machine code kept in that cache, and the engines
  (``numba``/``numpy``/``python``) a compiled search chooses between.

The store sits on the kernel's leaves (errors, limits, progress) only, so the kernel's
:class:`~lacak.Dictionary` can read and cache its files through it.
"""

from __future__ import annotations

from . import cache, compiled, paths

__all__ = ["cache", "compiled", "paths"]
