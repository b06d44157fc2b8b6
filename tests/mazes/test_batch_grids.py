"""``lacak batch maze --grid NAME --mask FILE --braid P``: datasets on every grid, the
same bytes whatever runs the jobs, resumable, and as ``.npz`` with the links."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from lacak.batch import job_seed
from lacak.cli import make_cli
from lacak_mazes.grids import GRIDS

#: A size for each grid (a polar grid's is its rings, twice).
SIZES = {name: ("4x4" if name == "polar" else "4x5") for name in GRIDS}
MASK = "X...X\n.....\n..X..\n.....\n"


def cli(*args: str) -> Any:
    return CliRunner().invoke(make_cli(), ["batch", "maze", "--seed", "9", *args])


def records(*args: str) -> list[dict[str, Any]]:
    result = cli("-w", "1", *args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("grid", sorted(GRIDS))
def test_every_grid_s_records_are_the_generator_s_mazes_solved(grid: str) -> None:
    size = SIZES[grid]
    found = records("-a", "wilson", "--grid", grid, "--size", size, "-n", "3", "--solution",
                    "--solve")  # fmt: skip
    rows, cols = map(int, size.split("x"))
    for record in found:
        maze = lacak.generate("maze", "wilson", (rows, cols), seed=job_seed(9, record["index"]),
                              grid=grid).with_endpoints()  # fmt: skip
        assert record["instance"] == maze.to_dict()
        result = record["result"]
        assert result["found"] and result["maze"]["path"] == record["instance"]["solution"]
        if grid != "rect":
            assert record["instance"]["grid"]["type"] == grid
            assert len(record["instance"]["links"]) == len(record["instance"]["cells"]) - 1


def test_a_mask_file_and_braids_are_the_generator_s_options(tmp_path: Path) -> None:
    mask = tmp_path / "mask.txt"
    mask.write_text(MASK, encoding="utf-8")
    found = records("-a", "kruskal", "--grid", "hex", "--mask", str(mask), "--braid", "0.5",
                    "-n", "3", "--endpoints")  # fmt: skip
    for record in found:
        options = record["instance"]["options"]
        assert options == {"grid": "hex", "mask": "X...X/...../..X../.....", "braid": 0.5}
        maze = lacak.generate("maze", "kruskal", None, seed=job_seed(9, record["index"]),
                              **options).with_endpoints(solution=False)  # fmt: skip
        assert record["instance"] == maze.to_dict()
        assert record["instance"]["grid"]["mask"] == ["X...X", ".....", "..X..", "....."]
    # -O gives the same options
    same = records("-a", "kruskal", "-O", "grid=hex", "-O", "mask=X...X/...../..X../.....",
                   "-O", "braid=0.5", "-n", "3", "--endpoints")  # fmt: skip
    assert same == found


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--grid", "nope"), "no maze grid 'nope'"),
        (("--braid", "lots"), "--braid is the share of dead ends"),
        (("--mask", "/no/such/mask.txt"), "cannot read"),
        (("-a", "eller", "--grid", "hex"), "eller works row by row"),
        (("--grid", "polar", "--mask", "MASK"), "a polar grid takes no mask"),
    ],
)
def test_bad_grid_options_are_one_line_before_anything_is_written(
    tmp_path: Path, args: tuple[str, ...], says: str
) -> None:
    mask = tmp_path / "mask.txt"
    mask.write_text(MASK, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    given = [str(mask) if a == "MASK" else a for a in args]
    result = cli("-w", "1", "--size", "4x4", "-n", "2", *given, "-o", str(out))
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and says in message, message
    assert not out.exists() or out.read_bytes() == b""


@pytest.mark.parametrize("grid", ["hex", "polar"])
def test_the_same_bytes_whatever_runs_the_jobs_and_after_a_resume(
    tmp_path: Path, grid: str
) -> None:
    args = ("-a", "prim-frontier", "--grid", grid, "--size", SIZES[grid], "-n", "12",
            "--solution", "--solve")  # fmt: skip
    one = tmp_path / "one.jsonl.gz"
    assert cli(*args, "-w", "1", "-o", str(one)).exit_code == 0
    two = tmp_path / "two.jsonl.gz"
    assert cli(*args, "-w", "2", "--chunk-size", "1", "-o", str(two)).exit_code == 0
    assert one.read_bytes() == two.read_bytes()
    plain = tmp_path / "plain.jsonl"
    assert cli(*args, "-w", "2", "-o", str(plain)).exit_code == 0
    lines = plain.read_bytes().splitlines(keepends=True)
    assert len(lines) == 12
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:5]) + lines[5][:40])  # killed in the middle of a record
    resumed = cli(*args, "-w", "2", "-o", str(cut), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert cut.read_bytes() == plain.read_bytes()


def test_npz_on_a_grid_has_the_cells_links_and_ends_by_id(tmp_path: Path) -> None:
    out = tmp_path / "hex.npz"
    result = cli("-w", "2", "-a", "wilson", "--grid", "hex", "--size", "4x5", "-n", "5",
                 "--solution", "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    jsonl = tmp_path / "hex.jsonl"
    assert cli("-w", "1", "-a", "wilson", "--grid", "hex", "--size", "4x5", "-n", "5",
               "--solution", "-o", str(jsonl)).exit_code == 0  # fmt: skip
    found = [json.loads(line) for line in jsonl.read_text().splitlines()]
    with np.load(out) as arrays:
        assert "weights" not in arrays  # no record has weights
        assert arrays["cells"].shape == (5, 20, 2)
        assert arrays["links"].shape[:2] == (5, 19)  # pairs of cell ids
        for i, record in enumerate(found):
            maze = record["instance"]
            assert arrays["cells"][i].tolist() == maze["cells"]
            assert arrays["links"][i].tolist() == maze["links"]
            assert arrays["start"][i].tolist() == maze["start"]
            assert arrays["end"][i].tolist() == maze["end"]
            length = arrays["solution_shape"][i, 0]
            assert arrays["solution"][i][:length].tolist() == maze["solution"]


def test_braided_links_are_padded_with_their_count(tmp_path: Path) -> None:
    out = tmp_path / "braided.npz"
    result = cli("-w", "1", "-a", "recursive-backtracker", "--grid", "torus", "--size", "5x5",
                 "--braid", "1", "-n", "6", "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    with np.load(out) as arrays:
        counts = arrays["links_shape"][:, 0]
        assert (counts >= 24).all() and counts.max() > 24  # loops: more links than a tree
        for i, count in enumerate(counts.tolist()):
            assert (arrays["links"][i][count:] == -1).all()
            assert (arrays["links"][i][:count] >= 0).all()


def test_the_rectangle_s_npz_is_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "rect.npz"
    assert cli("-w", "1", "--size", "4x4", "-n", "3", "--solution", "-o", str(out)).exit_code == 0
    with np.load(out) as arrays:
        assert sorted(arrays) == sorted(["index", "seed", "ok", "digest", "cells", "start", "end",
                                         "solution", "solution_shape"])  # fmt: skip
        assert arrays["cells"].shape == (3, 4, 4) and arrays["cells"].dtype == np.uint8


def test_a_dask_cluster_writes_the_same_bytes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from lacak.batch import dataset

    spec = dataset.spec("maze", generator="wilson", size=(4, 4), options={"grid": "polar"},
                        kind_options={"solution": True, "braid": "0.5"})  # fmt: skip
    on_dask = tmp_path / "dask.jsonl"
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:  # fmt: skip
        dataset.write(spec, on_dask, count=6, seed=9, executor=client.get_executor())
    here = tmp_path / "here.jsonl"
    result = cli("-w", "1", "-a", "wilson", "--grid", "polar", "--size", "4x4", "--solution",
                 "--braid", "0.5", "-n", "6", "-o", str(here))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert on_dask.read_bytes() == here.read_bytes()


def test_weighted_mazes_stack_their_weights(tmp_path: Path) -> None:
    out = tmp_path / "weighted.npz"
    result = cli("-w", "1", "-a", "kruskal", "--grid", "triangle", "--size", "3x5", "-n", "4",
                 "-O", "weights=1-9", "--solution", "--solve", "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    with np.load(out) as arrays:
        assert arrays["weights"].shape == (4, 15)
        assert arrays["weights"].min() >= 1 and arrays["weights"].max() <= 9
        assert arrays["links"].shape[:2] == (4, 14)
