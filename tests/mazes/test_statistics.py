"""Statistical tests with fixed seeds: uniformity of Wilson and Aldous-Broder, and textures.

Every test here is deterministic (fixed seeds); the thresholds are the 0.1%
points of the chi-square law, so a correct uniform sampler passes and a
biased one (checked with the recursive backtracker) fails.
"""

from __future__ import annotations

import math
from collections import Counter

import lacak
import pytest

from .helpers import spanning_trees


def chi_square_limit(df: int, z: float = 3.09) -> float:
    """Upper 0.1% point of chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(name: str, shape: tuple[int, int], samples: int) -> tuple[float, int, Counter]:
    trees = {maze.cells.tobytes() for maze in spanning_trees(*shape)}
    generator = lacak.generators("maze")[name]
    counts = Counter(generator(shape, seed).cells.tobytes() for seed in range(samples))
    assert set(counts) <= trees, "a sample is not a perfect maze of the grid"
    expected = samples / len(trees)
    statistic = sum((counts.get(tree, 0) - expected) ** 2 / expected for tree in trees)
    return statistic, len(trees) - 1, counts


@pytest.mark.parametrize("name", ["wilson", "aldous-broder"])
@pytest.mark.parametrize(("shape", "samples"), [((2, 2), 400), ((2, 3), 1500), ((3, 3), 9600)])
def test_uniform_over_all_perfect_mazes(name: str, shape: tuple[int, int], samples: int) -> None:
    statistic, df, counts = chi_square(name, shape, samples)
    assert len(counts) == df + 1  # every perfect maze of the grid shows up
    assert statistic < chi_square_limit(df), (statistic, chi_square_limit(df))


def test_the_uniformity_test_rejects_a_biased_generator() -> None:
    statistic, df, _counts = chi_square("recursive-backtracker", (3, 3), 4800)
    assert statistic > 5 * chi_square_limit(df)


def test_the_uniform_generators_are_flagged() -> None:
    generators = lacak.generators("maze")
    flagged = {name for name in generators if generators[name].metadata.get("uniform")}
    assert {"wilson", "aldous-broder"} <= flagged


#: Published dead-end shares (Walter Pullen, "Think Labyrinth": maze algorithms)
#: that the issue names: about 10% and about 29-30%.
PUBLISHED = {
    "hunt-and-kill": (0.08, 0.12),
    "recursive-backtracker": (0.08, 0.12),
    "wilson": (0.28, 0.31),
    "aldous-broder": (0.28, 0.31),
    "kruskal": (0.28, 0.31),
    "prim": (0.28, 0.31),
}


@pytest.mark.parametrize("name", sorted(lacak.generators("maze")))
def test_dead_end_share_matches_the_metadata(name: str) -> None:
    generator = lacak.generators("maze")[name]
    if "dead_ends" not in generator.metadata:
        pytest.skip(f"{name} declares no dead-end share")
    share = lacak.generate("maze", name, (150, 150), seed=2024).stats()["dead_end_share"]
    assert abs(share - generator.metadata["dead_ends"]) < 0.015, share
    low, high = PUBLISHED.get(name, (0.0, 1.0))
    assert low <= share <= high, share


@pytest.mark.parametrize(
    ("policy", "low", "high"),
    [("newest", 0.08, 0.12), ("random", 0.26, 0.30), ("oldest", 0.0, 0.02)],
)
def test_growing_tree_textures(policy: str, low: float, high: float) -> None:
    maze = lacak.generate("maze", "growing-tree", (150, 150), seed=5, policy=policy)
    assert low <= maze.stats()["dead_end_share"] <= high


def test_textures_differ_where_they_should() -> None:
    def stats(name: str) -> dict:
        return lacak.generate("maze", name, (120, 120), seed=11).with_endpoints().stats()

    backtracker, kruskal, division = (
        stats("recursive-backtracker"),
        stats("kruskal"),
        stats("recursive-division"),
    )
    # depth-first mazes have far longer longest paths than spanning-tree samplers
    assert backtracker["solution_length"] > 3 * kruskal["solution_length"]
    # recursive division leaves long straight walls: straighter corridors
    assert division["straightness"] > kruskal["straightness"]
    binary = stats("binary-tree")
    assert binary["junctions"] > 0 and 2.0 <= binary["branching"] <= 3.0
