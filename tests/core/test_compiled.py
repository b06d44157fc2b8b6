"""``lacak.store.compiled``: an optional compiled engine loads once, says why it cannot, and
announces its first compile."""

from __future__ import annotations

import shutil
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lacak.store.compiled import CompiledEngine
from lacak.testing.strategies import CacheDamage, cache_damage


@pytest.fixture
def kernels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` for kernel modules, and a private cache."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    lacak.store.cache._forget_reports()
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("lacak_test_kernel")]:
        del sys.modules[name]


class Said:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def start(self, description: str, total: float | None) -> Any:
        self.lines.append(f"task: {description}")
        return lacak.progress._QUIET

    def stop(self, task: Any) -> None:
        pass

    def announce(self, message: str) -> None:
        self.lines.append(message)


def test_loads_once_and_announces(kernels: Path) -> None:
    (kernels / "lacak_test_kernel_a.py").write_text(
        "CALLS = []\ndef warm():\n    CALLS.append(1)\n"
    )
    engine = CompiledEngine(name="a", module="lacak_test_kernel_a", title="the test engine")
    if not engine.available():
        pytest.skip("numba is not installed: nothing loads")
    said = Said()
    with lacak.progress.reporting(said):
        module = engine.load()
        assert module is not None and engine.load() is module
    assert module.CALLS == [1]  # warmed once per process
    assert engine.loaded()
    assert said.lines == [
        "compiling the test engine once for this machine (numba; about 10 s)",
        "task: compiling the test engine",
    ]


def test_a_failing_kernel_is_not_here(kernels: Path) -> None:
    (kernels / "lacak_test_kernel_b.py").write_text("def warm():\n    raise OSError('no llvm')\n")
    engine = CompiledEngine(name="b", module="lacak_test_kernel_b", title="the test engine")
    if not engine.available():
        assert engine.failure() == "numba is not installed"
        return
    assert engine.load() is None
    assert engine.failure() == "OSError: no llvm"
    assert not engine.available() and not engine.ready()
    with pytest.raises(lacak.InvalidOptionError, match=r"the test engine cannot run \(OSError"):
        engine.require()
    with pytest.raises(lacak.InvalidOptionError, match="X=numba asks for the test engine"):
        engine.require("X=numba")


def test_a_missing_module_is_not_here(kernels: Path) -> None:
    engine = CompiledEngine(name="c", module="lacak_test_kernel_missing", title="the engine")
    assert engine.load() is None
    assert engine.failure() is not None
    assert not engine.ready()


def test_without_numba(monkeypatch: pytest.MonkeyPatch, kernels: Path) -> None:
    (kernels / "lacak_test_kernel_d.py").write_text("def warm():\n    pass\n")
    monkeypatch.setattr(lacak.store.compiled, "numba_installed", lambda: False)
    engine = CompiledEngine(name="d", module="lacak_test_kernel_d", title="the engine")
    assert not engine.available() and not engine.ready()
    assert engine.load() is None
    assert engine.failure() == "numba is not installed"
    with pytest.raises(lacak.InvalidOptionError, match="pip install 'lacak\\[fast\\]'"):
        engine.require()


# -- machine code in lacak's cache (issue 23, item 7) --------------------------------------

KERNEL = """
import lacak
import numba

@numba.njit
def twice(x):
    return 2 * x

@numba.njit
def add_twice(a, b):
    return twice(a) + twice(b)

def warm():
    assert add_twice(1, 2) == 6 and add_twice(1.5, 0.5) == 4.0

lacak.store.compiled.cache_kernels(globals())
"""


def kernel_engine(kernels: Path, name: str) -> CompiledEngine:
    """A fresh engine over the kernel module ``name`` (written on first use), as another
    process would see it: the module imported anew, so nothing compiled is in memory."""
    path = kernels / f"{name}.py"
    if not path.exists():
        path.write_text(KERNEL)
    sys.modules.pop(name, None)
    return CompiledEngine(name=name, module=name, title="the test engine", seconds="a moment")


def code_files(kernels: Path, name: str) -> list[Path]:
    return sorted((kernels / "cache" / "engines" / name).glob("*.bin"))


needs_numba = pytest.mark.skipif(
    not lacak.store.compiled.numba_installed(), reason="numba is not installed"
)


@needs_numba
def test_machine_code_is_kept_in_lacaks_cache_and_loaded_from_it(kernels: Path) -> None:
    engine = kernel_engine(kernels, "lacak_test_kernel_e")
    assert not engine.ready()
    module = engine.load()
    assert module is not None and engine.ready()
    files = code_files(kernels, "lacak_test_kernel_e")
    # two argument types of add_twice, and of twice, which it calls
    assert len(files) == 4
    assert all(lacak.store.cache.inspect(f).tag == "lacak-numba-code" for f in files)
    assert not (kernels / "__pycache__").exists() or not list(
        (kernels / "__pycache__").glob("*.nb*")
    )
    again = kernel_engine(kernels, "lacak_test_kernel_e")  # as a second process
    assert again.ready()
    module = again.load(compile=False)
    assert module is not None
    assert sum(module.add_twice.stats.cache_hits.values()) == 2
    assert sum(module.add_twice.stats.cache_misses.values()) == 0


@needs_numba
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(damage=cache_damage(), which=st.integers(0, 3))
@example(damage=CacheDamage("flip", (8 * 200,)), which=0)
@example(damage=CacheDamage("folder"), which=1)
def test_damaged_machine_code_is_reported_and_compiled_again(
    kernels: Path, damage: CacheDamage, which: int
) -> None:
    name = "lacak_test_kernel_f"
    good = kernels / "good"
    if not good.exists():  # compiled once; each example starts from these files
        assert kernel_engine(kernels, name).load() is not None
        shutil.copytree(kernels / "cache" / "engines" / name, good)
    shutil.rmtree(kernels / "cache" / "engines" / name)
    shutil.copytree(good, kernels / "cache" / "engines" / name)
    lacak.store.cache._forget_reports()
    files = code_files(kernels, name)
    target = files[which % len(files)]
    damage.apply(target)
    engine = kernel_engine(kernels, name)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        module = engine.load()
    assert module is not None
    assert module.add_twice(2, 3) == 10 and module.add_twice(0.25, 0.25) == 1.0
    told = [str(w.message) for w in record if issubclass(w.category, lacak.CacheWarning)]
    # a callee's file is read only when its caller's is compiled again
    assert len(told) <= 1 and all(str(target) in message for message in told)
    if told:  # and then compiled again, in its place
        assert told[0].startswith("rebuilding the machine code of lacak_test_kernel_f.")
        assert target.is_dir() or lacak.store.cache.inspect(target).problem is None


@needs_numba
def test_only_loading_never_compiles(kernels: Path) -> None:
    name = "lacak_test_kernel_g"
    assert kernel_engine(kernels, name).load(compile=False) is None  # nothing to load
    assert kernel_engine(kernels, name).load() is not None
    (target, *_rest) = sorted(code_files(kernels, name), key=lambda f: -f.stat().st_size)
    CacheDamage("flip", (8 * 300,)).apply(target)
    lacak.store.cache._forget_reports()
    engine = kernel_engine(kernels, name)
    assert engine.ready()
    with pytest.warns(lacak.CacheWarning, match=r"^not using the machine code of .*checksum"):
        assert engine.load(compile=False) is None
    assert engine.available() and engine.failure() is None  # no failure: it may compile later
    assert not target.exists() and not engine.ready()  # the damage is not met twice
    assert engine.load() is not None and engine.ready()


IMPORTING = """
import lacak
import numba

from {helpers} import scale as _scale


@numba.njit
def scaled(x):
    return _scale(x) + 1

def warm():
    scaled(2)

lacak.store.compiled.cache_kernels(globals())
"""

HELPERS = """
import lacak
import numba

from {deeper} import factor


@numba.njit(inline="always")
def scale(x):
    return factor() * x

lacak.store.compiled.cache_kernels(globals())
"""

DEEPER = """
import numba

FACTOR = {factor}


@numba.njit(inline="always")
def factor():
    return FACTOR
"""


@needs_numba
def test_machine_code_is_keyed_by_the_kernels_it_imports(kernels: Path) -> None:
    """A kernel inlines what it imports from another kernel module (and that module's
    own imports): a change there compiles it again, never loads the old machine code."""
    name, helpers, deeper = "lacak_test_kernel_k", "lacak_test_kernel_k_h", "lacak_test_kernel_k_d"
    (kernels / f"{name}.py").write_text(IMPORTING.format(helpers=helpers))
    (kernels / f"{helpers}.py").write_text(HELPERS.format(deeper=deeper))
    for factor, expected in ((2, 7), (5, 16), (2, 7)):
        (kernels / f"{deeper}.py").write_text(DEEPER.format(factor=factor))
        for module in (name, helpers, deeper):
            sys.modules.pop(module, None)
        engine = kernel_engine(kernels, name)  # as another process would
        module = engine.load()
        assert module is not None and module.scaled(3) == expected
    # the first source's machine code was kept, and found again for it
    assert sum(module.scaled.stats.cache_hits.values()) == 1


@needs_numba
def test_no_first_compile_the_deadline_cannot_cover(kernels: Path) -> None:
    """Issue 23, item 13: a first compile that might outlast the time limit does not
    start; the caller runs without the engine, told once. Times are a fake clock's."""
    name = "lacak_test_kernel_h"
    engine = kernel_engine(kernels, name)
    with lacak.limits.use_clock(lambda: 1000.0):
        with pytest.warns(
            lacak.store.compiled.CompileWarning, match="X=numba: the test engine is not"
        ):
            assert engine.require_by(1000.0 + engine.compile_room - 1, "X=numba") is None
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # told once
            assert engine.require_by(1001.0, "X=numba", instead="Python") is None
        assert not code_files(kernels, name) and not engine.loaded()
        assert engine.require_by(1000.0 + engine.compile_room, "X=numba") is not None
    ready = kernel_engine(kernels, name)  # compiled now: a short deadline loads it
    with lacak.limits.use_clock(lambda: 0.0):
        assert ready.require_by(0.5) is not None
    assert ready.require_by(None) is not None


# -- a first compile in a process of its own (issue 25, item 2) ----------------------------


def _until_done(engine: CompiledEngine) -> str:
    """Poll the background compile until it is no longer running (bounded by polls)."""
    import time

    for _ in range(6000):  # (ten minutes at most: a compile on a loaded machine is slow)
        state = engine.compile_in_background()
        if state != "running":
            return state
        time.sleep(0.1)
    raise AssertionError("the background compile never ended")


@needs_numba
def test_a_first_compile_runs_in_a_process_of_its_own(
    kernels: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(kernels))  # (where the child finds the module)
    engine = kernel_engine(kernels, "lacak_test_kernel_bg")
    said = Said()
    with lacak.progress.reporting(said):
        assert engine.compile_in_background() in ("running", "ready")
        assert _until_done(engine) == "ready"
    assert said.lines == [
        "compiling the test engine once for this machine, in the background (numba; "
        "a moment); the search goes on in Python meanwhile"
    ]
    assert not engine.loaded()  # compiled over there: this process only loads it
    assert code_files(kernels, "lacak_test_kernel_bg")
    assert engine.load(compile=False) is not None
    assert len(engine._background) == 1  # started once


def test_no_background_compile_without_a_cache_folder(
    kernels: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = kernels / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(blocker))
    engine = kernel_engine(kernels, "lacak_test_kernel_nofolder")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lacak.CacheWarning)
        assert engine.compile_in_background() == "failed"
    assert engine._background == []  # nothing started


@needs_numba
def test_a_failing_background_compile_is_not_started_again(
    kernels: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(kernels))
    engine = CompiledEngine(name="gone", module="lacak_test_kernel_gone", title="the engine")
    assert _until_done(engine) == "failed"  # (the child finds no such module)
    assert engine.compile_in_background() == "failed"
    assert engine._background == [None]
