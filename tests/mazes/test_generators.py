"""Every registered maze generator (third-party ones too) against the generator contract,
plus the options, the seeds and the exact algorithms behind kruskal and prim."""

from __future__ import annotations

from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import GeneratorContract
from lacak.testing import strategies as lst
from lacak_mazes import Maze
from lacak_mazes.generators._common import Rng
from lacak_mazes.generators.kruskal import edge_weights, minimum_spanning_tree

from .helpers import hunt_and_kill_reference, kruskal_reference, prim_reference


class MazeGeneratorContract(GeneratorContract):
    """The core contract with maze sizes from 1x1 upward."""

    kind = "maze"
    max_examples = 25

    def sizes(self) -> st.SearchStrategy[Any]:
        return lst.grid_sizes(min_side=1, max_side=14)


# One contract class per registered generator, so a third-party maze
# generator installed in this environment is checked too.
for _name in sorted(lacak.generators("maze")):
    _class_name = "TestContract_" + _name.replace("-", "_")
    globals()[_class_name] = type(_class_name, (MazeGeneratorContract,), {"algorithm": _name})

OPTION_VARIANTS = [
    ("hunt-and-kill", {"hunt": "random"}),
    ("hunt-and-kill", {"hunt": "columns"}),
    ("hunt-and-kill", {"hunt_chance": 0.3}),
    ("hunt-and-kill", {"hunt": "columns", "hunt_chance": 1.0}),
    ("hunt-and-kill", {"hunt": "random", "hunt_chance": 0.05}),
    ("growing-tree", {"policy": "oldest"}),
    ("growing-tree", {"policy": "random"}),
    ("growing-tree", {"policy": "mix", "newest": 0.25}),
    ("binary-tree", {"bias": "SE"}),
    ("binary-tree", {"bias": "NE"}),
    ("eller", {"join": 0.9, "down": 0.1}),
    ("eller", {"join": 0.0, "down": 1.0}),
]


class TestHuntRandom(MazeGeneratorContract):
    algorithm = "hunt-and-kill"
    options: ClassVar[dict[str, Any]] = {"hunt": "random"}


class TestHuntColumns(MazeGeneratorContract):
    algorithm = "hunt-and-kill"
    options: ClassVar[dict[str, Any]] = {"hunt": "columns"}


class TestHuntOften(MazeGeneratorContract):
    algorithm = "hunt-and-kill"
    options: ClassVar[dict[str, Any]] = {"hunt_chance": 0.4}


class TestGrowingTreeMix(MazeGeneratorContract):
    algorithm = "growing-tree"
    options: ClassVar[dict[str, Any]] = {"policy": "mix", "newest": 0.75}


@pytest.mark.parametrize(("name", "options"), OPTION_VARIANTS)
@settings(max_examples=15)
@given(size=lst.grid_sizes(max_side=12), seed=lst.seeds())
def test_option_variants_make_perfect_mazes(
    name: str, options: dict[str, Any], size: tuple[int, int], seed: int
) -> None:
    maze = lacak.generate("maze", name, size, seed=seed, **options)
    maze.validate_perfect()
    assert maze.shape == size and maze.algorithm == name and maze.seed == seed


@pytest.mark.parametrize("name", sorted(lacak.generators("maze")))
def test_metadata_and_different_seeds(name: str) -> None:
    generator = lacak.generators("maze")[name]
    meta = generator.metadata
    if generator.make.__module__.startswith("lacak_mazes"):
        assert meta["perfect"] is True
        assert 0.0 <= meta["dead_ends"] <= 0.5
        assert meta["uniform"] == (name in ("wilson", "aldous-broder"))
    mazes = {lacak.generate("maze", name, (8, 8), seed=seed) for seed in range(6)}
    distinct = {maze.cells.tobytes() for maze in mazes}
    assert len(distinct) >= 5  # 8x8 has about 10**22 perfect mazes


def test_no_seed_picks_one_and_records_it() -> None:
    maze = lacak.generate("maze", "hunt-and-kill", (6, 7))
    assert isinstance(maze.seed, int) and maze.seed >= 0
    assert lacak.generate("maze", "hunt-and-kill", (6, 7), seed=maze.seed) == maze


def test_seeds_are_stable_across_versions() -> None:
    """Pinned outputs: the derivation of numbers from PCG64's raw stream must not change."""
    assert Rng(7).raw(2).tolist() == Rng(7).raw(2).tolist()
    maze = lacak.generate("maze", "hunt-and-kill", (3, 4), seed=7)
    assert maze == Maze.from_json(maze.to_json())
    assert lacak.generate("maze", "binary-tree", (2, 2), seed=1).passages == 3


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ((0, 3), "at least 1x1"),
        ((3, -1), "at least 1x1"),
        ((5000, 5000), "at most 16,777,216 cells"),
        ((2.5, 3), "whole numbers"),
        ("3", None),
        ("axb", "look like 3x4"),
        ((1, 2, 3), "(rows, cols)"),
        (None, "needs a size"),
    ],
)
def test_bad_sizes(size: Any, message: str | None) -> None:
    if message is None:
        assert lacak.generate("maze", "kruskal", size, seed=1).shape == (3, 3)
        return
    with pytest.raises(
        lacak.InvalidOptionError, match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        lacak.generate("maze", "kruskal", size, seed=1)


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("hunt-and-kill", {"hunt": "sideways"}, "hunt"),
        ("growing-tree", {"policy": "middle"}, "policy"),
        ("growing-tree", {"policy": "mix", "newest": 1.5}, "probability"),
        ("binary-tree", {"bias": "up"}, "bias"),
        ("eller", {"join": -0.1}, "probability"),
        ("eller", {"join": "x"}, "probability"),
        ("eller", {"down": "0.5"}, "probability"),
        ("eller", {"join": True}, "probability"),
        ("eller", {"join": float("nan")}, "probability"),
        ("eller", {"down": None}, "probability"),
        ("growing-tree", {"policy": "mix", "newest": "x"}, "probability"),
        ("growing-tree", {"policy": "mix", "newest": [0.5]}, "probability"),
        ("growing-tree", {"policy": ["mix"]}, "policy"),
        ("hunt-and-kill", {"hunt": None}, "hunt"),
        ("hunt-and-kill", {"hunt_chance": 1.5}, "probability"),
        ("hunt-and-kill", {"hunt_chance": "0.1"}, "probability"),
        ("hunt-and-kill", {"hunt": "columns", "hunt_chance": -0.1}, "probability"),
        ("binary-tree", {"bias": 5}, "bias"),
        ("wilson", {"speed": 2}, "takes no option"),
    ],
)
def test_bad_options(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=message):
        lacak.generate("maze", name, (4, 4), seed=1, **options)


def test_bad_seeds() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="non-negative"):
        lacak.generate("maze", "wilson", (3, 3), seed=-1)
    with pytest.raises(lacak.InvalidOptionError, match="non-negative"):
        lacak.generate("maze", "wilson", (3, 3), seed="7")  # type: ignore[arg-type]


@settings(max_examples=40)
@given(size=lst.grid_sizes(max_side=7), seed=lst.seeds())
def test_boruvka_is_kruskal_and_prim_wall_for_wall(size: tuple[int, int], seed: int) -> None:
    height, width = size
    east_rank, south_rank = edge_weights(height, width, Rng(seed))
    east, south = minimum_spanning_tree(height, width, east_rank, south_rank)
    fast = Maze.from_edges(east, south)
    assert fast == kruskal_reference(height, width, east_rank, south_rank)
    assert fast == prim_reference(height, width, east_rank, south_rank)


@settings(max_examples=60)
@given(size=lst.grid_sizes(max_side=12), seed=lst.seeds())
def test_hunt_and_kill_hunts_like_a_scan_from_the_top(size: tuple[int, int], seed: int) -> None:
    """The forward-only hunt picks exactly the cells a full scan from the top picks."""
    from lacak_mazes.generators.huntkill import hunt_and_kill

    assert hunt_and_kill(*size, seed) == hunt_and_kill_reference(*size, seed)


@settings(max_examples=80)
@given(
    size=lst.grid_sizes(max_side=12),
    seed=lst.seeds(),
    chance=st.one_of(st.sampled_from([1.0, 0.5, 5e-324]), st.floats(0.0, 1.0)),
)
def test_hunt_and_kill_hunting_early_still_hunts_like_a_scan_from_the_top(
    size: tuple[int, int], seed: int, chance: float
) -> None:
    """Hunts the walk did not need (hunt_chance) keep the forward-only scan exact."""
    from lacak_mazes.generators.huntkill import hunt_and_kill

    fast = hunt_and_kill(*size, seed, hunt_chance=chance)
    assert fast == hunt_and_kill_reference(*size, seed, hunt_chance=chance)


@pytest.mark.parametrize("size", [(1, 30), (2, 40), (3, 25), (40, 2), (2, 2)])
@pytest.mark.parametrize("chance", [0.0, 0.5, 1.0])
def test_hunt_and_kill_on_thin_grids_hunts_like_a_scan_from_the_top(
    size: tuple[int, int], chance: float
) -> None:
    """Thin grids keep cell (0, 0) unvisited for long: the hunt's special case at work."""
    from lacak_mazes.generators.huntkill import hunt_and_kill

    for seed in range(12):
        fast = hunt_and_kill(*size, seed, hunt_chance=chance)
        assert fast == hunt_and_kill_reference(*size, seed, hunt_chance=chance), seed


class SerpentinePlugin:
    """The third-party generator of docs/mazes.md, registered by hand."""

    @staticmethod
    def serpentine(size: Any, seed: int | None = None, **options: Any) -> Maze:
        import numpy as np

        rows, cols = size
        east = np.ones((rows, cols), dtype=bool)
        south = np.zeros((rows, cols), dtype=bool)
        for r in range(rows - 1):
            south[r, cols - 1 if r % 2 == 0 else 0] = True
        return Maze.from_edges(east, south, algorithm="serpentine", seed=seed)

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        register(
            lacak.Generator(
                kind="maze",
                name="serpentine",
                make=self.serpentine,
                metadata={"perfect": True, "uniform": False, "dead_ends": 0.0},
            )
        )


def _registry_with_serpentine() -> lacak.Registry:
    registry = lacak.Registry()
    registry.add_plugin(SerpentinePlugin(), "serpentine")
    return registry


class TestThirdPartyGenerator(MazeGeneratorContract):
    """The documented example passes the same contract, through the registry."""

    registry = _registry_with_serpentine()
    algorithm = "serpentine"


def test_third_party_generator_in_the_cli() -> None:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    cli = make_cli(_registry_with_serpentine())
    listed = CliRunner().invoke(cli, ["maze", "algorithms", "--json"])
    assert "serpentine" in [
        row["name"] for row in __import__("json").loads(listed.stdout)["algorithms"]
    ]
    drawn = CliRunner().invoke(
        cli,
        [
            "maze",
            "generate",
            "-a",
            "serpentine",
            "--size",
            "3x4",
            "--solution",
            "-f",
            "text",
            "--ascii",
        ],
    )
    assert drawn.exit_code == 0 and drawn.stdout.startswith("+---+---+---+---+")


def test_a_broken_generator_fails_the_contract() -> None:
    """The contract can fail: a generator that leaves a loop is caught by validate."""

    class Loopy:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            def make(size: Any, seed: int | None = None) -> Maze:
                import numpy as np

                rows, cols = size
                return Maze.from_edges(np.ones((rows, cols), bool), np.ones((rows, cols), bool))

            register(lacak.Generator(kind="maze", name="loopy", make=make))

    registry = lacak.Registry()
    registry.add_plugin(Loopy(), "loopy")
    contract = type("C", (MazeGeneratorContract,), {"registry": registry, "algorithm": "loopy"})()
    with pytest.raises(lacak.InvalidPuzzleError, match="loops"):
        contract.test_instances_are_valid()
