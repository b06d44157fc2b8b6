"""lacak's version, read once from the installed distribution's metadata.

Modules of the core that need it import it from here (``from .version import
__version__``), never from the package ``lacak`` itself, so that no module pulls the
whole package in for one string.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]


def _get_version() -> str:
    try:
        return version("lacak")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


__version__ = _get_version()
