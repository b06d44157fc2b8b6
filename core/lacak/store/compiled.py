"""Optional compiled engines: numba missing or failing, the first compile, its marker,
and machine code kept where lacak can check it.

A plugin may write a hot loop a second time as numba machine code (the
optional extra ``lacak[fast]``) and keep its pure-Python engine for when numba
is absent. What every such engine needs is the same, and lives here once:

- loading the kernel module only when it is used, and treating numba missing
  or failing (an incompatible numpy, ...) as "not here", with the reason kept;
- compiling on first use on a machine, announced through :mod:`lacak.progress`
  (the command line shows it on a terminal) and done once: the machine code
  is kept on disk (see below), and lacak remembers in its cache folder
  (``engines`` of :func:`lacak.store.paths.cache_dir`) that it compiled the module
  here, with the names of the files that hold it;
- :meth:`CompiledEngine.ready`: whether that compile has happened (so that a
  plugin can decide whether paying it is worth it), cheap and without
  importing numba; :meth:`CompiledEngine.load` with ``compile=False`` loads
  what is ready and never compiles, and :meth:`CompiledEngine.require_by`
  does not start a first compile that a deadline cannot cover.

The kernel module must define ``warm()``, which calls every kernel once
(compiling it, or loading it from the cache). Its kernels are found as the
module's numba dispatchers.

Machine code on disk
    numba's own cache (``@numba.njit(cache=True)``) keeps machine code in
    ``__pycache__`` next to the module, or in a user folder when that is
    read-only (a wheel in a system site-packages), and loads what it finds
    there unchecked: one flipped bit in it crashed the interpreter (a
    segmentation fault, an illegal instruction) or raised a raw ``LLVM
    bitcode parsing error``. lacak's kernels are compiled without numba's
    cache, and :func:`cache_kernels` gives each of a kernel module's
    dispatchers a cache of lacak's own: one verified cache file
    (:mod:`lacak.store.cache`: a checksum over all of it, atomic writes) per kernel,
    argument types and machine, in ``engines/<module>/`` of the cache folder,
    whatever ``NUMBA_CACHE_DIR`` says and wherever the module is installed.
    numba sees no byte lacak did not check: a damaged, truncated or foreign
    file, or a FIFO in its place, is reported once as a
    :class:`~lacak.CacheWarning`, removed, and compiled again (or, when the
    caller only loads, left to a later compile while the run goes on
    without the engine). A file's name holds a digest of what its code
    depends on: the module's source (its bytes, not its path or time: an
    install elsewhere reuses it) and the sources of the modules whose kernels
    it imports (compiled into its own), the kernel's bytecode, the argument types,
    the versions of numba and Python, and the machine (LLVM's target triple,
    CPU name and features). Checking costs what the checksum does, about
    microseconds for the few hundred kilobytes of a kernel.

Example::

    ENGINE = lacak.store.compiled.CompiledEngine(
        name="sliding-tiles", module="lacak_sliding.tiles_compiled",
        title="the sliding-tiles engine", seconds="about 10 s",
    )
    kernel = ENGINE.load()  # None without numba

and at the end of the kernel module, whose kernels are ``@numba.njit`` without
``cache=True``::

    lacak.store.compiled.cache_kernels(globals())
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import os
import pickle
import platform
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from .. import limits, progress
from ..errors import InvalidOptionError
from . import cache
from .paths import _cache_path

__all__ = [
    "CompileWarning",
    "CompiledEngine",
    "cache_kernels",
    "engine_named",
    "numba_installed",
]

_MARKER = cache.CacheFormat(
    tag="lacak-compiled-engine", version=1, what="a compiled engine's compile marker"
)
#: One kernel's machine code for one list of argument types on one machine.
_MACHINE_CODE = cache.CacheFormat(tag="lacak-numba-code", version=1, what="machine code")


class CompileWarning(cache.CacheWarning):
    """A compiled engine that a run goes without: its machine code is not in lacak's
    cache, and compiling it might not end before the run's deadline
    (:meth:`CompiledEngine.require_by`). Given once per process and engine."""


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


# -- machine code in lacak's cache -----------------------------------------------------------

#: ``loading``: a load that must not compile (:meth:`CompiledEngine._warm`), and whether
#: what it finds missing or bad is compiled right after (``rebuild``: the warning's words).
_state = threading.local()


class _Missing(Exception):
    """Machine code that is not in lacak's cache (or was bad), met while only loading."""


@contextlib.contextmanager
def _only_loading(rebuild: bool) -> Iterator[None]:
    before = getattr(_state, "loading", False), getattr(_state, "rebuild", True)
    _state.loading, _state.rebuild = True, rebuild
    try:
        yield
    finally:
        _state.loading, _state.rebuild = before


def cache_kernels(namespace: Mapping[str, Any]) -> None:
    """Keep the machine code of the numba kernels of a module in lacak's cache folder,
    checked before numba loads any of it (see the module documentation).

    Call it at the end of a kernel module, with ``globals()``; its kernels are
    ``@numba.njit`` without ``cache=True``. :meth:`CompiledEngine.load` also calls it
    for the module it loads. Dispatchers imported from another module are left to
    that module's own call; calling it twice changes nothing.

    The files are keyed by the module's source and by the sources of the modules
    whose kernels it imports: a kernel it calls or inlines is compiled into its
    machine code, so a change there must not load the old code (numba's own cache
    keys only the calling module's file).

    :param namespace: the module's globals (``__name__`` and ``__file__`` among them).
    """
    from numba.core.dispatcher import Dispatcher  # the kernel module imported numba

    module = namespace["__name__"]
    imported: set[str] = set()
    spaces = [namespace]
    while spaces:  # (and the modules those import kernels from, and so on)
        for value in list(spaces.pop().values()):
            name = getattr(getattr(value, "py_func", None), "__module__", module)
            if isinstance(value, Dispatcher) and name != module and name not in imported:
                imported.add(name)
                spaces.append(vars(sys.modules[name]) if name in sys.modules else {})
    files = [namespace.get("__file__")]
    files += [getattr(sys.modules.get(name), "__file__", None) for name in sorted(imported)]
    source = _source_digest(files)
    for value in list(namespace.values()):
        if (
            isinstance(value, Dispatcher)
            and getattr(value.py_func, "__module__", None) == module
            and not isinstance(getattr(value, "_cache", None), _KernelCache)
        ):
            value._cache = _KernelCache(value.py_func, module, source)  # type: ignore[attr-defined]


def _source_digest(files: list[str | None]) -> str | None:
    """A digest of the source bytes of a module and of those it imports kernels from
    (``None`` when one of them has no file to read: nothing is then kept)."""
    digests = []
    for file in files:
        if not file:
            return None
        try:
            digests.append(hashlib.sha256(Path(file).read_bytes()).hexdigest())
        except OSError:
            return None
    if len(digests) == 1:  # (a module alone: the key it always had)
        return digests[0]
    return hashlib.sha256("\0".join(digests).encode()).hexdigest()


class _KernelCache:
    """numba's cache interface (``load_overload``, ``save_overload``, ...) for one
    kernel, kept as verified lacak cache files (see the module documentation)."""

    def __init__(self, py_func: Any, module: str, source: str | None) -> None:
        self._py_func = py_func
        self._module = module
        self._source = source
        self._name = py_func.__qualname__.replace("<", "").replace(">", "")
        self._enabled = True
        #: The files' payloads of the machine code loaded, by key: numba cannot serialise
        #: a kernel it loaded again, and :meth:`CompiledEngine.load` may keep it in
        #: another cache folder.
        self._payloads: dict[str, bytes] = {}

    def __repr__(self) -> str:
        return f"<lacak machine-code cache of {self._module}.{self._name}>"

    @property
    def cache_path(self) -> str:
        return str(_cache_path("engines", self._module))

    def enable(self) -> None:
        self._enabled = True

    def disable(self) -> None:
        self._enabled = False

    def flush(self) -> None:
        """Nothing to forget: every file is found by its key."""

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The compiled kernel for ``sig`` from the cache, or ``None`` (numba compiles it);
        while only loading, a miss raises :class:`_Missing` instead."""
        target_context.refresh()
        loading = getattr(_state, "loading", False)
        rebuild = not loading or getattr(_state, "rebuild", True)
        found = None
        where = self._where(sig, target_context.codegen()) if self._enabled else None
        if where is not None:
            from numba.core.compiler import CompileResult  # (deferred: numba, [fast])

            path, key = where

            def rebuilt(artefact: cache.Artefact) -> Any:
                result = CompileResult._rebuild(target_context, *pickle.loads(artefact.payload))
                self._payloads[key] = bytes(artefact.payload)
                return result

            found = cache.load(path, _MACHINE_CODE, key, rebuilt, rebuild=rebuild,
                               what=f"the machine code of {self._module}.{self._name}",
                               discard=True)  # fmt: skip
        if found is None and loading:
            raise _Missing(f"no machine code of {self._module}.{self._name} for {sig}")
        return found

    def save_overload(self, sig: Any, cres: Any) -> None:
        """Keep the kernel numba just compiled for ``sig`` (when numba can keep it)."""
        if not self._enabled or any(not lifted.can_cache for lifted in cres.lifted):
            return
        if cres.library.has_dynamic_globals:  # (ctypes pointers and the like)
            return
        where = self._where(sig, cres.codegen)
        if where is None:
            return
        from numba.core.serialize import dumps  # (deferred: numba, [fast])

        path, key = where
        try:
            payload = dumps(cres._reduce())
        except (RuntimeError, ValueError):  # loaded machine code, whose object numba gave
            payload = self._payloads.get(key)  # to LLVM: the bytes it was loaded from
            if payload is None:
                return
        meta = {"kernel": f"{self._module}.{self._name}", "signature": str(sig)}
        cache.save(path, _MACHINE_CODE, key, [payload], meta=meta,
                   what=f"the machine code of {self._module}.{self._name}")  # fmt: skip

    def kept(self, overloads: Mapping[Any, Any]) -> list[str]:
        """The files that hold ``overloads`` (a dispatcher's: argument types to compile
        result) in the cache folder, each written now if it is not there (machine code
        this process compiled or loaded while another cache folder was in use)."""
        files = []
        for args, cres in overloads.items():
            where = self._where(args, cres.codegen)
            if where is None:
                continue
            if not where[0].is_file():
                self.save_overload(args, cres)
            if where[0].is_file():
                files.append(str(where[0]))
        return files

    def _where(self, sig: Any, codegen: Any) -> tuple[Path, str] | None:
        """The file for ``sig`` and its key; ``None`` when nothing can be kept (no source
        to key it by, or no usable cache folder)."""
        if self._source is None:
            return None
        folder = cache.folder("engines", self._module)
        if folder is None:
            return None
        import numba  # (deferred: numba, [fast])

        code = self._py_func.__code__
        closure = self._py_func.__closure__
        cells = b""
        if closure is not None:
            from numba.core.serialize import dumps  # (deferred: numba, [fast])

            cells = dumps(tuple(cell.cell_contents for cell in closure))
        parts = [
            numba.__version__,
            sys.version,
            self._source,
            self._name,
            hashlib.sha256(code.co_code).hexdigest(),
            hashlib.sha256(cells).hexdigest(),
            str(sig),
            repr(codegen.magic_tuple()),
        ]
        digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]
        key = f"{self._name}-{digest}"
        return folder / f"{key}.bin", key


@attrs.define(eq=False)
class CompiledEngine:
    """One optional compiled engine: its kernel module and its first compile.

    :param name: a short name for the marker file (``"sliding-tiles"``).
    :param module: the kernel module's import name; it imports numba and
        defines ``warm()``.
    :param title: the engine in messages (``"the sliding-tiles engine"``).
    :param seconds: how long the first compile takes, as said while it runs.
    :param compile_room: seconds a deadline must leave for :meth:`require_by` to
        start the first compile (far more than the compile takes on a quiet machine:
        a loaded one takes several times as long).
    """

    name: str
    module: str
    title: str
    seconds: str = "about 10 s"
    compile_room: float = 60.0
    #: The part of the kernels this engine is (see :meth:`part_of`; ``None``: all of them).
    part: str | None = None
    _failure: list[str] = attrs.field(factory=list, init=False, repr=False)
    _loaded: list[ModuleType] = attrs.field(factory=list, init=False, repr=False)
    _warned: list[str] = attrs.field(factory=list, init=False, repr=False)
    _parts: dict[str, CompiledEngine] = attrs.field(factory=dict, init=False, repr=False)
    _whole: list[CompiledEngine] = attrs.field(factory=list, init=False, repr=False)
    _background: list[Any] = attrs.field(factory=list, init=False, repr=False)
    _keys: list[str] = attrs.field(factory=list, init=False, repr=False)

    def part_of(self, part: str, seconds: str | None = None) -> CompiledEngine:
        """This engine restricted to one part of its kernels: the kernel module's
        ``warm(part)`` compiles (or loads) only that part, so that a first use pays for
        the machine code it runs and no more (the sliding-tiles kernel for byte tables,
        say, not also for 64-bit ones). The part has its own marker (:meth:`ready`); it
        is loaded when the whole engine is, and fails when it does.

        :param seconds: how long the part's first compile takes (default: the whole's).
        """
        found = self._parts.get(part)
        if found is None:
            found = attrs.evolve(self, name=f"{self.name}-{part}", part=part,
                                 seconds=seconds or self.seconds)  # fmt: skip
            found._failure = self._failure  # (numba failing fails every part)
            found._whole.append(self)
            self._parts[part] = found
        return found

    def available(self) -> bool:
        """Whether the engine may run here: numba is installed and did not fail to load
        in this process."""
        return numba_installed() and not self._failure

    def loaded(self) -> bool:
        """Whether this process has loaded the engine already (using it costs nothing more)."""
        return bool(self._loaded) or any(whole.loaded() for whole in self._whole)

    def failure(self) -> str | None:
        """Why the engine cannot run here (``None`` when it can, as far as is known)."""
        if self._failure:
            return self._failure[0]
        return None if numba_installed() else "numba is not installed"

    def load(self, *, compile: bool = True) -> ModuleType | None:
        """The kernel module with its machine code ready, or ``None`` when it cannot be
        loaded (numba missing or failing; the reason is kept, see :meth:`failure`).

        The first use on a machine compiles the kernels, announced through
        :func:`lacak.progress.announce` and shown as a :func:`lacak.progress.task`;
        so does machine code found damaged (reported, see the module documentation).

        :param compile: ``False`` to load only machine code that is ready (see
            :meth:`ready`) and never compile: ``None`` otherwise, which is no failure
            (a later call may compile).
        """
        if self._loaded:
            return self._loaded[0]
        for whole in self._whole:
            if whole.loaded():
                return whole.load()
        if not self.available():
            return None
        try:
            module = importlib.import_module(self.module)
            cache_kernels(vars(module))
            if not self._warm(module, compile):
                return None
        except Exception as error:  # numba is a third party: any failure means "not here"
            self._failure.append(f"{type(error).__name__}: {error}")
            return None
        self._loaded.append(module)
        return module

    def _warm(self, module: ModuleType, compile: bool) -> bool:
        """Load the module's machine code, compiling it when it is not ready and
        ``compile`` allows; returns whether the kernels are ready."""
        if self.ready():
            try:
                with _only_loading(rebuild=compile):
                    self._warm_kernels(module)  # loads the machine code from lacak's cache
                return True
            except _Missing:  # damaged or removed since the marker was written
                pass
        if not compile:
            return False
        progress.announce(f"compiling {self.title} once for this machine (numba; {self.seconds})")
        with progress.task(f"compiling {self.title}"):
            self._warm_kernels(module)
        self._remember(module)
        return True

    def _warm_kernels(self, module: ModuleType) -> None:
        if self.part is None:
            module.warm()
        else:
            module.warm(self.part)

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

    def require_by(
        self, deadline: float | None, asked: str = "", *, instead: str = "another engine"
    ) -> ModuleType | None:
        """:meth:`require`, for a run that must end by ``deadline`` (a time of
        :func:`lacak.limits.now`; ``None``: no deadline).

        When the machine code is not ready here and the deadline leaves less than
        :attr:`compile_room` seconds, no compile starts (numba's cannot be stopped
        half-way, and would hold the answer past the deadline): ``None``, after a
        one-line :class:`CompileWarning` (once per process) saying that this run
        goes on with ``instead``. A run with time for it compiles the engine once.

        :param instead: what the run uses instead, for the warning ("the Python engine").
        :raises InvalidOptionError: the engine cannot run here, saying why.
        """
        if self._loaded or deadline is None or deadline - limits.now() >= self.compile_room:
            return self.require(asked)
        module = self.load(compile=False)
        if module is not None or not self.available():
            return self.require(asked)
        if not self._warned:
            self._warned.append(asked)
            who = f"{asked}: " if asked else ""
            warnings.warn(
                f"{who}{self.title} is not compiled on this machine yet, and its first "
                f"compile ({self.seconds}, more on a busy machine) might outlast the time "
                f"limit; this run uses {instead} (a run without a time limit, or with a "
                "minute or more, compiles it once)",
                CompileWarning,
                stacklevel=2,
            )
        return None

    def compile_in_background(self) -> str:
        """Start the first compile in a process of its own, so that the caller goes on
        meanwhile (a search in Python, on the other core) and loads the machine code once
        :meth:`ready` says it is there: a first use never waits for a compile. Started
        once per process and announced through :func:`lacak.progress.announce`; the
        process finishes the compile even when the caller ends first (the next run
        finds the engine ready), runs at a lower priority, and writes nothing but the
        cache files.

        :returns: ``"ready"`` (the machine code is there: load it), ``"running"``
            (started now or before), or ``"failed"`` (it cannot be done here: numba
            missing, no usable cache folder, the process failed; compile in this
            process instead, or do without).
        """
        if self.ready():
            return "ready"
        if not self.available() or cache.folder("engines") is None:
            return "failed"
        if not self._background:
            import subprocess  # (deferred: only for a first compile)

            code = ("import os, sys; os.nice(5); from lacak.store.compiled import "
                    "compile_main; sys.exit(compile_main(sys.argv[1:]))")  # fmt: skip
            progress.announce(
                f"compiling {self.title} once for this machine, in the background (numba; "
                f"{self.seconds}); the search goes on in Python meanwhile"
            )
            child: Any = None
            try:
                child = subprocess.Popen(
                    [sys.executable, "-c", code, self.name, self.module, self.title,
                     self.part or ""],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # (a Ctrl-C of the search leaves it be)
                )  # fmt: skip
            except OSError:  # (no process: child stays None, "failed")
                pass
            else:  # reaped when it ends: a long-lived caller (a server, a test run) keeps
                # no zombie process, whether or not it asks again
                threading.Thread(target=child.wait, name=f"lacak: reaping {self.name}",
                                 daemon=True).start()  # fmt: skip
            self._background.append(child)
        child = self._background[0]
        if child is None:
            return "failed"
        code = child.poll()
        if code is None:
            return "running"
        if code == 0 and self.ready():
            return "ready"
        self._background[0] = None  # (failed: not started again in this process)
        return "failed"

    def ready(self) -> bool:
        """Whether the machine code is ready on this machine: numba is installed, lacak
        compiled the module here before (a marker in its cache folder) and the files
        of machine code the marker names are still there. Loading then costs about
        0.5 s (importing numba, mostly)."""
        if not self.available():
            return False
        try:
            marker = self._marker()
        except Exception:  # numba's metadata missing or odd: not ready
            return False
        files = cache.load(marker, _MARKER, marker.stem if marker else None,
                           lambda artefact: list(artefact.meta["files"]))  # fmt: skip
        if files and all(Path(name).is_file() for name in files):
            return True
        return any(whole.ready() for whole in self._whole)  # (a part: the whole is ready)

    def _key(self) -> str:
        """A digest of what the machine code depends on: the module's source, the versions
        of numba, numpy and Python, and this machine; made once per engine (:meth:`ready`
        asks for it before every search that might load the engine)."""
        if self._keys:
            return self._keys[0]
        from importlib import metadata  # (slow to import: only when compiling)

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
            "lacak's cache",  # (no longer numba's: markers naming numba's files are not read)
        ]
        self._keys.append(hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32])
        return self._keys[0]

    def _marker(self) -> Path | None:
        folder = cache.folder("engines")
        return None if folder is None else folder / f"{self.name}-{self._key()}.bin"

    def _remember(self, module: ModuleType) -> None:
        """Write the marker naming the files of the module's machine code (when its
        kernels keep it: otherwise :meth:`ready` stays false, and the next process
        announces a compile, which numba's own cache may make short)."""
        files: set[str] = set()
        for value in vars(module).values():
            kept = getattr(value, "_cache", None)
            if isinstance(kept, _KernelCache):
                files.update(kept.kept(value.overloads))
        marker = self._marker()
        if files and marker is not None:
            cache.save(marker, _MARKER, marker.stem, [b""], meta={"files": sorted(files)})


def compile_main(argv: list[str]) -> int:
    """What :meth:`CompiledEngine.compile_in_background`'s process runs: compile the
    engine ``argv`` names (``name module title part``) and remember it; exit status 0
    when its machine code is ready."""
    name, module, title, part = argv
    engine = CompiledEngine(name=name, module=module, title=title, part=part or None)
    return 0 if engine.load() is not None and engine.ready() else 1
