"""Batches under faults (issue 23): a file to resume is checked record by record, a
killed ``lacak batch`` keeps what it finished in every format, a job that kills its own
process is one failed record, and no worker outlives its parent.

The faults are real: records removed, duplicated or changed in a file; ``SIGKILL``
sent to a running ``lacak batch`` at seeded random moments; a file-size limit
(``RLIMIT_FSIZE``, which the kernel enforces like a full disk) under the writer; a
generator that sends ``SIGKILL`` to the process it runs in. Whatever happens, the
promise is the same: ``--resume`` either finishes the file to exactly the bytes of an
uninterrupted run or refuses it with one line, and a finished run leaves no other file.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
import xxhash
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.batch import dataset, job_seed
from lacak.cli import make_cli
from lacak.plugin.registry import using

from .plugin_helpers import tick_registry

TICK = tick_registry()
ARGS = ["-n", "40", "--seed", "3", "-O", "fail_every=7", "--solve"]


def cli(*args: str) -> Any:
    return CliRunner().invoke(make_cli(TICK), ["batch", "tick", *args])


def whole_lines() -> list[bytes]:
    spec = dataset.spec("tick", solve=True, options={"fail_every": 7}, registry=TICK)
    with using(TICK):
        return [r.line for r in dataset.records(spec, count=40, seed=3, workers=2)]


WHOLE = whole_lines()


def store(path: Path, data: bytes) -> None:
    path.write_bytes(gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)


def load(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


# -- item 2: a file to resume is checked record by record ------------------------------


def test_every_record_carries_a_digest_of_itself_and_the_one_before() -> None:
    """The documented check: XXH3-64 of the line's bytes before ``,"digest":``, seeded
    with the digest of the record before it (0 for the first)."""
    previous = 0
    for line in WHOLE:
        data = json.loads(line)
        assert list(data)[-1] == "digest" and line.endswith(b'"}\n')
        head = line[: line.rindex(b',"digest":"')]
        assert data["digest"] == f"{xxhash.xxh3_64_intdigest(head, previous):016x}"
        previous = int(data["digest"], 16)


def oracle(kept: bytes) -> bool:
    """Whether ``kept`` is what an interrupted run may leave: whole records of this batch
    in order, from the first, and at most a cut line after them."""
    lines = kept.split(b"\n")
    whole = [line + b"\n" for line in lines[:-1]]
    return whole == WHOLE[: len(whole)]


MUTATIONS = ["none", "delete", "duplicate", "swap", "instance", "seed", "digest", "foreign",
             "garbage"]  # fmt: skip


def mutate(lines: list[bytes], how: str, at: int, rng: random.Random) -> list[bytes]:
    lines = list(lines)
    if not lines or how == "none":
        return lines
    at %= len(lines)
    if how == "delete":
        del lines[at]
    elif how == "duplicate":
        lines.insert(at, lines[at])
    elif how == "swap" and len(lines) > 1:
        j = (at + 1) % len(lines)
        lines[at], lines[j] = lines[j], lines[at]
    elif how == "instance" and b'"target":' in lines[at]:
        data = json.loads(lines[at])  # the seed and the digest kept as they were
        data["instance"]["target"] = (data["instance"]["target"] + 1) % 40
        lines[at] = json.dumps(data, separators=(",", ":")).encode() + b"\n"
    elif how == "seed":
        data = json.loads(lines[at])
        data["seed"] += 1
        lines[at] = json.dumps(data, separators=(",", ":")).encode() + b"\n"
    elif how == "digest":
        digit = lines[at][-4:-3]
        lines[at] = lines[at][:-4] + (b"0" if digit != b"0" else b"1") + lines[at][-3:]
    elif how == "foreign":  # a record of another batch, with its own good digest
        spec = dataset.spec("tick", solve=True, options={"fail_every": 7}, registry=TICK)
        with using(TICK):
            other = [r.line for r in dataset.records(spec, count=at + 1, seed=4, workers=1)]
        lines[at] = other[at]
    elif how == "garbage":
        cut = rng.randrange(1, len(lines[at]))
        lines[at] = lines[at][:cut] + b"\x00" + lines[at][cut + 1 :]
    return lines


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
@settings(max_examples=25, deadline=None)
@given(how=st.sampled_from(MUTATIONS), at=st.integers(0, 40), records=st.integers(0, 39),
       cut=st.integers(0, 60), seed=st.integers(0, 2**16))  # fmt: skip
@example(how="delete", at=20, records=39, cut=0, seed=0)  # issue 23's file: a middle record gone
@example(how="instance", at=5, records=30, cut=0, seed=0)  # a record changed, its seed intact
def test_resume_completes_a_prefix_exactly_and_refuses_anything_else(
    tmp_path_factory: pytest.TempPathFactory, name: str, how: str, at: int, records: int,
    cut: int, seed: int,
) -> None:  # fmt: skip
    """Any file: when its whole lines are this batch's first records (a last line may be
    cut), ``--resume`` makes it the uninterrupted run's bytes; otherwise it refuses with
    one line and leaves the file as it was."""
    folder = tmp_path_factory.mktemp("resume")
    path = folder / name
    lines = mutate(WHOLE[:records], how, at, random.Random(seed))
    kept = b"".join(lines) + WHOLE[records][: cut % len(WHOLE[records])]
    store(path, kept)
    before = path.read_bytes()
    result = cli(*ARGS, "-o", str(path), "--resume", "-w", "2")
    if oracle(kept):
        assert result.exit_code == 1, result.output  # (some records fail: fail_every=7)
        assert load(path) == b"".join(WHOLE)
    else:
        assert result.exit_code == 2, result.output
        message = result.stderr.strip()
        assert message.startswith("Error: ") and "\n" not in message, message
        assert "cannot resume" in message
        assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [name]


def test_resume_names_the_record_that_breaks_the_file(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    store(out, b"".join(WHOLE[:20] + WHOLE[21:39]))  # job 20 missing
    missing = cli(*ARGS, "-o", str(out), "--resume")
    assert missing.exit_code == 2
    assert "line 21" in missing.stderr and "job 21" in missing.stderr
    changed = mutate(WHOLE[:39], "instance", 30, random.Random(0))
    store(out, b"".join(changed))
    result = cli(*ARGS, "-o", str(out), "--resume")
    assert result.exit_code == 2 and "line 31" in result.stderr
    assert "its digest" in result.stderr


def test_a_file_without_digests_is_refused_in_one_line(tmp_path: Path) -> None:
    """A file an older lacak wrote (records without a digest) cannot be checked: it is
    refused, with what to do instead."""
    old = [line[: line.rindex(b',"digest":"')] + b"}\n" for line in WHOLE[:10]]
    out = tmp_path / "t.jsonl"
    store(out, b"".join(old))
    result = cli(*ARGS, "-o", str(out), "--resume")
    assert result.exit_code == 2, result.output
    assert "no digest" in result.stderr and "--overwrite" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_drawing_batch_with_a_record_missing_is_refused(tmp_path: Path) -> None:
    """With --unique, indices skip the draws rejected, so a gap alone proves nothing:
    the digests still tell a missing record from a rejected draw."""
    args = ["-n", "12", "--seed", "5", "-O", "kinds=20", "--unique"]
    out = tmp_path / "u.jsonl"
    assert cli(*args, "-o", str(out)).exit_code == 0
    lines = out.read_bytes().splitlines(keepends=True)
    indices = [json.loads(line)["index"] for line in lines]
    assert indices != list(range(12))  # some draws were rejected
    store(out, b"".join(lines[:4] + lines[5:9]))
    result = cli(*args, "-o", str(out), "--resume")
    assert result.exit_code == 2 and "cannot resume" in result.stderr
    store(out, b"".join(lines[:9]))
    assert cli(*args, "-o", str(out), "--resume").exit_code == 0
    assert out.read_bytes() == b"".join(lines)


# -- the states a killed gzip batch can leave ------------------------------------------


def gzip_members(data: bytes) -> list[tuple[int, int, list[bytes]]]:
    """``(start, end, lines)`` of each member of a gzip file (read here with zlib alone)."""
    members = []
    start = 0
    while start < len(data):
        inflate = zlib.decompressobj(wbits=31)
        lines = inflate.decompress(data[start:]).splitlines(keepends=True)
        end = len(data) - len(inflate.unused_data)
        members.append((start, end, lines))
        start = end
    return members


def lacak_member(lines: list[bytes]) -> bytes:
    """A gzip member as lacak writes one (docs/batch.md): level 6, no name, no time."""
    data = b"".join(lines)
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15, 8, 0)
    body = deflate.compress(data) + deflate.flush()
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + body + struct.pack("<II", zlib.crc32(data), len(data))


@pytest.fixture(scope="module")
def small_members(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The uninterrupted tick batch as gzip members of 2,000 bytes of records."""
    from lacak.batch import files as dataset_files

    out = tmp_path_factory.mktemp("members") / "t.jsonl.gz"
    with pytest.MonkeyPatch.context() as patched, using(TICK):
        patched.setattr(dataset_files, "MEMBER_BYTES", 2000)
        dataset.write(tick_spec(), out, count=40, seed=3, workers=2)
    data = out.read_bytes()
    assert gzip.decompress(data) == b"".join(WHOLE)
    members = gzip_members(data)
    assert len(members) >= 4 and all(len(b"".join(m[2])) >= 2000 for m in members[:-1])
    assert lacak_member(members[1][2]) == data[members[1][0] : members[1][1]]
    return data


def tick_spec() -> Any:
    return dataset.spec("tick", solve=True, options={"fail_every": 7}, registry=TICK)


@settings(max_examples=30, deadline=None)
@given(choice=st.data())
def test_every_state_a_killed_gzip_batch_can_leave_is_resumed(
    tmp_path_factory: pytest.TempPathFactory, small_members: bytes, choice: st.DataObject
) -> None:
    """The file holds whole members, then perhaps part of the next one (killed while it
    was written) or a short one (an interrupted run closes its member early); the tail
    holds the first records of the member being made, or of the member just written
    (killed before they left the tail). Each is resumed to the uninterrupted bytes."""
    from lacak.batch import files as dataset_files

    members = gzip_members(small_members)
    kept = choice.draw(st.integers(0, len(members) - 1), label="whole members kept")
    start, end, lines = members[kept]
    after = choice.draw(st.sampled_from(["nothing", "part", "short"]), label="then")
    data = small_members[:start]
    if after == "part":
        data += small_members[start : choice.draw(st.integers(start + 1, end - 1))]
    elif after == "short":
        data += lacak_member(lines[: choice.draw(st.integers(0, len(lines) - 1))])
    tail_of = members[kept - 1][2] if kept and after == "nothing" and choice.draw(
        st.booleans(), label="the tail holds the member just written") else lines  # fmt: skip
    tail = tail_of[: choice.draw(st.integers(0, len(tail_of)), label="records in the tail")]
    folder = tmp_path_factory.mktemp("state")
    out = folder / "t.jsonl.gz"
    out.write_bytes(data)
    if tail:
        (folder / "t.jsonl.gz.tail").write_bytes(b"".join(tail))
    with pytest.MonkeyPatch.context() as patched, using(TICK):
        patched.setattr(dataset_files, "MEMBER_BYTES", 2000)
        summary = dataset.write(tick_spec(), out, count=40, seed=3, workers=1, resume=True)
    assert out.read_bytes() == small_members
    assert summary.records == 40 and sorted(p.name for p in folder.iterdir()) == [out.name]


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
@pytest.mark.parametrize("first", ["0", "1", "13", "39"])
def test_a_finished_batch_made_longer_is_the_longer_batch(tmp_path: Path, name: str,
                                                          first: str) -> None:  # fmt: skip
    """A finished batch of ``first`` records, resumed with ``-n 40``: the bytes of a batch
    of 40 (a gzip file's last member, short, is taken up again)."""
    args = ["-n", "40", "--seed", "3", "-O", "kinds=30", "-a", "count"]
    whole, part = tmp_path / "whole" / name, tmp_path / "part" / name
    whole.parent.mkdir(), part.parent.mkdir()
    assert cli(*args, "-o", str(whole)).exit_code == 0
    assert cli(*[first if a == "40" else a for a in args], "-o", str(part)).exit_code == 0
    assert cli(*args, "-o", str(part), "--resume").exit_code == 0
    assert part.read_bytes() == whole.read_bytes()
    assert sorted(p.name for p in part.parent.iterdir()) == [name]


def test_a_tail_that_does_not_go_on_from_its_file_is_refused(tmp_path: Path) -> None:
    """The tail's records must go on from the gzip file's: overlap its last member, or
    follow it; records missing between the two, or records that differ, are refused."""
    out, tail = tmp_path / "t.jsonl.gz", tmp_path / "t.jsonl.gz.tail"
    store(out, b"".join(WHOLE[:10]))
    tail.write_bytes(b"".join(WHOLE[12:15]))  # jobs 10 and 11 missing
    gap = cli(*ARGS, "-o", str(out), "--resume")
    assert gap.exit_code == 2 and f"{tail} line 1 is job 12, but job 10" in gap.stderr
    tail.write_bytes(b"".join([*WHOLE[3:5], WHOLE[7]]))  # job 5 in the file, job 7 here
    other = cli(*ARGS, "-o", str(out), "--resume")
    assert other.exit_code == 2 and "does not go on from" in other.stderr
    for result in (gap, other):
        assert result.stderr.count("\n") == 1 and "cannot resume it" in result.stderr
    assert gzip.decompress(out.read_bytes()) == b"".join(WHOLE[:10])
    tail.write_bytes(b"".join(WHOLE[5:13]))  # (overlapping the file, then going on: fine)
    assert cli(*ARGS, "-o", str(out), "--resume").exit_code == 1
    assert gzip.decompress(out.read_bytes()) == b"".join(WHOLE)
    store(out, b"".join(WHOLE[:10]))
    tail.write_bytes(b"".join(WHOLE[10:12]))
    out.unlink()  # (killed before its first member was written: the records are in the tail)
    fresh = cli(*ARGS, "-o", str(out))
    assert fresh.exit_code == 2 and "t.jsonl.gz.tail exists: --resume finishes it" in fresh.stderr


# -- item 6: a job that kills its own process ------------------------------------------

DOOMED = textwrap.dedent('''
    """A batch of a generator that kills its own process for some jobs."""
    import json, os, signal, sys
    import lacak, lacak_search
    from lacak.batch import dataset
    from lacak.batch import job_seed
    from lacak.plugin.registry import using

    class Thing:
        def __init__(self, seed):
            self.seed = seed
        initial = 0
        def is_goal(self, state):
            return True
        def successors(self, state):
            return []
        def to_dict(self):
            return {"seed": self.seed % 1000}

    def make(size, seed, die=()):
        if seed in die:
            os.kill(os.getpid(), signal.SIGKILL)
        return Thing(seed)

    class Doomed:
        @lacak.hookimpl
        def register_generators(self, register):
            register(lacak.Generator(kind="doomed", name="make", make=make, options={"die": ()}))

    out, count, workers, resume, dying = sys.argv[1:6]
    registry = lacak.Registry(entry_points=False)
    registry.add_plugin(Doomed(), name="doomed")
    registry.add_plugin(lacak_search, name="search")
    die = tuple(job_seed(7, int(i)) for i in dying.split(",") if i)
    spec = dataset.spec("doomed", options={"die": die}, registry=registry)
    with using(registry):
        summary = dataset.write(spec, out, count=int(count), seed=7, workers=int(workers),
                                resume=resume == "resume")
    print(json.dumps(summary.to_dict()))
''')


def doomed(tmp_path: Path, out: Path, count: int, workers: int, dying: str,
           resume: bool = False) -> dict[str, Any]:  # fmt: skip
    script = tmp_path / "doomed.py"
    script.write_text(DOOMED)
    done = subprocess.run([sys.executable, str(script), str(out), str(count), str(workers),
                           "resume" if resume else "new", dying], capture_output=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, (done.returncode, done.stderr.decode()[-2000:])
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


@pytest.mark.parametrize("workers", [1, 2])
def test_a_job_that_kills_its_process_is_one_failed_record(tmp_path: Path, workers: int) -> None:
    """Job 0 (which warms the caches up before the pool starts) and a later job each kill
    the process they run in: the batch goes on, each is a record of a worker's death,
    and the file is the same for one worker and two."""
    out = tmp_path / f"w{workers}.jsonl"
    summary = doomed(tmp_path, out, 8, workers, "0,5")
    assert summary["records"] == 8 and summary["failed"] == 2
    assert summary["errors"] == {"WorkerDiedError": 2}
    records = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["index"] for r in records] == list(range(8))
    for record in records:
        if record["index"] in (0, 5):
            assert record["error"] == {"type": "WorkerDiedError", "message":
                                       f"worker died (signal 9, SIGKILL) twice running job "
                                       f"{record['index']}"}  # fmt: skip
        else:
            assert record["ok"] and record["seed"] == job_seed(7, record["index"])
    if workers == 2:
        one = tmp_path / "w1.jsonl"
        doomed(tmp_path, one, 8, 1, "0,5")
        assert one.read_bytes() == out.read_bytes()


def test_a_resume_goes_past_a_job_that_kills_its_process(tmp_path: Path) -> None:
    """With one worker, the first job of a resume (job 3) kills its process: the resume
    records it and finishes, instead of dying at the same job every time."""
    out = tmp_path / "r.jsonl"
    doomed(tmp_path, out, 3, 1, "3")
    summary = doomed(tmp_path, out, 6, 1, "3", resume=True)
    assert (summary["records"], summary["written"], summary["failed"]) == (6, 3, 1)
    whole = tmp_path / "whole.jsonl"
    doomed(tmp_path, whole, 6, 1, "3")
    assert out.read_bytes() == whole.read_bytes()


class Recorder:
    """A progress reporter that notes what it is shown."""

    def __init__(self) -> None:
        self.said: list[Any] = []

    def start(self, description: str, total: float | None) -> Any:
        self.said.append(("start", description, total))
        return self

    def stop(self, task: Any) -> None:
        self.said.append(("stop",))

    def announce(self, message: str) -> None:
        self.said.append(("announce", message))

    def update(self, **fields: Any) -> None:
        self.said.append(("update", fields.get("description")))

    def advance(self, amount: float = 1) -> None:
        self.said.append(("advance", amount))


def building(size: Any, seed: int) -> Any:
    """A tick generator that reports a one-time build, as a pattern database would."""
    import lacak

    from .plugin_helpers import make_tick

    lacak.progress.announce(f"building once, for seed {seed}")
    with lacak.progress.task("building", total=2) as step:
        step.advance()
        step.advance()
    return make_tick(size, seed)


def test_the_first_job_s_progress_is_shown_here(tmp_path: Path) -> None:
    """The first job runs in a process of its own, yet what it reports (a build) is shown
    by this process's reporter; the other jobs, in the pool, show nothing."""
    import lacak

    from .plugin_helpers import make_registry

    class Building:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(lacak.Generator(kind="tick", name="building", make=building))

    registry = make_registry(Building())
    spec = dataset.spec("tick", registry=registry)
    recorder = Recorder()
    with using(registry), lacak.progress.reporting(recorder):
        dataset.write(spec, tmp_path / "t.jsonl", count=6, seed=2, workers=2)
    said = [entry for entry in recorder.said if entry[:2] != ("start", "tick batch")]
    assert ("announce", f"building once, for seed {job_seed(2, 0)}") in said
    assert ("start", "building", 2) in said
    assert sum(entry[1] for entry in said if entry[0] == "advance") == 2
    assert sum(1 for entry in said if entry[0] == "announce") == 1


# -- item 5: SIGKILL at any moment, a full disk ------------------------------------------

MAZES = ["batch", "maze", "--size", "8x8", "-n", "2500", "--solution", "--seed", "9"]
#: ``lacak`` with small gzip members, so that a short run closes many of them
SMALL_MEMBERS = ("import sys, lacak.batch.files as f; f.MEMBER_BYTES = 1 << 15; "
                 "from lacak.cli import main; sys.argv[0] = 'lacak'; main()")  # fmt: skip


def lacak_command(*args: str) -> list[str]:
    return [sys.executable, "-c", SMALL_MEMBERS, *args]


def environment() -> dict[str, str]:
    return {**os.environ, "LACAK_PROGRESS": "0"}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("whole")
    files = {}
    for name in ("m.jsonl", "m.jsonl.gz", "m.npz"):
        out = folder / name
        subprocess.run(lacak_command(*MAZES, "-w", "2", "-o", str(out)), check=True,
                       env=environment(), capture_output=True, timeout=300)  # fmt: skip
        files[name] = out.read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    return files


def resume(out: Path, workers: str = "2") -> dict[str, Any]:
    done = subprocess.run(lacak_command(*MAZES, "-w", workers, "-o", str(out), "--resume",
                                        "--json"), env=environment(), capture_output=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


@pytest.mark.parametrize("name", ["m.jsonl", "m.jsonl.gz", "m.npz"])
@pytest.mark.parametrize("trial", range(2))
def test_a_batch_killed_at_any_moment_resumes_to_the_same_bytes(
    tmp_path: Path, uninterrupted: dict[str, bytes], name: str, trial: int
) -> None:
    """SIGKILL at a seeded random moment of a real ``lacak batch``, then ``--resume``:
    the records finished before the kill are kept (all but the last half second's), the
    finished file is the uninterrupted run's, and nothing else is left in its folder."""
    rng = random.Random(f"{name}-{trial}")
    out = tmp_path / name
    process = subprocess.Popen(lacak_command(*MAZES, "-w", "2", "-o", str(out)),
                               env=environment(), stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(p.stat().st_size for p in tmp_path.iterdir()):
        time.sleep(0.02)
    time.sleep(rng.uniform(0.1, 1.5))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    if process.returncode == -signal.SIGKILL:
        summary = resume(out)
        assert summary["records"] - summary["written"] > 0  # what was finished was kept
    assert out.read_bytes() == uninterrupted[name]
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("name", ["m.jsonl", "m.jsonl.gz", "m.npz"])
@pytest.mark.parametrize("limit", [60_000])
def test_a_full_disk_then_a_resume_leaves_the_file_alone(
    tmp_path: Path, uninterrupted: dict[str, bytes], name: str, limit: int
) -> None:
    """A file-size limit the writer runs into (as into a full disk): the run fails with
    one line; a resume finishes the file, and no temporary file is left."""
    out = tmp_path / name

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(lacak_command(*MAZES, "-w", "2", "-o", str(out)), env=environment(),
                          capture_output=True, timeout=300, preexec_fn=limited)  # fmt: skip
    assert done.returncode == 1, done.stderr.decode()
    assert done.stderr.decode().strip().splitlines()[-1].startswith("Error: ")
    summary = resume(out)
    assert summary["records"] == 2500
    assert out.read_bytes() == uninterrupted[name]
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_full_disk_while_the_npz_is_made_leaves_no_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No room for the ``.npz`` once its journal is complete: the journal stays for the
    resume, and nothing half-made is left beside it."""
    import errno

    from lacak.batch import files as dataset_files

    spec = dataset.spec("maze", size=(5, 5), kind_options={"solution": True})
    out = tmp_path / "m.npz"

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(dataset_files.shutil, "copyfileobj", full)
        with pytest.raises(OSError, match="No space left"):
            dataset.write(spec, out, count=30, seed=1, workers=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz.jsonl"]
    dataset.write(spec, out, count=30, seed=1, workers=2, resume=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz"]


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("what", ["fifo", "folder", "device", "tail-fifo"])
def test_an_output_that_is_not_a_regular_file_is_refused_without_blocking(
    tmp_path: Path, what: str, resume: bool
) -> None:
    """A FIFO (which a plain ``open`` waits on for ever), a folder or ``/dev/zero`` (read
    back without end) as the output, or in place of a gzip file's tail: one line, exit
    status 2, before anything is read or written."""
    name = "t.jsonl.gz" if what == "tail-fifo" else "t.jsonl"
    out = tmp_path / name
    bad = tmp_path / "t.jsonl.gz.tail" if what == "tail-fifo" else out
    if what in ("fifo", "tail-fifo"):
        os.mkfifo(bad)
    elif what == "folder":
        bad.mkdir()
    else:
        out.symlink_to("/dev/zero")
    done = cli(*ARGS, "-o", str(out), *(["--resume"] if resume else []))
    assert done.exit_code == 2, done.output
    kind = {"fifo": "a FIFO", "tail-fifo": "a FIFO", "folder": "a folder",
            "device": "a character device"}[what]  # fmt: skip
    assert done.output == (f"Error: {bad} is not a regular file ({kind}): a batch is written "
                           "to a file, or to standard output with -o -\n")  # fmt: skip


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
def test_a_line_longer_than_any_record_is_refused_not_read_on(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file to resume whose line runs on past the input limit (a file of zeros, say) is
    refused once that much is read: what a resume holds stays bounded."""
    monkeypatch.setenv("LACAK_MAX_INPUT_MB", "1")
    out = tmp_path / name
    store(out, WHOLE[0] + b"0" * 3_000_000)
    done = cli(*ARGS, "-o", str(out), "--resume")
    assert done.exit_code == 2, done.output
    assert done.output.startswith(f"Error: {out} has a line of over 1 MB, longer than any record")
    assert done.output.count("\n") == 1


def test_a_finished_npz_resumes_to_nothing_and_a_foreign_one_is_refused(
    tmp_path: Path,
) -> None:
    """Killed after the ``.npz`` was made and its journal removed, but before the process
    ended: ``--resume`` finds the batch finished (as for JSON Lines), writes nothing and
    leaves the file's bytes; an ``.npz`` of another seed or count is refused in one line."""
    from lacak.errors import InvalidOptionError

    spec = dataset.spec("maze", size=(4, 4))
    out = tmp_path / "m.npz"
    dataset.write(spec, out, count=12, seed=5, workers=1)
    made = out.read_bytes()
    summary = dataset.write(spec, out, count=12, seed=5, workers=1, resume=True)
    assert (summary.records, summary.written, summary.ok, summary.complete) == (12, 0, 12, True)
    assert out.read_bytes() == made
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz"]
    with pytest.raises(InvalidOptionError, match="another --seed; cannot resume it"):
        dataset.write(spec, out, count=12, seed=6, workers=1, resume=True)
    with pytest.raises(InvalidOptionError, match="12 records, not the 13 asked for"):
        dataset.write(spec, out, count=13, seed=5, workers=1, resume=True)
    out.write_bytes(b"not a zip file")
    with pytest.raises(InvalidOptionError, match=r"is not an \.npz file of a lacak batch"):
        dataset.write(spec, out, count=12, seed=5, workers=1, resume=True)
    assert out.read_bytes() == b"not a zip file"


class FullDisk:
    """A file whose disk fills after ``room`` bytes: the write that does not fit writes
    what fits, then raises ``ENOSPC`` (as a real full disk does), and so does each after."""

    def __init__(self, file: Any, room: int) -> None:
        self.file = file
        self.room = room

    def write(self, data: bytes) -> int:
        import errno

        if len(data) > self.room:
            self.file.write(data[: self.room])
            self.file.flush()
            self.room = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return int(self.file.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)

    def __enter__(self) -> FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()


@pytest.mark.parametrize("which", ["t.jsonl.gz", "t.jsonl.gz.tail", "t.jsonl"])
@settings(max_examples=8, deadline=None)
@given(share=st.floats(0, 0.99))
def test_a_disk_that_fills_at_any_byte_loses_nothing_a_resume_cannot_make(
    tmp_path_factory: pytest.TempPathFactory, small_members: bytes, which: str, share: float
) -> None:
    """The disk fills while a record, a gzip member or the tail is written (the write
    cut at any byte): the run fails with the disk's error, and a resume (with room
    again) finishes the file to the uninterrupted bytes, leaving no other file."""
    import builtins

    from lacak.batch import files as dataset_files

    folder = tmp_path_factory.mktemp("full")
    out = folder / which.replace(".tail", "")
    written = len(small_members if which == "t.jsonl.gz" else b"".join(WHOLE))
    room = int(share * written)  # (of the bytes the file would be given, in all)

    def filling(path: Any, *args: Any, **kwargs: Any) -> Any:
        file = builtins.open(path, *args, **kwargs)  # noqa: SIM115
        return FullDisk(file, room) if Path(path).name == which else file

    with pytest.MonkeyPatch.context() as patched, using(TICK):
        patched.setattr(dataset_files, "MEMBER_BYTES", 2000)
        patched.setattr(dataset_files, "open", filling, raising=False)
        with pytest.raises(OSError, match="No space left"):
            dataset.write(tick_spec(), out, count=40, seed=3, workers=2)
        patched.delattr(dataset_files, "open")
        dataset.write(tick_spec(), out, count=40, seed=3, workers=2, resume=True)
    expected = small_members if out.name.endswith(".gz") else b"".join(WHOLE)
    assert out.read_bytes() == expected
    assert sorted(p.name for p in folder.iterdir()) == [out.name]


def test_the_notes_of_a_killed_batch_s_workers_are_swept(tmp_path: Path) -> None:
    """A batch killed before it could remove its folder of workers' notes (in the system's
    temporary folder) leaves it; the next batch that starts a pool removes it, and only
    the folders of processes that are gone."""
    import tempfile

    from lacak.batch import run_many

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, check=True)  # fmt: skip
    dead = Path(tempfile.gettempdir()) / f"lacak-batch-{int(gone.stdout)}-left"
    alive = Path(tempfile.gettempdir()) / f"lacak-batch-{os.getpid()}-mine"
    for folder in (dead, alive):
        (folder / "0").mkdir(parents=True, exist_ok=True)
    try:
        assert [r.value for r in run_many(abs, [-1, -2, -3], workers=2)] == [1, 2, 3]
        assert not dead.exists() and alive.exists()
    finally:
        for folder in (dead, alive):
            shutil.rmtree(folder, ignore_errors=True)


# -- item 16: workers end with their parent ----------------------------------------------


def test_a_worker_whose_parent_died_before_it_watched_ends() -> None:
    """The race a loaded machine showed: the pool's maker killed between a worker's fork
    and its watch (the worker already handed to another process, which it then took for
    its parent): the worker ends all the same, seeing that the pool's maker is gone."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    script = ("import time; from lacak.batch.processes import end_with_parent\n"
              f"end_with_parent({gone}, False)\ntime.sleep(120)\n")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], timeout=60, check=False)
    assert done.returncode == 1  # ended by its watch, long before its two minutes


ON_A_THREAD = textwrap.dedent("""
    import sys, threading, time
    from lacak.batch import run_many
    thread = threading.Thread(target=run_many, args=(time.sleep, [0.2] * 10_000),
                              kwargs={"workers": 2})
    thread.start()
    thread.join()
""")


@pytest.mark.parametrize("how", ["-w 1", "-w 2", "a pool made on another thread"])
def test_workers_end_when_their_parent_is_killed(tmp_path: Path, how: str) -> None:
    """``lacak batch`` (or a program whose pool was made on a thread other than its main
    one, where workers watch their parent themselves) killed with SIGKILL: its workers
    end too."""
    psutil = pytest.importorskip("psutil")

    out = tmp_path / "m.jsonl"
    workers = 1 if how == "-w 1" else 2
    if how.startswith("-w"):
        command = [sys.executable, "-m", "lacak", "batch", "maze", "--size", "20x20", "-n",
                   "1000000", "--solution", *how.split(), "-o", str(out)]  # fmt: skip
    else:
        command = [sys.executable, "-c", ON_A_THREAD]
        out.write_bytes(b"(no file: the pool is watched)")
    process = subprocess.Popen(command, env=environment(), stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        children: list[Any] = []
        while time.monotonic() < deadline and (len(children) < workers or not (
            out.exists() and out.stat().st_size
        )):  # (the first job runs alone; then the pool's workers start)
            time.sleep(0.05)
            children = psutil.Process(process.pid).children(recursive=True)
        assert len(children) >= workers
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)

    def alive() -> list[Any]:
        found = []
        for child in children:
            try:
                if child.status() != psutil.STATUS_ZOMBIE:
                    found.append(child)
            except psutil.NoSuchProcess:
                continue
        return found

    deadline = time.monotonic() + 30  # (they end at once; 30 s is for a loaded machine)
    while alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive()
    for child in left:
        child.kill()
    assert not left, f"{len(left)} worker(s) outlived their parent"
