"""Which engine ``engine="auto"`` picks: a rule of the request and the machine, never of
what the process did before; the compiled walk's loading, first compile and failures."""

from __future__ import annotations

import os
import sys
from typing import Any

import attrs
import lacak
import lacak.store.compiled
import numpy as np
import pytest
from lacak_boggle import batch, engines, solve_board
from lacak_boggle.engines import (
    COMPILE_FROM,
    COMPILED_FROM,
    ENGINE_VARIABLE,
    NUMPY_FROM,
    compiled_available,
    engine_for_batch,
    engine_for_board,
)
from lacak_boggle.wordgraph import compile_dictionary

needs_numba = pytest.mark.skipif(not compiled_available(), reason="numba is not installed")


@pytest.fixture(autouse=True)
def _no_engine_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)


def _ready(monkeypatch: pytest.MonkeyPatch, ready: bool) -> None:
    monkeypatch.setattr(engines, "compiled_ready", lambda: ready)


@needs_numba
@pytest.mark.parametrize("ready", [False, True])
def test_auto_is_a_rule_of_the_boards_and_the_machine(monkeypatch, tiny, ready: bool) -> None:
    _ready(monkeypatch, ready)
    expected = {
        1: "dfs",
        NUMPY_FROM - 1: "dfs",
        NUMPY_FROM: "numpy",
        COMPILED_FROM - 1: "numpy",
        COMPILED_FROM: "numba" if ready else "numpy",
        COMPILE_FROM: "numba",
    }
    assert {n: engine_for_batch("auto", n) for n in expected} == expected
    assert engine_for_board("auto") == "dfs"
    # what the process did before changes nothing: the compiled walk loaded and used,
    # and the Python walk used for many boards
    engines.load_compiled()
    for _ in range(300):
        solve_board("CAT/XQY", tiny, engine="auto")
    solve_board("CAT/XQY", tiny, engine="numba")
    batch.solve_many(["CAT/XQY"] * 50, tiny, engine="numba")
    assert {n: engine_for_batch("auto", n) for n in expected} == expected
    assert engine_for_board("auto") == "dfs"
    # explicit engines are what they say (a board past 64 tiles: the Python walk)
    assert engine_for_board("dfs") == "dfs" and engine_for_board("numba") == "numba"
    assert engine_for_board("numba", cells=65) == "dfs"
    assert engine_for_batch("numpy", 1) == "numpy" and engine_for_batch("dfs", 10**6) == "dfs"


@needs_numba
def test_the_environment_variable_says_what_auto_means(monkeypatch, tiny) -> None:
    _ready(monkeypatch, False)
    monkeypatch.setenv(ENGINE_VARIABLE, "numba")
    assert engine_for_board("auto") == "numba" and engine_for_batch("auto", 2) == "numba"
    assert engine_for_board("dfs") == "dfs"  # an explicit engine is not overridden
    expected = solve_board("CAT/XQY", tiny, min_length=2, engine="dfs")
    assert solve_board("CAT/XQY", tiny, min_length=2).entries == expected.entries
    monkeypatch.setenv(ENGINE_VARIABLE, " NumPy ")
    assert engine_for_batch("auto", 2) == "numpy"
    assert engine_for_board("auto") == "dfs"  # numpy solves batches only
    many = batch.solve_many(["CAT/XQY"] * 3, tiny, min_length=2)
    assert {r.unwrap().strategy for r in many} == {"boggle-numpy"}
    monkeypatch.setenv(ENGINE_VARIABLE, "dfs")
    assert engine_for_batch("auto", COMPILE_FROM) == "dfs"
    monkeypatch.setenv(ENGINE_VARIABLE, "auto")
    assert engine_for_batch("auto", 50) == "numpy"
    monkeypatch.setenv(ENGINE_VARIABLE, "fast")
    for call in (
        lambda: engine_for_board("auto"),
        lambda: solve_board("CAT/XQY", tiny, limits=lacak.Limits(seconds=5)),
        lambda: batch.solve_many(["CAT/XQY"], tiny),
    ):
        with pytest.raises(lacak.InvalidOptionError, match=f"{ENGINE_VARIABLE}='fast' names no"):
            call()
    assert solve_board("CAT/XQY", tiny, engine="dfs").word_list == ["CAT", "TAX", "TAXI"][:2]


def test_the_rule_without_numba(monkeypatch, tiny) -> None:
    monkeypatch.setattr(engines, "ENGINE", attrs.evolve(engines.ENGINE))
    monkeypatch.setattr(lacak.store.compiled, "numba_installed", lambda: False)
    assert not engines.compiled_available() and not engines.compiled_ready()
    assert engine_for_batch("auto", COMPILE_FROM) == "numpy"
    assert engine_for_batch("auto", 3) == "dfs" and engine_for_board("auto") == "dfs"
    monkeypatch.setenv(ENGINE_VARIABLE, "numba")
    with pytest.raises(lacak.InvalidOptionError, match=rf"{ENGINE_VARIABLE}=numba asks for"):
        solve_board("CAT/XQY", tiny)
    with pytest.raises(lacak.InvalidOptionError, match="numba is not installed"):
        engine_for_batch("numba", 10)


class _Recorder:
    """A progress reporter that keeps what it was told."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def start(self, description: str, total: float | None) -> Any:
        self.said.append(f"task: {description}")
        return lacak.progress._QUIET

    def stop(self, task: Any) -> None:
        self.said.append("stop")

    def announce(self, message: str) -> None:
        self.said.append(f"announce: {message}")


@needs_numba
def test_the_first_compile_is_announced_and_remembered(monkeypatch, tmp_path) -> None:
    compiled = engines.load_compiled()
    compiled.warm()  # numba's own cache exists from here on
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))  # no marker there
    monkeypatch.setattr(engines, "ENGINE", attrs.evolve(engines.ENGINE))  # a fresh process
    assert not engines.compiled_ready()
    warmed: list[bool] = []
    monkeypatch.setattr(compiled, "warm", lambda: warmed.append(True))
    recorder = _Recorder()
    with lacak.progress.reporting(recorder):
        assert engines.load_compiled() is compiled
        assert engines.load_compiled() is compiled  # once per process
    assert warmed == [True]
    assert recorder.said == [
        f"announce: {engines.COMPILING}",
        "task: compiling the Boggle engine",
        "stop",
    ]
    assert "once for this machine" in engines.COMPILING
    assert engines.compiled_ready()  # remembered: the next process is told it is ready
    monkeypatch.setattr(engines, "ENGINE", attrs.evolve(engines.ENGINE))  # the next process
    recorder = _Recorder()
    with lacak.progress.reporting(recorder):
        engines.load_compiled()
    # nothing to announce any more: the machine code is only loaded
    assert recorder.said == [] and warmed == [True, True]
    # the marker is only as good as the files of machine code it names, in lacak's cache
    (marker,) = (tmp_path / "engines").glob("boggle-*.bin")
    meta = lacak.store.cache.inspect(marker).meta
    kept = tmp_path / "engines" / "lacak_boggle.compiled"
    assert meta is not None and all(os.path.dirname(name) == str(kept) for name in meta["files"])
    monkeypatch.setattr(
        lacak.store.compiled, "_MARKER", lacak.store.cache.CacheFormat(tag="lacak-engine", version=99, what="x")
    )
    assert not engines.compiled_ready()


def test_a_compiled_walk_that_cannot_load_is_named_and_avoided(monkeypatch, tiny) -> None:
    """numba installed but failing (say, an incompatible numpy): an explicit
    engine="numba" is one clear error, and every other engine still works."""
    import lacak_boggle

    monkeypatch.setattr(engines, "ENGINE", attrs.evolve(engines.ENGINE))  # not tried yet
    monkeypatch.setattr(lacak.store.compiled, "numba_installed", lambda: True)  # "installed" ...
    monkeypatch.delattr(lacak_boggle, "compiled", raising=False)
    monkeypatch.setitem(sys.modules, "lacak_boggle.compiled", None)  # ... but broken
    with pytest.raises(lacak.InvalidOptionError, match=r"numba engine cannot run \(Module"):
        solve_board("CAT", tiny, engine="numba")
    assert not engines.compiled_available()
    with pytest.raises(lacak.InvalidOptionError, match="cannot run"):
        batch.solve_many(["CAT"] * 10, tiny, engine="numba")
    expected = solve_board("CAT/XQY", tiny, min_length=2, engine="dfs").word_list
    assert solve_board("CAT/XQY", tiny, min_length=2).word_list == expected
    monkeypatch.setattr(engines, "COMPILE_FROM", 2)  # auto would use the compiled walk, could it
    many = [r.unwrap() for r in batch.solve_many(["CAT/XQY"] * 10, tiny, min_length=2)]
    assert [r.word_list for r in many] == [expected] * 10
    assert many[0].strategy == "boggle-numpy"
    # a worker whose numba fails answers with the numpy engine, the same arrays
    graph = compile_dictionary(tiny)
    columns = np.array([[graph.column(t) for t in "CATXQY"]])
    found = batch.arrays.walk_arrays(graph, columns, (2, 3), 2, "numba")
    same = batch.arrays.walk_arrays(graph, columns, (2, 3), 2, "numpy")
    assert found.engine == "numpy" and len(found.rank) > 0
    assert found.rank.tolist() == same.rank.tolist()
    assert found.paths.tolist() == same.paths.tolist()


def test_auto_tries_the_compiled_walk_before_choosing_it(monkeypatch, tiny) -> None:
    """A broken numba not tried yet: the first auto batch that would use it finds out,
    and uses numpy."""
    import lacak_boggle

    monkeypatch.setattr(engines, "ENGINE", attrs.evolve(engines.ENGINE))  # not tried yet
    monkeypatch.setattr(lacak.store.compiled, "numba_installed", lambda: True)
    monkeypatch.delattr(lacak_boggle, "compiled", raising=False)
    monkeypatch.setitem(sys.modules, "lacak_boggle.compiled", None)
    monkeypatch.setattr(engines, "COMPILE_FROM", 300)
    many = batch.solve_many(["CAT/XQY"] * 300, tiny, min_length=2, workers=2)
    assert {r.unwrap().strategy for r in many} == {"boggle-numpy"}
    assert engines.ENGINE.failure()  # the reason is kept
