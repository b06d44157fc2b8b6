"""The old import paths of the modules that moved into :mod:`lacak_mazes.generators`.

The generators' modules were at the root of the package until lacak 0.2. An
old path (``import lacak_mazes.wilson``, ``from lacak_mazes.huntkill import
hunt_and_kill``) still works until the next release, with a
:class:`DeprecationWarning` naming the new one, and leaves no file behind: the
finder of :func:`lacak.moved_modules` answers the old name with the module of the new one, so each file
is one module object under both names (the same classes, the same pickles).

For example, ``from lacak_mazes.kruskal import kruskal`` warns "lacak_mazes.kruskal is
deprecated: it moved to lacak_mazes.generators.kruskal (the old path goes in the next
release)", and ``kruskal.__module__`` is ``'lacak_mazes.generators.kruskal'``
(``tests/mazes/test_moved.py``).
"""

from __future__ import annotations

import lacak

__all__ = ["MOVED", "install"]

#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    f"lacak_mazes.{name}": f"lacak_mazes.generators.{name}"
    for name in (
        "aldous_broder",
        "backtracker",
        "division",
        "eller",
        "growing_tree",
        "huntkill",
        "kruskal",
        "prim",
        "simple",
        "wilson",
        "_grid",
        "_walk",
    )
}


def install() -> None:
    """Serve the old paths (:func:`lacak.moved_modules`, once)."""
    lacak.moved_modules(MOVED)
