"""Every reader of a user's file has a size bound and refuses what is not a regular file
(issue 23, item 8): ``/dev/zero``, a FIFO, a folder, an endless standard input and a sparse
file past the bound each give one clear line, in bounded memory and time.

The commands run in subprocesses under ``prlimit --as`` (2 GB of address space): before the
bound, ``lacak dictionaries validate /dev/zero`` grew to 24 GB and was killed by the kernel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import lacak
import pytest
from lacak.store import paths

#: Address space each command may use: far below what an unbounded read takes, far above
#: what lacak needs (numpy and the plugins are loaded by every command).
ADDRESS_SPACE = 2_000_000_000

needs_prlimit = pytest.mark.skipif(shutil.which("prlimit") is None, reason="no prlimit here")


def lacak_command(
    *args: str, env: dict[str, str] | None = None, stdin: object = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``lacak ARGS`` in a subprocess with bounded memory, stopped after 120 s at worst."""
    command = ["prlimit", f"--as={ADDRESS_SPACE}", sys.executable, "-m", "lacak", *args]
    return subprocess.run(
        command, stdin=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})}, check=False,
    )  # fmt: skip


def one_line(done: subprocess.CompletedProcess[str], fragment: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert fragment in done.stderr, done.stderr
    return done.stderr


@needs_prlimit
@pytest.mark.parametrize("command", ["validate", "show"])
def test_dev_zero_is_not_a_regular_file(command: str) -> None:
    done = lacak_command("dictionaries", command, "/dev/zero")
    one_line(done, "/dev/zero is not a regular file (a character device)")


@needs_prlimit
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "words.json"
    os.mkfifo(fifo)
    one_line(lacak_command("dictionaries", "validate", str(fifo)), "is not a regular file (a FIFO)")
    one_line(lacak_command("boggle", "solve", "CAT/DOG", "-d", str(fifo)),
             f"{fifo} is not a regular file (a FIFO)")  # fmt: skip


@needs_prlimit
def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "words.json").mkdir()
    one_line(lacak_command("dictionaries", "validate", str(tmp_path / "words.json")), "a folder")
    one_line(lacak_command("boggle", "solve", "CAT/DOG", "-d", str(tmp_path / "words.json")),
             "words.json is not a regular file (a folder)")  # fmt: skip


@needs_prlimit
@pytest.mark.parametrize("command", ["solve", "solve-many"])
def test_a_device_as_a_boggle_dictionary_is_not_a_regular_file(command: str) -> None:
    """``-d /dev/zero`` exists: the message says what it is, not that it is missing."""
    done = lacak_command("boggle", command, "CAT/DOG" if command == "solve" else "-",
                         "-d", "/dev/zero")  # fmt: skip
    one_line(done, "/dev/zero is not a regular file (a character device)")


@needs_prlimit
def test_a_sparse_file_past_the_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # a hole: no disk, and 3 GB of zeros if read
        handle.truncate(3_000_000_000)
    done = lacak_command("dictionaries", "validate", str(big))
    line = one_line(done, "is larger than 256 MB")
    assert "LACAK_MAX_DICTIONARY_MB" in line
    # the bound is the documented one, and the variable raises it (here: lowers it)
    small = tmp_path / "small.json"
    small.write_text(json.dumps(["kata"] * 300_000))  # 2.4 MB
    done = lacak_command("dictionaries", "validate", str(small), env={
        "LACAK_MAX_DICTIONARY_MB": "1"})  # fmt: skip
    one_line(done, "is larger than 1 MB (the limit for dictionary files")
    done = lacak_command("dictionaries", "validate", str(small))
    assert done.returncode == 0, done.stderr


@needs_prlimit
def test_an_endless_standard_input_is_cut_at_the_bound() -> None:
    """``yes | lacak dictionaries validate -``: read until the bound, then one line."""
    with subprocess.Popen(["yes", '"kata",'], stdout=subprocess.PIPE) as endless:
        try:
            done = lacak_command("dictionaries", "validate", "-", stdin=endless.stdout)
        finally:
            endless.kill()
    one_line(done, "standard input is larger than 256 MB")


@needs_prlimit
@pytest.mark.parametrize(
    "args",
    [
        ("sliding", "solve", "-"),
        ("maze", "solve", "-"),
        ("boggle", "solve", "-"),
        ("boggle", "solve-many", "-"),
    ],
)
def test_puzzle_input_from_an_endless_standard_input_is_cut(args: tuple[str, ...]) -> None:
    with subprocess.Popen(["yes", "1 2 3"], stdout=subprocess.PIPE) as endless:
        try:
            done = lacak_command(*args, stdin=endless.stdout)
        finally:
            endless.kill()
    one_line(done, f"standard input is larger than {paths.INPUT_LIMIT_MB} MB")


@needs_prlimit
@pytest.mark.parametrize("file", ["/dev/zero", "FOLDER", "FIFO", "SPARSE"])
def test_puzzle_files_are_bounded(file: str, tmp_path: Path) -> None:
    """``lacak maze solve FILE`` reads a file: a regular one, of at most the input bound."""
    if file == "FOLDER":
        file, why = str(tmp_path), "is not a regular file (a folder)"
    elif file == "FIFO":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        file, why = str(tmp_path / "maze.json"), "is not a regular file (a FIFO)"
        os.mkfifo(file)
    elif file == "SPARSE":
        file, why = str(tmp_path / "maze.json"), f"larger than {paths.INPUT_LIMIT_MB} MB"
        with open(file, "wb") as handle:
            handle.truncate(10_000_000_000)
    else:
        why = "is not a regular file (a character device)"
    one_line(lacak_command("maze", "solve", file), why)


def test_the_library_reader_says_the_same(tmp_path: Path) -> None:
    """``Dictionary.from_file`` is bounded too: one :class:`~lacak.DictionaryError`."""
    with pytest.raises(lacak.DictionaryError, match="is not a regular file"):
        lacak.Dictionary.from_file("/dev/zero")
    with pytest.raises(lacak.DictionaryError, match="is not a regular file"):
        lacak.Dictionary.from_file(tmp_path)
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(paths.DICTIONARY_LIMIT_MB * 1_000_000 + 1)
    with pytest.raises(lacak.DictionaryError, match="larger than 256 MB"):
        lacak.Dictionary.from_file(big)


def test_a_bound_that_is_not_a_number_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LACAK_MAX_DICTIONARY_MB", "lots")
    with pytest.raises(lacak.InvalidOptionError, match="LACAK_MAX_DICTIONARY_MB='lots'"):
        paths.dictionary_limit()
    monkeypatch.setenv("LACAK_MAX_DICTIONARY_MB", "-1")
    with pytest.raises(lacak.InvalidOptionError, match="a number of megabytes above 0"):
        paths.dictionary_limit()
