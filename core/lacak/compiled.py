"""Optional compiled engines: numba missing or failing, the first compile, and its marker.

A plugin may write a hot loop a second time as numba machine code (the
optional extra ``lacak[fast]``) and keep its pure-Python engine for when numba
is absent. What every such engine needs is the same, and lives here once:

- loading the kernel module only when it is used, and treating numba missing
  or failing (an incompatible numpy, ...) as "not here", with the reason kept;
- compiling on first use on a machine, announced through :mod:`lacak.progress`
  (the command line shows it on a terminal) and done once: numba caches the
  machine code on disk (``@numba.njit(cache=True)``), and lacak remembers in
  its cache folder (``engines`` of :func:`lacak.paths.cache_dir`) that it
  compiled the module here, with the names of numba's cache files;
- :meth:`CompiledEngine.ready`: whether that compile has happened (so that a
  plugin can decide whether paying it is worth it), cheap and without
  importing numba.

The kernel module must define ``warm()``, which calls every kernel once
(compiling it, or loading it from numba's cache). Its kernels are found as
the module's numba dispatchers.

Example::

    ENGINE = lacak.compiled.CompiledEngine(
        name="sliding-tiles", module="lacak_sliding.tiles_compiled",
        title="the sliding-tiles engine", seconds="about 10 s",
    )
    kernel = ENGINE.load()  # None without numba
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import platform
import sys
from pathlib import Path
from types import ModuleType

import attrs

from . import cache, progress
from .errors import InvalidOptionError

__all__ = ["CompiledEngine", "engine_named", "numba_installed"]

_MARKER = cache.CacheFormat(
    tag="lacak-compiled-engine", version=1, what="a compiled engine's compile marker"
)


@functools.lru_cache(maxsize=1)
def numba_installed() -> bool:
    """Whether numba can be found (``pip install 'lacak[fast]'``), without importing it."""
    return importlib.util.find_spec("numba") is not None


def engine_named(variable: str, engines: tuple[str, ...], what: str) -> str | None:
    """The engine the environment variable ``variable`` names, or ``None`` when it is
    unset or ``auto`` (how ``LACAK_BOGGLE_ENGINE`` and ``LACAK_TILES_ENGINE`` are read).

    :param variable: the environment variable.
    :param engines: the names it may hold (``auto`` among them).
    :param what: what the engines run, for the message (``"Boggle"``).
    :raises InvalidOptionError: it names no engine.
    """
    value = os.environ.get(variable, "").strip().lower()
    if not value or value == "auto":
        return None
    if value not in engines:
        raise InvalidOptionError(
            f"{variable}={value!r} names no {what} engine; choose one of {', '.join(engines)}"
        )
    return value


@attrs.define(eq=False)
class CompiledEngine:
    """One optional compiled engine: its kernel module and its first compile.

    :param name: a short name for the marker file (``"sliding-tiles"``).
    :param module: the kernel module's import name; it imports numba and
        defines ``warm()``.
    :param title: the engine in messages (``"the sliding-tiles engine"``).
    :param seconds: how long the first compile takes, as said while it runs.
    """

    name: str
    module: str
    title: str
    seconds: str = "about 10 s"
    _failure: list[str] = attrs.field(factory=list, init=False, repr=False)
    _loaded: list[ModuleType] = attrs.field(factory=list, init=False, repr=False)

    def available(self) -> bool:
        """Whether the engine may run here: numba is installed and did not fail to load
        in this process."""
        return numba_installed() and not self._failure

    def loaded(self) -> bool:
        """Whether this process has loaded the engine already (using it costs nothing more)."""
        return bool(self._loaded)

    def failure(self) -> str | None:
        """Why the engine cannot run here (``None`` when it can, as far as is known)."""
        if self._failure:
            return self._failure[0]
        return None if numba_installed() else "numba is not installed"

    def load(self) -> ModuleType | None:
        """The kernel module with its machine code ready, or ``None`` when it cannot be
        loaded (numba missing or failing; the reason is kept, see :meth:`failure`).

        The first use on a machine compiles the kernels, announced through
        :func:`lacak.progress.announce` and shown as a :func:`lacak.progress.task`.
        """
        if self._loaded:
            return self._loaded[0]
        if not self.available():
            return None
        try:
            module = importlib.import_module(self.module)
            if self.ready():
                module.warm()  # loads numba's cached machine code
            else:
                progress.announce(
                    f"compiling {self.title} once for this machine (numba; {self.seconds})"
                )
                with progress.task(f"compiling {self.title}"):
                    module.warm()
                self._remember(module)
        except Exception as error:  # numba is a third party: any failure means "not here"
            self._failure.append(f"{type(error).__name__}: {error}")
            return None
        self._loaded.append(module)
        return module

    def require(self, asked: str = "") -> ModuleType:
        """:meth:`load`, for a caller that asked for the compiled engine.

        :param asked: who asked, when not the caller (``"LACAK_TILES_ENGINE=numba"``).
        :raises InvalidOptionError: the engine cannot run here, saying why.
        """
        module = self.load()
        if module is None:
            who = f"{asked} asks for {self.title}, which" if asked else f"{self.title}"
            raise InvalidOptionError(
                f"{who} cannot run ({self.failure()}); pip install 'lacak[fast]', "
                "or choose the Python engine"
            )
        return module

    def ready(self) -> bool:
        """Whether the machine code is ready on this machine: numba is installed, lacak
        compiled the module here before (a marker in its cache folder) and numba's cache
        files the marker names are still there. Loading then costs about 0.5 s."""
        if not self.available():
            return False
        try:
            marker = self._marker()
        except Exception:  # numba's metadata missing or odd: not ready
            return False
        files = cache.load(marker, _MARKER, marker.stem if marker else None,
                           lambda artefact: list(artefact.meta["files"]))  # fmt: skip
        return bool(files) and all(Path(name).is_file() for name in files or ())

    def _key(self) -> str:
        """A digest of what the machine code depends on: the module's source, the versions
        of numba, numpy and Python, and this machine."""
        from importlib import metadata

        spec = importlib.util.find_spec(self.module)
        if spec is None or spec.origin is None:
            raise ImportError(f"no module {self.module}")
        parts = [
            hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest(),
            metadata.version("numba"),
            metadata.version("numpy"),
            sys.version,
            platform.machine(),
            platform.node(),
            os.environ.get("NUMBA_CACHE_DIR", ""),
        ]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]

    def _marker(self) -> Path | None:
        folder = cache.folder("engines")
        return None if folder is None else folder / f"{self.name}-{self._key()}.bin"

    def _remember(self, module: ModuleType) -> None:
        """Write the marker naming numba's cache files for the module's kernels (when
        numba says where they are; otherwise :meth:`ready` stays false, which costs
        only a short check of numba's own cache on the next first use)."""
        stem = Path(module.__file__ or "").stem
        files: list[str] = []
        try:
            for attribute, value in vars(module).items():
                where = getattr(getattr(value, "_cache", None), "cache_path", None)
                if where is not None:
                    files += map(str, Path(where).glob(f"{stem}.{attribute}-*.nbi"))
            marker = self._marker()
        except Exception:  # a numba without those attributes: nothing to remember
            return
        if files and marker is not None:
            cache.save(marker, _MARKER, marker.stem, [b""], meta={"files": sorted(files)})
