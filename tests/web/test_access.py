"""What a request can make the server read: over HTTP only registered names reach an option
that names a file, and every option value is typed and bounded by what its plugin declares
(``accepts``, :mod:`lacak.options`). A request that tries a path gets one 422 that tells
nothing about the file system."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

import lacak
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.plugin.registry import Registry
from lacak.web.pool import Pool

from .conftest import SMALL, make_app

BOARD = "HUNT/SERE/CRET/PASS"

#: Where a dictionary option can be given over the API: (route, body with ``{}`` for the value).
DICTIONARY_ROUTES = {
    "kind option": ("/api/kinds/boggle/solve", {"puzzle": BOARD, "options": {"dictionary": {}}}),
    "strategy option": (
        "/api/kinds/boggle/solve",
        {"puzzle": BOARD, "strategy": "boggle", "strategy_options": {"dictionary": {}}},
    ),
    "generator option": (
        "/api/kinds/boggle/generate",
        {"algorithm": "random", "seed": 1, "options": {"dictionary": {}}},
    ),
    "preparation": (
        "/api/kinds/boggle/generate",
        {"algorithm": "classic4", "seed": 1, "prepare": {"dictionary": {}}},
    ),
}


def _with(body: Any, value: str) -> Any:
    """``body`` with its ``{}`` placeholder replaced by ``value``."""
    if body == {}:
        return value
    if isinstance(body, dict):
        return {key: _with(item, value) for key, item in body.items()}
    return body


def _files(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if path.is_file()} if folder.exists() else set()


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of files a request must not reach: a word list, a secret, a non-JSON file."""
    folder = tmp_path_factory.mktemp("private")
    (folder / "private.json").write_text(json.dumps({"api_token": ["SECRET", "HUNT"]}))
    (folder / "words.json").write_text(json.dumps(["HUNT", "SERE", "CRET", "PASS"]))
    (folder / "notes.txt").write_text("HUNT\nSERE\n")
    (folder / "shadow").write_text("root:$6$x:19000:0:99999:7:::\n")
    (folder / "sub").mkdir()
    return folder


def _tries(folder: Path) -> list[str]:
    """Paths of every sort: files that exist (JSON, secret, text), a folder, one that does
    not exist, relative and home-relative names."""
    return [
        str(folder / "private.json"),
        str(folder / "words.json"),
        str(folder / "notes.txt"),
        str(folder / "shadow"),
        str(folder / "sub"),
        str(folder / "nonexistent.json"),
        "/etc/passwd",
        "/etc/nonexistent",
        "private.json",
        "words.json",
        "../private.json",
        "~/private.json",
        "/dev/zero",
    ]


@pytest.mark.parametrize("route", sorted(DICTIONARY_ROUTES))
def test_a_path_in_a_dictionary_option_gets_one_422_that_tells_nothing(
    client: TestClient, private: Path, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web API read any file: a private JSON list's words came back, '/etc/shadow'
    answered 'not valid JSON', '/etc/nonexistent' 'does not exist', and a file's JSON keys
    were named in messages."""
    monkeypatch.chdir(private)  # relative names would reach these files
    cache = lacak.store.paths.cache_dir()
    before = _files(cache)
    path, body = DICTIONARY_ROUTES[route]
    details = set()
    for tried in _tries(private):
        response = client.post(path, json=_with(body, tried))
        assert response.status_code == 422, (tried, response.text)
        answer = response.json()
        assert answer["error"] == "InvalidOptionError"
        details.add(answer["detail"])
    assert len(details) == 1, details  # the same answer whatever the file system holds
    (detail,) = details
    for leak in ("exist", "JSON", "api_token", "line", "SECRET", str(private), "folder"):
        assert leak not in detail
    assert "registered dictionary" in detail
    assert _files(cache) == before  # nothing was cached for any of them


@settings(max_examples=40, deadline=None)
@given(name=st.text(min_size=1, max_size=40))
def test_only_registered_names_reach_a_dictionary_option(name: str) -> None:
    """Any text but a registered dictionary's name is refused, with the same answer."""
    registered = set(lacak.dictionaries())
    with TestClient(make_app()) as local:
        response = local.post(
            "/api/kinds/boggle/solve",
            json={"puzzle": BOARD, "options": {"dictionary": name, "min_length": "3"}},
        )
    if name.strip() in registered:
        assert response.status_code == 200
    else:
        assert response.status_code == 422
        assert "registered dictionary" in response.json()["detail"]


def test_registered_dictionaries_still_reach_boggle_over_the_api(client: TestClient) -> None:
    answer = client.post(
        "/api/kinds/boggle/solve",
        json={"puzzle": BOARD, "options": {"dictionary": "eng", "min_length": "3"}},
    )
    assert answer.status_code == 200, answer.text
    made = client.post(
        "/api/kinds/boggle/generate",
        json={"algorithm": "random", "seed": 2, "options": {"dictionary": "eng"}},
    )
    assert made.status_code == 200, made.text


def _exposed(registry: Registry) -> list[tuple[str, str, Any, Any]]:
    """Every option the web API passes on: (component, option, default, declaration)."""
    found = []
    types = registry.puzzle_types()
    for kind in types:
        kind_type = types[kind]
        for key, default in kind_type.options.items():
            found.append((f"kind {kind!r}", key, default, kind_type.accepts.get(key)))
        batch = kind_type.batch
        if batch is not None and batch.prepare is not None:
            for key, default in batch.options.items():
                found.append((f"preparing {kind!r}", key, default, batch.accepts.get(key)))
        if kind in registry.kinds("register_heuristics"):
            for name, heuristic in registry.heuristics(kind).items():
                for key, default in heuristic.options.items():
                    found.append((f"heuristic {name!r}", key, default, heuristic.accepts.get(key)))
        if kind in registry.kinds("register_generators"):
            for name, generator in registry.generators(kind).items():
                for key, default in generator.options.items():
                    found.append((f"generator {name!r}", key, default, generator.accepts.get(key)))
    for name, searcher in registry.searchers().items():
        for key, default in searcher.options.items():
            found.append((f"strategy {name!r}", key, default, searcher.accepts.get(key)))
    return found


def test_every_text_option_the_installed_plugins_offer_declares_what_it_accepts() -> None:
    """An option typed as text (a ``None`` or text default) is refused over HTTP unless its
    plugin declares what it accepts; every installed plugin's do."""
    undeclared = [
        f"{component} option {key!r}"
        for component, key, default, accepts in _exposed(lacak.default_registry())
        if accepts is None and not isinstance(default, (bool, int, float))
    ]
    assert undeclared == []


class _Notes:
    """A third-party kind whose ``path`` option (text, declared nothing) reads a file, as a
    careless plugin might; its ``lines`` and ``strict`` options are a number and a flag."""

    read: ClassVar[list[str]] = []

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        def parse(text: str, path: Any = None, lines: int = 3, strict: bool = False) -> Any:
            if path is not None:
                _Notes.read.append(Path(path).read_text())
            from lacak_sliding.puzzle import parse as sliding

            return sliding(text)

        register(
            lacak.PuzzleType(
                kind="notes", parse=parse, options={"path": None, "lines": 3, "strict": False}
            )
        )


def test_an_undeclared_text_option_of_a_third_party_plugin_is_refused(private: Path) -> None:
    registry = Registry()
    registry.load_plugins()
    registry.add_plugin(_Notes(), "notes")
    app = make_app(pool=Pool(1, processes=False, registry=registry), registry=registry)
    with TestClient(app) as local:
        catalogue = local.get("/api/kinds/notes").json()
        accepts = {o["name"]: o["accepts"] for o in catalogue["options"]}
        assert accepts == {"path": {"type": "not-accepted"}, "lines": {"type": "integer"},
                           "strict": {"type": "flag"}}  # fmt: skip
        details = set()
        for tried in [str(private / "private.json"), "/etc/nonexistent", "plain words"]:
            response = local.post(
                "/api/kinds/notes/solve", json={"puzzle": "123450786", "options": {"path": tried}}
            )
            assert response.status_code == 422, response.text
            details.add(response.json()["detail"])
        assert len(details) == 1 and "declares" in details.pop()
        fine = local.post(
            "/api/kinds/notes/solve",
            json={"puzzle": "123450786", "options": {"lines": "4", "strict": "yes"}},
        )
        assert fine.status_code == 200, fine.text
    assert _Notes.read == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # groups of tiles name pattern databases to build: only the named partitions here
        ({"puzzle": "123450786", "heuristic": "pdb:1,2,3/4,5,6,7,8"}, "partition"),
        ({"puzzle": "123450786", "heuristic": "pdb:partition=1,2,3,4,5,6,7,8"}, "partition"),
        ({"puzzle": "123450786", "heuristic": "weighted:w1=1e300"}, "w1"),
        ({"puzzle": "123450786", "options": {"goal": "/etc/passwd"}}, "goal"),
        ({"puzzle": "123450786", "options": {"size": "x" * 40}}, "size"),
        ({"puzzle": "123450786", "strategy": "idastar-tiles", "heuristic": "manhattan",
          "strategy_options": {"split_depth": "1000000"}}, "split_depth"),
        ({"puzzle": "123450786", "strategy": "bfs",
          "strategy_options": {"duplicates": "/etc/passwd"}}, "duplicates"),
        ({"puzzle": "123450786", "strategy": "weighted-astar", "heuristic": "manhattan",
          "strategy_options": {"weight": "1e308"}}, "weight"),
    ],
)  # fmt: skip
def test_sliding_options_are_typed_and_bounded(
    client: TestClient, body: dict[str, Any], expected: str
) -> None:
    response = client.post("/api/kinds/sliding/solve", json=body)
    assert response.status_code == 422, response.text
    assert expected in response.json()["detail"]


@pytest.mark.parametrize(
    "heuristic", ["pdb", "pdb:default", "pdb:reflect=no", "pdb:44;noreflect", "weighted:w1=2"]
)
def test_named_partitions_and_bounded_weights_are_accepted(
    client: TestClient, heuristic: str
) -> None:
    response = client.post(
        "/api/kinds/sliding/solve",
        json={"puzzle": "123450786", "strategy": "astar", "heuristic": heuristic},
    )
    assert response.status_code == 200, response.text
    assert response.json()["result"]["found"] is True


@pytest.mark.parametrize(
    ("kind", "body", "expected"),
    [
        ("sliding", {"algorithm": "walk", "size": "3x3", "options": {"moves": str(10**12)}},
         "moves"),
        ("sliding", {"algorithm": "random", "size": "3x3", "options": {"goal": "../x.json"}},
         "goal"),
        ("boggle", {"algorithm": "classic4", "prepare": {"dice": "/etc/passwd"}}, "dice"),
        ("boggle", {"algorithm": "classic4", "prepare": {"engine": "/bin/sh"}}, "engine"),
        ("boggle", {"algorithm": "classic4", "prepare": {"min_length": "99999999999"}},
         "min_length"),
        ("maze", {"algorithm": "binary-tree", "size": "3x3", "options": {"bias": "/tmp"}},
         "bias"),
        ("maze", {"algorithm": "eller", "size": "3x3", "options": {"join": "7"}}, "join"),
    ],
)  # fmt: skip
def test_generator_and_preparation_options_are_typed_and_bounded(
    client: TestClient, kind: str, body: dict[str, Any], expected: str
) -> None:
    response = client.post(f"/api/kinds/{kind}/generate", json=body)
    assert response.status_code == 422, response.text
    assert expected in response.json()["detail"]


def test_the_catalogue_says_what_each_option_accepts(client: TestClient) -> None:
    boggle = client.get("/api/kinds/boggle").json()
    accepts = {o["name"]: o["accepts"] for o in boggle["options"]}
    assert accepts["dictionary"] == {"type": "name", "catalogue": "dictionaries"}
    assert accepts["min_length"]["type"] == "integer"
    sliding = client.get("/api/kinds/sliding").json()
    pdb = next(h for h in sliding["heuristics"] if h["name"] == "pdb")
    partition = next(o for o in pdb["options"] if o["name"] == "partition")["accepts"]
    assert partition["type"] == "one-of" and "663" in partition["values"]


@pytest.mark.parametrize(
    "body",
    [
        {"puzzle": "123450786", "limits": {"seconds": True}},
        {"puzzle": "123450786", "limits": {"seconds": "5"}},
        {"puzzle": "123450786", "limits": {"max_nodes": "5"}},
        {"puzzle": "123450786", "limits": {"max_nodes": 5.0}},
        {"puzzle": "123450786", "limits": {"max_depth": True}},
        {"puzzle": "123450786", "trace": True},
        {"puzzle": "123450786", "trace": "3"},
    ],
)
def test_limits_are_strictly_typed(client: TestClient, body: dict[str, Any]) -> None:
    """The API took ``"seconds": true`` and ``"seconds": "5"``."""
    response = client.post("/api/kinds/sliding/solve", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "ValidationError"


@pytest.mark.parametrize("seed", [True, "5", 5.0])
def test_a_seed_is_strictly_an_integer(client: TestClient, seed: Any) -> None:
    response = client.post(
        "/api/kinds/maze/generate", json={"algorithm": "wilson", "size": "3x3", "seed": seed}
    )
    assert response.status_code == 422, response.text


def test_whole_and_fractional_seconds_are_both_numbers(client: TestClient) -> None:
    for seconds in (1, 0.5):
        response = client.post(
            "/api/kinds/sliding/solve",
            json={"puzzle": "123450786", "limits": {"seconds": seconds, "max_depth": 3}},
        )
        assert response.status_code == 200, response.text
        assert response.json()["limits"]["seconds"] == seconds


def test_the_library_s_web_work_refuses_a_flag_for_a_limit() -> None:
    from lacak.web import work

    for limits in ({"seconds": True}, {"max_depth": True}, {"max_depth": -1}, {"max_nodes": 1.5}):
        with pytest.raises(lacak.InvalidOptionError):
            work.solve("sliding", {"puzzle": "123450786", "limits": limits}, SMALL)


def test_no_option_value_reaches_a_plugin_unchecked_in_the_worker_processes() -> None:
    """The same refusal from worker processes, which load the installed plugins."""
    pool = Pool(1, processes=True)
    try:
        with TestClient(make_app(pool=pool)) as local:
            response = local.post(
                "/api/kinds/boggle/solve",
                json={"puzzle": BOARD, "options": {"dictionary": os.devnull}},
            )
    finally:
        pool.close()
    assert response.status_code == 422 and "registered dictionary" in response.json()["detail"]


class _Tabled:
    """A third-party heuristic whose own parser reads a file named in its options, and
    that declares nothing about them."""

    parsed: ClassVar[list[str]] = []

    @lacak.hookimpl
    def register_heuristics(self, register: Any) -> None:
        def parse(text: str) -> dict[str, Any]:
            _Tabled.parsed.append(text)
            return {"table": Path(text).read_text() if Path(text).exists() else text}

        register(
            lacak.Heuristic(
                name="tabled", kind="sliding", estimate=lambda puzzle, state, table="": 0,
                options={"table": ""}, parse=parse,
            )
        )  # fmt: skip


def test_a_third_party_parser_never_sees_options_its_plugin_declares_nothing_about(
    private: Path,
) -> None:
    registry = Registry()
    registry.load_plugins()
    registry.add_plugin(_Tabled(), "tabled")
    app = make_app(pool=Pool(1, processes=False, registry=registry), registry=registry)
    with TestClient(app) as local:
        for tried in [str(private / "private.json"), "1,2,3"]:
            response = local.post(
                "/api/kinds/sliding/solve",
                json={"puzzle": "123450786", "strategy": "astar", "heuristic": f"tabled:{tried}"},
            )
            assert response.status_code == 422, response.text
            assert "declares nothing" in response.json()["detail"]
        plain = local.post(
            "/api/kinds/sliding/solve",
            json={"puzzle": "123450786", "strategy": "astar", "heuristic": "tabled"},
        )
        assert plain.status_code == 200, plain.text
    assert _Tabled.parsed == []


def test_a_registered_name_is_the_registered_dictionary_even_beside_a_file_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registered name that also names a file where the server runs (``en-gb``, a drop-in
    ``notes.txt.json`` registered as ``notes.txt``) read that file instead."""
    drop_in = tmp_path / "dictionaries"
    drop_in.mkdir()
    (drop_in / "en-gb.json").write_text(json.dumps(["HUNT", "HUNTS"]))
    (drop_in / "notes.txt.json").write_text(json.dumps(["HUNT", "HUNTS"]))
    here = tmp_path / "cwd"
    here.mkdir()
    (here / "en-gb").write_text(json.dumps(["SECRET"]))
    (here / "notes.txt").write_text("SECRET\n")
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", str(drop_in))
    monkeypatch.chdir(here)
    registry = Registry()
    registry.load_plugins()
    assert {"en-gb", "notes.txt"} <= set(registry.dictionaries())
    app = make_app(pool=Pool(1, processes=False, registry=registry), registry=registry)
    with TestClient(app) as local:
        for name in ("en-gb", "notes.txt"):
            response = local.post(
                "/api/kinds/boggle/solve",
                json={"puzzle": "HUNT/SERE/CRET/PASS", "options": {"dictionary": name}},
            )
            assert response.status_code == 200, response.text
            words = {w["word"] for w in response.json()["result"]["boggle"]["words"]}
            assert "HUNT" in words and "SECRET" not in words
