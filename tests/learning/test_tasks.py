"""lacak.tasks: datasets of verified tasks by level, scoring, curricula (issue 27, item 2)."""

from __future__ import annotations

import json
import math

import lacak
import lacak.tasks as tasks
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: (task, level, options) made once each; small enough to prove quickly.
CASES = [
    ("sliding", 1, {}),
    ("sliding", 4, {}),
    ("sliding", 6, {}),
    ("sliding", 2, {"shape": "4x4"}),
    ("sliding", 1, {"shape": "2x3"}),
    ("maze", 1, {}),
    ("maze", 3, {}),
    ("maze", 2, {"shape": "5x9"}),
    ("maze", 3, {"braid": 0.7}),
    ("maze", 2, {"grid": "hex"}),
    ("maze", 3, {"grid": "polar"}),
    ("maze", 2, {"grid": "triangle"}),
    ("maze", 1, {"grid": "upsilon"}),
    ("maze", 2, {"grid": "torus"}),
    ("boggle", 1, {}),
    ("boggle", 3, {}),
    ("boggle_best", 2, {}),
    ("boggle_best", 4, {}),
]

_MADE: dict[tuple[str, int, str], list[dict]] = {}


def entries(name: str, level: int, options: dict) -> list[dict]:
    key = (name, level, json.dumps(options, sort_keys=True))
    if key not in _MADE:
        _MADE[key] = list(tasks.create_dataset(name, size=3, seed=7, level=level, **options))
    return _MADE[key]


def test_the_built_in_tasks_are_listed() -> None:
    known = tasks.tasks()
    assert {"sliding", "maze", "boggle", "boggle_best"} <= set(known)
    assert known["maze"][0] == "maze" and known["boggle_best"][0] == "boggle"


@pytest.mark.parametrize(("name", "level", "options"), CASES)
def test_reference_answers_score_one_and_levels_hold(name: str, level: int, options: dict) -> None:
    made = entries(name, level, options)
    assert len(made) == 3
    for entry in made:
        assert set(entry) == {"question", "answer", "metadata"}
        assert isinstance(entry["question"], str) and entry["question"]
        json.dumps(entry["metadata"])  # JSON data
        meta = entry["metadata"]
        assert (meta["task"], meta["level"], meta["kind"]) == (name, level, meta["kind"])
        assert tasks.score_answer(entry["answer"], entry) == 1.0
        if name == "sliding":
            low, high = (int(n) for n in _band(name, level))
            assert low <= meta["optimal_length"] == len(entry["answer"]) <= high
            assert set(entry["answer"]) <= set("UDLR")
        elif name == "maze":
            low, high = _band(name, level)
            assert low <= meta["optimal_length"] == len(entry["answer"]) - 1 <= high
            assert entry["answer"][0] == meta["start"] and entry["answer"][-1] == meta["end"]
        elif name == "boggle":
            low, high = _band(name, level)
            assert low <= meta["word_count"] == len(entry["answer"]) <= high
        else:
            assert meta["words"][entry["answer"]] == meta["best_score"]


def _band(name: str, level: int) -> tuple[int, int]:
    from lacak_boggle.learning import LEVELS as BOGGLE
    from lacak_mazes.learning import LEVELS as MAZE
    from lacak_sliding.learning import LEVELS as SLIDING

    if name == "sliding":
        return SLIDING[level - 1]
    if name == "maze":
        return MAZE[level - 1][1]
    return BOGGLE[level - 1][2]


def test_same_seed_same_entries_and_entry_i_whatever_the_size() -> None:
    one = tasks.create_dataset("maze", size=4, seed=11, level=2)
    two = tasks.create_dataset("maze", size=2, seed=11, level=2)
    assert one[1] == two[1] and one[0] == two[0]
    assert one[0] != tasks.create_dataset("maze", size=1, seed=12, level=2)[0]
    assert one[-1] == one[3] and one[1:3] == [one[1], one[2]]
    with pytest.raises(IndexError):
        one[4]


def test_partial_credit_is_documented() -> None:
    sliding = entries("sliding", 4, {})[0]
    moves = sliding["answer"]
    # a detour: one move and its undo added; still reaches the goal
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    detour = moves[0] + undo[moves[0]] + moves
    assert tasks.score_answer(detour, sliding) == pytest.approx(len(moves) / len(detour))
    assert tasks.score_answer(moves.lower(), sliding) == 1.0
    assert tasks.score_answer(" ".join(moves), sliding) == 1.0
    assert tasks.score_answer(moves[:-1], sliding) == 0.0  # short of the goal
    maze = entries("maze", 3, {})[0]
    path = maze["answer"]
    back = [path[0], path[1], *path]
    assert tasks.score_answer(back, maze) == pytest.approx((len(path) - 1) / (len(back) - 1))
    assert tasks.score_answer(str(path), maze) == 1.0
    assert tasks.score_answer(path[:-1], maze) == 0.0
    boggle = entries("boggle", 3, {})[0]
    words = boggle["answer"]
    half = words[: len(words) // 2]
    assert tasks.score_answer(half, boggle) == pytest.approx(len(half) / len(words))
    wrong = [*words, "QQQQ"]
    assert tasks.score_answer(wrong, boggle) == pytest.approx(len(words) / len(wrong))
    assert tasks.score_answer(" ".join(w.lower() for w in words), boggle) == 1.0
    best = entries("boggle_best", 4, {})[0]
    meta = best["metadata"]
    worst = min(meta["words"], key=meta["words"].get)
    expected = meta["words"][worst] / meta["best_score"]
    assert tasks.score_answer(worst, best) == pytest.approx(expected)
    assert tasks.score_answer(f"{best['answer']} {worst}", best) == 0.0


GARBAGE = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=300),
    st.binary(max_size=50), st.lists(st.text(max_size=5), max_size=20),
    st.lists(st.lists(st.integers(-3, 30), max_size=3), max_size=40),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3)), max_size=5),
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=GARBAGE, which=st.integers(0, len(CASES) - 1))
def test_any_answer_scores_in_zero_to_one_and_never_raises(answer: object, which: int) -> None:
    entry = entries(*CASES[which])[0]
    value = tasks.score_answer(answer, entry)
    assert isinstance(value, float) and math.isfinite(value) and 0.0 <= value <= 1.0
    if answer is None or isinstance(answer, (bool, int, float, bytes, dict)):
        assert value == 0.0


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_corrupted_answers_score_less_than_one(data: st.DataObject) -> None:
    name, level, options = data.draw(st.sampled_from(CASES))
    entry = data.draw(st.sampled_from(entries(name, level, options)))
    answer = entry["answer"]
    if name == "sliding":
        i = data.draw(st.integers(0, len(answer) - 1))
        letter = data.draw(st.sampled_from("UDLR").filter(lambda m: m != answer[i]))
        corrupted = answer[:i] + letter + answer[i + 1 :]
    elif name == "maze":
        i = data.draw(st.integers(0, len(answer) - 1))
        corrupted = [list(c) for c in answer]
        corrupted[i] = [corrupted[i][0] + data.draw(st.sampled_from([-1, 1])), corrupted[i][1]]
    elif name == "boggle":
        drop = data.draw(st.integers(0, len(answer) - 1))
        corrupted = answer[:drop] + answer[drop + 1 :]
    else:
        corrupted = answer + data.draw(st.sampled_from(["Q", "XZ", "S"]))
    assert tasks.score_answer(corrupted, entry) < 1.0


@pytest.mark.parametrize("grid", ["hex", "polar", "cylinder"])
def test_maze_tasks_on_other_grids_list_their_passages(grid: str) -> None:
    from lacak_mazes.gridmaze import GridMaze

    for entry in tasks.create_dataset("maze", size=2, seed=5, level=2, grid=grid, braid=0.5):
        meta = entry["metadata"]
        maze = GridMaze.from_dict(meta["instance"])
        assert meta["grid"] == maze.grid.type == grid and meta["loops"] == maze.loops() > 0
        ids = maze.grid.ids
        listed = json.loads(entry["question"].split("\n\n")[1])
        assert sorted(map(sorted, listed)) == listed  # sorted: no trace of the carving
        assert {tuple(map(tuple, pair)) for pair in listed} == {
            tuple(sorted((ids[a], ids[b]))) for a, b in maze.links.tolist()
        }
        assert tasks.score_answer(entry["answer"], entry) == 1.0
        assert tasks.score_answer("N E S", entry) == 0.0  # no compass on this grid
        path = [tuple(cell) for cell in entry["answer"]]
        assert (
            len(path) - 1
            == meta["optimal_length"]
            == len(maze.path(maze.grid.index[path[0]], maze.grid.index[path[-1]])) - 1
        )


def test_bad_requests_are_lacak_errors() -> None:
    with pytest.raises(lacak.UnknownComponentError):
        tasks.create_dataset("slidng")
    with pytest.raises(lacak.InvalidOptionError, match="levels 1 to"):
        tasks.create_dataset("maze", level=99)
    with pytest.raises(lacak.InvalidOptionError):
        tasks.create_dataset("maze", level=0)
    with pytest.raises(lacak.InvalidOptionError, match="no option"):
        tasks.create_dataset("maze", colour="red")
    with pytest.raises(lacak.LacakError, match="hexx"):
        tasks.create_dataset("maze", grid="hexx")[0]
    with pytest.raises(lacak.InvalidOptionError, match="at most 31 moves"):
        tasks.create_dataset("sliding", size=1, level=7)[0]
    with pytest.raises(lacak.InvalidInputError):
        tasks.score_answer("RDLU", {"question": "?"})


def test_a_curriculum_steps_up_and_down() -> None:
    course = tasks.Curriculum("sliding", seed=1, window=4)
    assert (course.level, course.levels) == (1, 9)
    for _ in range(4):
        course.record(1.0)
    assert course.level == 2
    for _ in range(4):
        course.record(0.0)
    assert course.level == 1
    for _ in range(4):
        course.record(0.0)
    assert course.level == 1  # no level 0
    data = course.dataset(2)
    assert [e["metadata"]["level"] for e in data] == [1, 1]


def test_reasoning_gym_when_installed() -> None:
    rg = pytest.importorskip("reasoning_gym")
    names = tasks.register_reasoning_gym()
    assert "lacak_sliding" in names
    data = rg.create_dataset("lacak_maze", size=2, seed=3, level=1)
    entry = data[0]
    assert isinstance(entry["answer"], str)
    assert data.score_answer(entry["answer"], entry) == 1.0
    assert data.score_answer("nonsense", entry) == 0.0
