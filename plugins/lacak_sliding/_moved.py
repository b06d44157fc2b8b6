"""The plugin's old module paths, for one release: the tiles and pattern-database modules
that moved into the sub-packages :mod:`lacak_sliding.tiles` and :mod:`lacak_sliding.pdb`.

An old path (``from lacak_sliding.tiles_idastar import idastar_tiles``, ``import
lacak_sliding.pdb_build``) still works until the next release, with a
:class:`DeprecationWarning` naming the new one. No file is left at the old path: the
finder of :func:`lacak.moved_modules` answers the old name with the module of the new one, so ``sys.modules``
holds one module object per file, under both names (the way :mod:`lacak` serves its
own old paths).

For example, ``from lacak_sliding.tiles_idastar import idastar_tiles`` warns
"lacak_sliding.tiles_idastar is deprecated: it moved to lacak_sliding.tiles.idastar (the
old path goes in the next release)", and ``idastar_tiles.__module__`` is
``'lacak_sliding.tiles.idastar'`` (``tests/sliding/test_moved.py``).
"""

from __future__ import annotations

import lacak

__all__ = ["MOVED", "install"]

#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    "lacak_sliding.tiles_astar": "lacak_sliding.tiles.astar",
    "lacak_sliding.tiles_bfs": "lacak_sliding.tiles.bfs",
    "lacak_sliding.tiles_encoding": "lacak_sliding.tiles.encoding",
    "lacak_sliding.tiles_idastar": "lacak_sliding.tiles.idastar",
    "lacak_sliding.tiles_engines": "lacak_sliding.tiles.idastar.engines",
    "lacak_sliding.tiles_compiled": "lacak_sliding.tiles.idastar.compiled",
    "lacak_sliding.tiles_split": "lacak_sliding.tiles.idastar.split",
    "lacak_sliding.pdb_build": "lacak_sliding.pdb.build",
    "lacak_sliding.pdb_cache": "lacak_sliding.pdb.cache",
    "lacak_sliding.pdb_cli": "lacak_sliding.pdb.cli",
    "lacak_sliding.pdb_compiled": "lacak_sliding.pdb.compiled",
    "lacak_sliding.pdb_engines": "lacak_sliding.pdb.engines",
}


def install() -> None:
    """Serve the old paths (:func:`lacak.moved_modules`, once)."""
    lacak.moved_modules(MOVED)
