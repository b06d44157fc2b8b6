"""The code of an older git revision, for the benchmarks' ``--baseline REV``.

Shared by ``caches.py``, ``boggle_speed.py`` and ``revisions.py``: the
revision's tree is exported with ``git archive`` (no checkout is touched)
and put first on ``PYTHONPATH``, with a cache folder of its own.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export(revision: str, folder: Path) -> dict[str, str]:
    """The code of ``revision`` in ``folder`` (made if missing); the environment that runs it.

    :param revision: any git revision (``main``, ``f584954``).
    :param folder: where the tree goes; its ``cache`` subfolder is the revision's cache.
    :returns: ``os.environ`` with ``PYTHONPATH`` and ``LACAK_CACHE_DIR`` set for it.
    """
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    path = os.pathsep.join(str(folder / part) for part in ("core", "plugins"))
    return {**os.environ, "PYTHONPATH": path, "LACAK_CACHE_DIR": str(folder / "cache")}
