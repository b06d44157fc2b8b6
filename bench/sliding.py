"""Sliding-puzzle benchmark: lacak against slidingpuzzle and simpleai, side by side in one run.

Workloads (all seeded, so every run solves the same boards):

1. 100 uniformly random solvable 8-puzzles, solved optimally with the
   Manhattan distance by every solver;
2. breadth-first enumeration of the whole 8-puzzle space (181,440 boards);
3. ten 15-puzzles made by 40-60 random moves from the goal, solved
   optimally: lacak with the strongest heuristic it has, the peers with their
   best (A* + linear conflict for slidingpuzzle).

Peers run in a worker process, one board at a time, with a per-board time
limit: a peer that hangs is killed and its board counted as a timeout
(totals then become lower bounds, shown with ">="). A peer that times out
twice in a row on an 8-puzzle (once on a 15-puzzle) is not asked again
for that workload; the boards it was not asked count as timeouts. Peer
answers are checked against lacak's optimal lengths.

    bash bench/setup.sh && bench/.venv/bin/python bench/sliding.py [--quick]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import lacak

Board = tuple[int, ...]

# -- peers (run inside the worker process) -------------------------------------


def _manhattan_table(width: int, height: int) -> list[list[int]]:
    n = width * height
    table = [[0] * n]
    for tile in range(1, n):
        gr, gc = divmod(tile - 1, width)
        table.append([abs(p // width - gr) + abs(p % width - gc) for p in range(n)])
    return table


def peer_slidingpuzzle(
    tiles: Board, width: int, height: int, algorithm: str, heuristic: str
) -> int:
    import slidingpuzzle as sp

    rows = [tiles[r * width : (r + 1) * width] for r in range(height)]
    board = sp.from_rows(*rows)
    h = {"manhattan": sp.manhattan_distance, "linear-conflict": sp.linear_conflict_distance}[
        heuristic
    ]
    # slidingpuzzle's IDA* keeps a closed set by default, which makes it suboptimal;
    # detect_dupes=False is its optimal form
    extra = {"detect_dupes": False} if algorithm == "ida*" else {}
    result = sp.search(board, algorithm, heuristic=h, **extra)
    return len(result.solution)


def peer_simpleai(tiles: Board, width: int, height: int, algorithm: str, heuristic: str) -> int:
    from simpleai.search import SearchProblem, astar

    table = _manhattan_table(width, height)
    n = width * height
    goal = (*range(1, n), 0)
    steps = {"U": -width, "D": width, "L": -1, "R": 1}

    class Tiles(SearchProblem):  # type: ignore[misc]
        def actions(self, state: Board) -> list[str]:
            b = state.index(0)
            r, c = divmod(b, width)
            out = []
            if r > 0:
                out.append("U")
            if r < height - 1:
                out.append("D")
            if c > 0:
                out.append("L")
            if c < width - 1:
                out.append("R")
            return out

        def result(self, state: Board, action: str) -> Board:
            b = state.index(0)
            o = b + steps[action]
            s = list(state)
            s[b], s[o] = s[o], 0
            return tuple(s)

        def is_goal(self, state: Board) -> bool:
            return state == goal

        def heuristic(self, state: Board) -> int:
            return sum(table[t][p] for p, t in enumerate(state))

    node = astar(Tiles(initial_state=tuple(tiles)), graph_search=True)
    return len(node.path()) - 1


PEERS: dict[str, Callable[..., int]] = {
    "slidingpuzzle": peer_slidingpuzzle,
    "simpleai": peer_simpleai,
}


def _worker(conn: Any) -> None:
    while True:
        task = conn.recv()
        if task is None:
            return
        peer, tiles, width, height, algorithm, heuristic = task
        try:
            started = time.perf_counter()
            length = PEERS[peer](tiles, width, height, algorithm, heuristic)
            conn.send(("ok", length, time.perf_counter() - started))
        except Exception as error:  # a peer's failure is a result, not a crash
            conn.send(("error", f"{type(error).__name__}: {error}", 0.0))


class PeerRunner:
    """A worker process that solves one board at a time and can be killed on timeout."""

    def __init__(self) -> None:
        self.ctx = mp.get_context("fork")
        self.proc: Any = None
        self.conn: Any = None

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        self.conn = parent

    def solve(self, task: tuple[Any, ...], timeout: float) -> tuple[str, Any, float]:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(task)
        if self.conn.poll(timeout):
            return self.conn.recv()  # type: ignore[no-any-return]
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return ("timeout", None, timeout)

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(2)


def peer_available(peer: str) -> str | None:
    try:
        __import__(peer)
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


# -- measurement ---------------------------------------------------------------


class Row:
    """One solver's results on one workload."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.times: list[float] = []
        self.timeouts = 0
        self.errors: list[str] = []
        self.wrong = 0
        self.skipped = 0

    @property
    def solved(self) -> int:
        return len(self.times)

    def total(self, timeout: float) -> float:
        return sum(self.times) + timeout * (self.timeouts + self.skipped)

    @property
    def complete(self) -> bool:
        return not (self.timeouts or self.skipped or self.errors)


def run_lacak(
    row: Row, puzzles: list[Any], strategy: str, heuristic: str | None, optimal: list[int] | None
) -> list[int]:
    lengths = []
    for i, puzzle in enumerate(puzzles):
        started = time.perf_counter()
        result = lacak.solve(puzzle, strategy, heuristic=heuristic)
        row.times.append(time.perf_counter() - started)
        lengths.append(result.length)
        if optimal is not None and result.length != optimal[i]:
            row.wrong += 1
    return lengths


def run_peer(
    row: Row,
    runner: PeerRunner,
    peer: str,
    puzzles: list[Any],
    algorithm: str,
    heuristic: str,
    optimal: list[int],
    timeout: float,
    give_up: int = 2,
) -> None:
    """Solve ``puzzles`` with a peer; stop asking after ``give_up`` timeouts in a row."""
    streak = 0
    for i, puzzle in enumerate(puzzles):
        if streak >= give_up:
            row.skipped += len(puzzles) - i
            break
        status, value, seconds = runner.solve(
            (peer, puzzle.initial, puzzle.width, puzzle.height, algorithm, heuristic), timeout
        )
        if status == "ok":
            row.times.append(seconds)
            streak = 0
            if value != optimal[i]:
                row.wrong += 1
        elif status == "timeout":
            row.timeouts += 1
            streak += 1
        else:
            row.errors.append(value)
            if len(row.errors) >= 2:
                row.skipped += len(puzzles) - i - 1
                break


def table(title: str, rows: list[Row], reference: Row, timeout: float, count: int) -> None:
    print(f"\n## {title}\n")
    print(f"| solver | solved | total s | mean ms | median ms | vs {reference.name} |")
    print("|---|---:|---:|---:|---:|---:|")
    base = reference.total(timeout)
    for row in rows:
        total = row.total(timeout)
        bound = "" if row.complete else ">="
        mean = 1000 * total / count if count else 0.0
        median = 1000 * statistics.median(row.times) if row.times else float("nan")
        ratio = total / base if base else float("nan")
        notes = []
        if row.timeouts:
            notes.append(f"{row.timeouts} timed out at {timeout:g} s")
        if row.skipped:
            notes.append(f"{row.skipped} not tried after repeated timeouts/errors")
        if row.errors:
            notes.append(f"errors: {row.errors[0]}")
        if row.wrong:
            notes.append(f"{row.wrong} not optimal")
        suffix = f" ({'; '.join(notes)})" if notes else ""
        if row is reference:
            ratio_text = "1.0x"
        elif ratio >= 1:
            ratio_text = f"{bound}{ratio:.1f}x slower"
        else:
            ratio_text = f"{1 / ratio:.1f}x faster"
        print(
            f"| {row.name}{suffix} | {row.solved}/{count} | {bound}{total:.3f} | "
            f"{bound}{mean:.2f} | {median:.2f} | {ratio_text} |"
        )


def fastest(rows: list[Row], timeout: float) -> Row | None:
    """The fastest peer among those whose answers were all optimal."""
    candidates = [r for r in rows if r.solved and not r.wrong]
    return min(candidates, key=lambda r: r.total(timeout)) if candidates else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 8-puzzles, 3 15-puzzles")
    parser.add_argument("--seed", type=int, default=1000, help="first seed of the 8-puzzles")
    parser.add_argument("--timeout8", type=float, default=10.0, help="peer time limit per 8-puzzle")
    parser.add_argument(
        "--timeout15", type=float, default=60.0, help="peer time limit per 15-puzzle"
    )
    parser.add_argument("--no-peers", action="store_true", help="time lacak only")
    parser.add_argument(
        "--only", choices=("8", "bfs", "15"), action="append", help="run only these workloads"
    )
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    registry = lacak.default_registry()
    searchers = registry.searchers()
    heuristics = registry.heuristics("sliding")
    count8 = 20 if args.quick else 100
    moves15 = [40, 42, 44, 46, 48, 50, 53, 55, 58, 60][: 3 if args.quick else 10]

    print(f"# lacak {lacak.__version__} sliding-puzzle benchmark (Python {sys.version.split()[0]})")
    peers = {} if args.no_peers else {p: peer_available(p) for p in PEERS}
    for peer, problem in peers.items():
        print(f"- peer {peer}: {'available' if problem is None else 'MISSING (' + problem + ')'}")
    runner = PeerRunner()

    only = set(args.only or ("8", "bfs", "15"))
    main8 = Row("lacak astar-tiles + manhattan")
    peer_rows8: list[Row] = []
    enum_seconds: dict[str, float] = {}
    reference15 = Row("lacak")
    peer_rows15: list[Row] = []

    # 1. the 8-puzzle
    if "8" in only:
        main8, peer_rows8 = eight_puzzles(args, peers, runner, searchers, count8)
    if "bfs" in only:
        enum_seconds = enumeration()
    if "15" in only:
        reference15, peer_rows15 = fifteen_puzzles(
            args, peers, runner, searchers, heuristics, moves15
        )
    runner.close()
    targets(args, main8, peer_rows8, enum_seconds, reference15, peer_rows15, count8)
    return 0


def eight_puzzles(
    args: Any, peers: dict[str, str | None], runner: PeerRunner, searchers: Any, count8: int
) -> tuple[Row, list[Row]]:
    """100 random 8-puzzles, optimal, Manhattan distance."""
    eights = [
        lacak.generate("sliding", "random", (3, 3), seed=args.seed + i) for i in range(count8)
    ]
    main8 = Row("lacak astar-tiles + manhattan")
    optimal8 = run_lacak(main8, eights, "astar-tiles", "manhattan", None)
    rows8 = [main8]
    if "idastar-tiles" in searchers:
        row = Row("lacak idastar-tiles + manhattan")
        run_lacak(row, eights, "idastar-tiles", "manhattan", optimal8)
        rows8.append(row)
    row = Row("lacak astar (generic) + manhattan")
    run_lacak(row, eights, "astar", "manhattan", optimal8)
    rows8.append(row)
    peer_rows8 = []
    for peer, algorithm in (
        ("slidingpuzzle", "a*"),
        ("slidingpuzzle", "ida*"),
        ("simpleai", "astar"),
    ):
        if peers.get(peer, "missing") is not None:
            continue
        row = Row(f"{peer} {algorithm} + manhattan")
        run_peer(row, runner, peer, eights, algorithm, "manhattan", optimal8, args.timeout8)
        peer_rows8.append(row)
    table(
        f"{count8} random 8-puzzles, optimal, Manhattan distance (mean optimal length "
        f"{statistics.mean(optimal8):.1f})",
        rows8 + peer_rows8,
        main8,
        args.timeout8,
        count8,
    )
    return main8, peer_rows8


def enumeration() -> dict[str, float]:
    """Breadth-first enumeration of the whole 8-puzzle space."""
    unreachable = lacak.parse("sliding", "123456780", goal="123456870", allow_unsolvable=True)
    print(
        "\n## breadth-first enumeration of the 8-puzzle (goal unreachable: every board visited)\n"
    )
    print("| solver | boards expanded | seconds |")
    print("|---|---:|---:|")
    enum_seconds = {}
    for name in ("bfs-tiles", "bfs"):
        started = time.perf_counter()
        result = lacak.solve(unreachable, name)
        enum_seconds[name] = time.perf_counter() - started
        print(f"| lacak {name} | {result.stats.expanded:,} | {enum_seconds[name]:.3f} |")
    return enum_seconds


def fifteen_puzzles(
    args: Any,
    peers: dict[str, str | None],
    runner: PeerRunner,
    searchers: Any,
    heuristics: Any,
    moves15: list[int],
) -> tuple[Row, list[Row]]:
    """Ten 15-puzzles from 40-60 random moves, optimal, the strongest heuristic."""
    fifteens = [
        lacak.generate("sliding", "walk", (4, 4), seed=2000 + i, moves=m)
        for i, m in enumerate(moves15)
    ]
    strongest = [("astar-tiles", "linear-conflict")]
    for pdb in ("pdb-663", "pdb-555"):
        if "idastar-tiles" in searchers and pdb in heuristics:
            strongest.insert(0, ("idastar-tiles", pdb))
            break
    # Prepare each heuristic once (a pattern database is built, or loaded from the
    # cache, on first use): set-up time is reported, not counted per board.
    near = lacak.generate("sliding", "walk", (4, 4), seed=1, moves=2)
    for strategy, heuristic in strongest:
        started = time.perf_counter()
        lacak.solve(near, strategy, heuristic=heuristic)
        print(f"- set-up of {strategy} + {heuristic}: {time.perf_counter() - started:.2f} s")
    reference15 = Row(f"lacak {strongest[0][0]} + {strongest[0][1]}")
    optimal15 = run_lacak(reference15, fifteens, *strongest[0], None)
    rows15 = [reference15]
    for strategy, heuristic in strongest[1:]:
        row = Row(f"lacak {strategy} + {heuristic}")
        run_lacak(row, fifteens, strategy, heuristic, optimal15)
        rows15.append(row)
    peer_rows15 = []
    for peer, algorithm, heuristic in (
        ("slidingpuzzle", "a*", "linear-conflict"),
        ("slidingpuzzle", "ida*", "linear-conflict"),
        ("simpleai", "astar", "manhattan"),
    ):
        if peers.get(peer, "missing") is not None:
            continue
        row = Row(f"{peer} {algorithm} + {heuristic}")
        run_peer(row, runner, peer, fifteens, algorithm, heuristic, optimal15, args.timeout15, 1)
        peer_rows15.append(row)
    table(
        f"{len(fifteens)} 15-puzzles from 40-60 random moves, optimal (lengths "
        f"{min(optimal15)}-{max(optimal15)})",
        rows15 + peer_rows15,
        reference15,
        args.timeout15,
        len(fifteens),
    )
    return reference15, peer_rows15


def targets(
    args: Any,
    main8: Row,
    peer_rows8: list[Row],
    enum_seconds: dict[str, float],
    reference15: Row,
    peer_rows15: list[Row],
    count8: int,
) -> None:
    """The issue's targets, met or missed."""
    print("\n## targets\n")
    if main8.times:
        mean8 = 1000 * main8.total(0) / count8
        met = "met" if mean8 < 5 else "MISSED"
        print(f"- 8-puzzle A* + Manhattan mean {mean8:.2f} ms (target < 5 ms): {met}")
        best8 = fastest(peer_rows8, args.timeout8)
        if best8 is not None:
            ratio = best8.total(args.timeout8) / main8.total(0)
            met = "met" if ratio >= 40 else "MISSED"
            print(f"- vs fastest optimal peer ({best8.name}): {ratio:.0f}x (target >= 40x): {met}")
    if "bfs-tiles" in enum_seconds:
        bfs = enum_seconds["bfs-tiles"]
        met = "met" if bfs < 0.5 else "MISSED"
        print(f"- 8-puzzle BFS enumeration {bfs:.3f} s (target < 0.5 s): {met}")
    if reference15.times and fastest(peer_rows15, args.timeout15) is None:
        print(f"- 15-puzzles: lacak {reference15.total(0):.3f} s in total")
    best15 = fastest(peer_rows15, args.timeout15)
    if best15 is not None:
        ratio = best15.total(args.timeout15) / reference15.total(0)
        bound = "" if best15.complete else ">="
        print(
            f"- 15-puzzles: lacak {reference15.total(0):.2f} s in total vs fastest optimal peer "
            f"({best15.name}) {bound}{best15.total(args.timeout15):.1f} s: {bound}{ratio:.0f}x "
            f"(target >= 10x): {'met' if ratio >= 10 else 'MISSED'}"
        )


if __name__ == "__main__":
    sys.exit(main())
