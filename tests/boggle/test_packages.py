"""lacak_boggle.batch and lacak_boggle.wordgraph, once modules of over 900 lines, are
packages of a module a concern under the same paths: every name the modules had at
their top level still imports from the old path, and is the object of its new module."""

from __future__ import annotations

import importlib

import pytest

#: Old module -> its public top-level names in lacak 0.1 (in __all__ or not), and the
#: module each one is defined in now.
NAMES = {
    "lacak_boggle.batch": {
        "ENGINES": "lacak_boggle.engines",
        "BoggleScores": "lacak_boggle.batch.scores",
        "score_many": "lacak_boggle.batch.scores",
        "solve_many": "lacak_boggle.batch.solve",
        "walk_arrays": "lacak_boggle.batch.arrays",
        "solve_columns": "lacak_boggle.batch.arrays",
        "CHUNK": "lacak_boggle.batch.arrays",
        "FRONTIER_CAP": "lacak_boggle.batch.arrays",
        "JOB_BOARDS": "lacak_boggle.batch.jobs",
        "PARALLEL_FROM": "lacak_boggle.batch.plan",
        "PROBE_NODES": "lacak_boggle.batch.plan",
    },
    "lacak_boggle.wordgraph": {
        "DIGRAPHS": "lacak_boggle.wordgraph.graph",
        "FORMAT": "lacak_boggle.wordgraph.graph",
        "CompileStopped": "lacak_boggle.wordgraph.graph",
        "WordGraph": "lacak_boggle.wordgraph.graph",
        "decode": "lacak_boggle.wordgraph.graph",
        "follow": "lacak_boggle.wordgraph.graph",
        "compile_words": "lacak_boggle.wordgraph.build",
        "compile_dictionary": "lacak_boggle.wordgraph",
        "load_graph": "lacak_boggle.wordgraph",
    },
}


@pytest.mark.parametrize(
    ("old", "name"), [(old, name) for old, names in NAMES.items() for name in names]
)
def test_an_old_name_is_the_object_of_its_new_module(old: str, name: str) -> None:
    home = importlib.import_module(NAMES[old][name])
    assert getattr(importlib.import_module(old), name) is getattr(home, name)


@pytest.mark.parametrize("old", sorted(NAMES))
def test_the_packages_export_what_the_modules_did(old: str) -> None:
    module = importlib.import_module(old)
    assert set(module.__all__) <= set(NAMES[old])
    for name in module.__all__:
        assert hasattr(module, name)


def test_the_top_level_api_is_unchanged() -> None:
    import lacak_boggle
    from lacak_boggle import batch, wordgraph

    assert lacak_boggle.solve_many is batch.solve_many
    assert lacak_boggle.score_many is batch.score_many
    assert lacak_boggle.WordGraph is wordgraph.WordGraph
    assert lacak_boggle.compile_dictionary is wordgraph.compile_dictionary
