"""``lacak.compiled``: an optional compiled engine loads once, says why it cannot, and
announces its first compile."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest
from lacak.compiled import CompiledEngine


@pytest.fixture
def kernels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` for kernel modules, and a private cache."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
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
    monkeypatch.setattr(lacak.compiled, "numba_installed", lambda: False)
    engine = CompiledEngine(name="d", module="lacak_test_kernel_d", title="the engine")
    assert not engine.available() and not engine.ready()
    assert engine.load() is None
    assert engine.failure() == "numba is not installed"
    with pytest.raises(lacak.InvalidOptionError, match="pip install 'lacak\\[fast\\]'"):
        engine.require()
