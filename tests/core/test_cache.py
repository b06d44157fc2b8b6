"""lacak.store.cache: verified cache files, atomic writes, stale temporary files, unusable folders."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import attrs
import lacak
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.store import cache
from lacak.testing.strategies import CacheDamage, cache_damage

FMT = cache.CacheFormat(tag="lacak-test", version=3, what="the test table")


@pytest.fixture(autouse=True)
def _fresh_reports(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Each test starts with no warning given and no folder cleaned, in its own cache folder."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    cache._forget_reports()
    yield
    cache._forget_reports()


def decode_words(artefact: cache.Artefact) -> tuple[list[str], dict[str, object]]:
    return bytes(artefact.payload).decode().split(","), artefact.meta


def write_words(path: Path, words: list[str], **options: object) -> bool:
    meta = {"count": len(words)}
    return cache.save(path, FMT, path.stem, [",".join(words).encode()], meta=meta, **options)  # type: ignore[arg-type]


def load_words(path: Path, **options: object) -> tuple[list[str], dict[str, object]] | None:
    return cache.load(path, FMT, path.stem, decode_words, **options)  # type: ignore[arg-type]


def messages(record: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, lacak.CacheWarning)]


# -- the round trip -----------------------------------------------------------------------


@pytest.mark.parametrize("use_mmap", [False, True])
def test_save_then_load_gives_back_payload_and_meta(tmp_path: Path, use_mmap: bool) -> None:
    import array

    import numpy as np

    path = tmp_path / "mixed.bin"
    chunks = [b"abc", array.array("i", [1, -2, 3]), np.arange(5, dtype=np.int64)]
    assert cache.save(path, FMT, "mixed", chunks, meta={"columns": ["", "A"], "n": 5})

    def decode(artefact: cache.Artefact) -> tuple[bytes, dict[str, object], str, int]:
        return bytes(artefact.payload), artefact.meta, artefact.lacak_version, artefact.version

    payload, meta, version, number = cache.load(path, FMT, "mixed", decode, mmap=use_mmap)  # type: ignore[misc]
    expected = b"abc" + array.array("i", [1, -2, 3]).tobytes() + np.arange(5).tobytes()
    assert payload == expected
    assert meta == {"columns": ["", "A"], "n": 5}
    assert version == lacak.__version__ and number == 3
    data = path.read_bytes()
    assert data.startswith(cache.MAGIC)
    header = int.from_bytes(data[8:12], "little")
    assert header % 64 == 0 and data[header:] == expected  # the payload is aligned for mmap


def test_a_missing_file_is_a_silent_miss(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_words(tmp_path / "absent.bin") is None
        assert cache.load(None, FMT, "x", decode_words) is None


def test_the_payload_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "ro.bin"
    write_words(path, ["A"])
    for use_mmap in (False, True):
        view = cache.load(path, FMT, "ro", lambda a: a.payload, mmap=use_mmap)
        assert view is not None and view.readonly


# -- damage: never used, reported once, rebuilt ------------------------------------------


@settings(max_examples=150)
@given(damage=cache_damage(), use_mmap=st.booleans())
@example(damage=CacheDamage("flip", (0,)), use_mmap=False)  # the magic
@example(damage=CacheDamage("flip", (8 * 8,)), use_mmap=False)  # the header length
@example(damage=CacheDamage("flip", (8 * 12,)), use_mmap=False)  # the payload length
@example(damage=CacheDamage("flip", (8 * 20,)), use_mmap=True)  # the checksum
@example(damage=CacheDamage("flip", (8 * 40,)), use_mmap=True)  # the info JSON
@example(damage=CacheDamage("flip", (-1,)), use_mmap=True)  # the last bit of the payload
@example(damage=CacheDamage("folder"), use_mmap=True)
def test_damage_is_never_used(
    tmp_path_factory: pytest.TempPathFactory, damage: CacheDamage, use_mmap: bool
) -> None:
    path = tmp_path_factory.mktemp("damage") / "words.bin"
    words = [f"W{i}" for i in range(40)]
    write_words(path, words)
    changed = damage.apply(path)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        loaded = load_words(path, mmap=use_mmap)
    if not changed:
        assert loaded == (words, {"count": 40})
        return
    assert loaded is None  # never the damaged content, whatever the damage
    (message,) = messages(record)
    assert message.startswith(f"rebuilding the test table {path} (") and "\n" not in message
    assert write_words(path, words)  # the caller rebuilds: the bad file is replaced
    assert load_words(path, mmap=use_mmap) == (words, {"count": 40})


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "empty file"),
        (b"[1,2]", "not a lacak cache file"),
        (b'{"columns": 5}', "not a lacak cache file"),
        (b"[" * 100_000, "not a lacak cache file"),
        (b"\x89LACAK", "truncated"),
        (b"\x89LACAK\r\n" + b"\xff" * 28, "damaged header"),
    ],
)
def test_foreign_content_is_explained(tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / "foreign.bin"
    path.write_bytes(content)
    with pytest.warns(
        lacak.CacheWarning, match=f"rebuilding the test table .*foreign.bin \\({why}"
    ):
        assert load_words(path) is None


def test_a_flipped_bit_is_a_checksum_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "flip.bin"
    write_words(path, ["ALPHA", "BETA"])
    data = bytearray(path.read_bytes())
    data[-1] ^= 4
    path.write_bytes(bytes(data))
    with pytest.warns(lacak.CacheWarning, match=r"\(checksum mismatch\)"):
        assert load_words(path) is None


def test_truncation_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cut.bin"
    write_words(path, ["ALPHA", "BETA"])
    size = path.stat().st_size
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.warns(
        lacak.CacheWarning, match=f"{size - 3:,} bytes where the header announces {size:,}"
    ):
        assert load_words(path) is None


def test_wrong_tag_format_or_key_with_a_valid_checksum(tmp_path: Path) -> None:
    """A sound file of another kind, format number or key is not used either."""
    path = tmp_path / "words.bin"
    cases = [
        (attrs.evolve(FMT, tag="lacak-other"), "words", "a 'lacak-other' file, not 'lacak-test'"),
        (
            attrs.evolve(FMT, version=2),
            "words",
            "format 2 written by lacak .*; this lacak reads format 3",
        ),
        (FMT, "other-key", "written for key 'other-key', not 'words'"),
    ]
    for fmt, key, why in cases:
        assert cache.save(path, fmt, key, [b"A,B"])
        with pytest.warns(lacak.CacheWarning, match=why):
            assert load_words(path) is None


def test_a_decoder_that_fails_marks_the_file_bad(tmp_path: Path) -> None:
    path = tmp_path / "words.bin"
    cache.save(path, FMT, "words", [b"A,B"], meta={"columns": 5})

    def strict(artefact: cache.Artefact) -> list[str]:
        columns = artefact.meta["columns"]
        if not isinstance(columns, list):
            raise TypeError(f"columns is {columns!r}")
        return columns

    with pytest.warns(lacak.CacheWarning, match=r"\(unusable content: columns is 5\)"):
        assert cache.load(path, FMT, "words", strict) is None


def test_a_bad_file_is_reported_once(tmp_path: Path) -> None:
    path = tmp_path / "words.bin"
    path.write_bytes(b"junk")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for _ in range(3):
            assert load_words(path) is None
            assert load_words(path, rebuild=False) is None
    assert messages(record) == [f"rebuilding the test table {path} (not a lacak cache file)"]


def test_not_rebuilding_says_so(tmp_path: Path) -> None:
    path = tmp_path / "words.bin"
    path.write_bytes(b"junk")
    with pytest.warns(lacak.CacheWarning, match="^not using the test table"):
        assert load_words(path, rebuild=False) is None


def test_a_folder_in_place_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "words.bin"
    path.mkdir()
    with pytest.warns(lacak.CacheWarning, match=r"\(a folder is in its place\)"):
        assert load_words(path) is None
    assert write_words(path, ["A"])  # an empty folder is replaced
    assert load_words(path) == (["A"], {"count": 1})
    path.unlink()
    path.mkdir()
    (path / "keep.txt").write_text("someone's file")
    with pytest.warns(lacak.CacheWarning, match="a folder is in its place.*carrying on"):
        assert not write_words(path, ["A"])  # a folder with files in it is left alone
    assert (path / "keep.txt").exists()
    with pytest.raises(lacak.CacheError, match="a folder is in its place"):
        write_words(path, ["A"], required=True)


def test_inspect_reports_without_using(tmp_path: Path) -> None:
    path = tmp_path / "words.bin"
    write_words(path, ["A", "B"])
    good = cache.inspect(path, FMT)
    assert good.problem is None and good.verified and good.key == "words"
    assert good.meta == {"count": 2} and good.payload_size == 3 and good.tag == "lacak-test"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    assert cache.inspect(path, FMT).problem == "checksum mismatch"
    assert cache.inspect(path, FMT, verify=False).problem is None  # only the header was read
    assert cache.inspect(path, attrs.evolve(FMT, version=9), verify=False).problem is not None
    assert cache.inspect(tmp_path / "none.bin").problem == "missing"
    path.write_bytes(b"[1,2]")
    assert cache.inspect(path).problem == "not a lacak cache file"


# -- atomic writes, temporary files ----------------------------------------------------------


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(cache.TEMP_PREFIX))


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    path = tmp_path / "words.bin"
    write_words(path, ["OLD"])

    def refuse(*_args: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(cache.os, "replace", refuse)
    with pytest.warns(lacak.CacheWarning) as record:
        assert not write_words(path, ["NEW"])
    (message,) = messages(list(record))
    assert message.startswith(f"cannot write to the cache folder {tmp_path} ({os.strerror(code)})")
    todo = "free some space" if code == errno.ENOSPC else "set LACAK_CACHE_DIR to a writable folder"
    assert todo in message and "carrying on without caching" in message
    assert load_words(path) == (["OLD"], {"count": 1})
    assert temp_files(tmp_path) == []
    with pytest.raises(lacak.CacheError) as raised:
        write_words(path, ["NEW"], required=True)
    assert isinstance(raised.value, OSError) and str(raised.value).count("\n") == 0
    assert str(tmp_path) in str(raised.value) and todo in str(raised.value)


def test_the_write_is_flushed_and_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(cache.os, "fsync", spy)
    assert write_words(tmp_path / "words.bin", ["A"])
    assert len(synced) == 2  # the file, then the folder


def test_temporary_files_are_named_for_their_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = os.replace

    def spy(source: str, target: str) -> None:
        seen.append(Path(source).name)
        real(source, target)

    monkeypatch.setattr(cache.os, "replace", spy)
    write_words(tmp_path / "words.bin", ["A"])
    (name,) = seen
    host, pid, token = name[len(cache.TEMP_PREFIX) :].rsplit("-", 2)
    assert host == cache._host() and pid == str(os.getpid()) and len(token) == 8


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporary_files_are_cleaned_on_first_use(tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "things"
    folder.mkdir(parents=True)
    host = cache._host()
    old = time.time() - cache.STALE_SECONDS - 60
    files = {
        "dead writer": f"{cache.TEMP_PREFIX}{host}-{dead_pid()}-0badc0de",
        "live writer": f"{cache.TEMP_PREFIX}{host}-{os.getpid()}-0000beef",
        "other host, recent": f"{cache.TEMP_PREFIX}elsewhere-1-12345678",
        "other host, old": f"{cache.TEMP_PREFIX}elsewhere-2-12345678",
        "old legacy": "tmpabc123.npy.part",
        "recent legacy": "tmpdef456.npy.part",
        "a cache file": "0123abcd.bin",
        "someone else's": "notes.txt",
    }
    for label, name in files.items():
        (folder / name).write_bytes(b"x" * 10)
        if label in ("other host, old", "old legacy", "a cache file", "someone else's"):
            os.utime(folder / name, (old, old))
    assert cache.folder("things", stale=("tmp*.npy.part",)) == folder
    left = {label for label, name in files.items() if (folder / name).exists()}
    assert left == {
        "live writer", "other host, recent", "recent legacy", "a cache file", "someone else's"
    }  # fmt: skip
    (folder / files["old legacy"]).write_bytes(b"x")
    os.utime(folder / files["old legacy"], (old, old))
    cache.folder("things", stale=("tmp*.npy.part",))
    assert (folder / files["old legacy"]).exists()  # one scan per folder and process


def test_a_killed_writer_leaves_a_temporary_file_the_next_run_removes(tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "killed"
    folder.mkdir(parents=True)
    script = (
        "import os, lacak.store.cache as c, pathlib\n"
        f"folder = pathlib.Path({str(folder)!r})\n"
        "real = os.replace\n"
        "def die(*a):\n"
        "    os._exit(9)\n"
        "os.replace = die\n"
        "c.save(folder / 'big.bin', c.CacheFormat('t', 1, 'x'), 'big', [b'x' * 100000])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], check=False)
    assert done.returncode == 9
    assert len(temp_files(folder)) == 1 and not (folder / "big.bin").exists()
    cache.folder("killed")
    assert temp_files(folder) == []


# -- unusable folders -----------------------------------------------------------------------


def test_a_cache_folder_that_cannot_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(blocker))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert cache.folder("pdb") is None
        assert cache.folder("pdb") is None
        assert cache.folder("boggle") is None
    (message,) = messages(record)  # once, naming the folder at fault
    assert message == (
        f"cannot create the cache folder {blocker} (a file is in its place), "
        "carrying on without caching; set LACAK_CACHE_DIR to a writable folder"
    )
    with pytest.raises(lacak.CacheError, match="set LACAK_CACHE_DIR to a writable folder"):
        cache.folder("pdb", required=True)
    with pytest.raises(lacak.CacheError) as raised:
        lacak.store.paths.cache_dir("pdb")
    assert isinstance(raised.value, OSError) and isinstance(raised.value, lacak.LacakError)
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "fine"))
    with pytest.raises(lacak.CacheError, match="a file is in its place"):
        (tmp_path / "fine").write_text("")
        cache.folder(required=True)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes to read-only folders"
)
def test_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "ro"
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    try:
        with pytest.warns(lacak.CacheWarning, match="Permission denied.*writable folder"):
            assert not write_words(folder / "words.bin", ["A"])
        with pytest.raises(lacak.CacheError, match=f"cannot write to the cache folder {folder}"):
            cache.folder("ro", required=True)
    finally:
        folder.chmod(0o700)


def test_a_required_folder_is_probed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.open

    def full(path: str, flags: int, *args: int) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, flags, *args)

    monkeypatch.setattr(cache.os, "open", full)
    assert cache.folder("probe") is not None  # carrying on: nothing is written yet
    with pytest.raises(lacak.CacheError, match=r"No space left on device.*free some space"):
        cache.folder("probe", required=True)


# -- files that are not regular files (issue 23, item 9) -----------------------------------

_READ_A_FIFO = """
import sys, warnings
from pathlib import Path
from lacak.store import cache
fmt = cache.CacheFormat(tag="lacak-test", version=3, what="the test table")
path = Path(sys.argv[1])
with warnings.catch_warnings(record=True) as record:
    warnings.simplefilter("always")
    got = cache.load(path, fmt, path.stem, lambda artefact: bytes(artefact.payload))
print(got, cache.inspect(path, fmt).problem, [str(w.message) for w in record])
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_the_file_is_refused_without_blocking(tmp_path: Path) -> None:
    """Opening a FIFO that no one writes to blocks for ever: the reader must not."""
    path = tmp_path / "words.bin"
    os.mkfifo(path)
    done = subprocess.run(
        [sys.executable, "-c", _READ_A_FIFO, str(path)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.split("\n")[0] == (
        f"None a FIFO is in its place ['rebuilding the test table {path} (a FIFO is in its place)']"
    )
    assert write_words(path, ["A"])  # the FIFO is replaced by the rebuilt file
    assert load_words(path) == (["A"], {"count": 1})
