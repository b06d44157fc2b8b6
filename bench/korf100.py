"""Korf's 100 random 15-puzzles, solved optimally by lacak's idastar-tiles with pattern databases.

For each instance: the length found (checked against the published optimal
length), nodes expanded and generated, seconds and nodes per second; then
totals, the time to load (or build) the databases, and the mean nodes per
instance next to the published figures (Korf & Felner 2002; Felner, Korf &
Hanan 2004): 6-6-3 about 617,555 generated nodes per instance, 7-8 with the
reflected lookup about 36,710.

    bench/.venv/bin/python bench/korf100.py                     # all 100, pdb-663 (reflected)
    bench/.venv/bin/python bench/korf100.py --ids 1-10 --heuristic pdb-555
    bench/.venv/bin/python bench/korf100.py --heuristic pdb-663 --heuristic pdb-663:noreflect
    bench/.venv/bin/python bench/korf100.py --set korf24 --ids 1-3 --seconds 60   # out of reach
    bench/.venv/bin/python bench/korf100.py --ids 55,16,42,79 --peers   # peers side by side

Peers (``--peers``; bench/requirements-korf100.txt, installed by
bench/setup.sh) run in a worker process, one instance at a time, with a time
limit per instance; their lengths are checked too. The slidingpuzzle peer
solves for the goal with the blank last, so its boards are the instances
turned by 180 degrees with every tile v relabelled 16 - v (the same lengths).

Exit status 1 when any length differs from the published one.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from typing import Any

import lacak
from lacak_sliding import korf

#: Published mean nodes generated per instance on Korf's 100: group sizes -> (source, nodes).
PUBLISHED = {
    (): ("IDA* + Manhattan (Korf 1985)", 401_189_630),
    (3, 6, 6): ("6-6-3 additive PDB (Korf & Felner 2002)", 617_555),
    (5, 5, 5): ("5-5-5 additive PDB (Korf & Felner 2002)", 3_090_405),
    (7, 8): ("7-8 additive PDB, reflected (Felner, Korf & Hanan 2004)", 36_710),
}


def published_for(spec: str, puzzle: Any) -> tuple[str, int] | None:
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    prepared = heuristic.for_puzzle(puzzle)
    partition = getattr(prepared, "partition", None)
    if partition is None:
        return PUBLISHED[()] if heuristic.name == "manhattan" else None
    return PUBLISHED.get(tuple(sorted(len(g) for g in partition.groups)))


# -- peers (in a worker process) --------------------------------------------------------------


def _relabelled(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The instance for the goal with the blank last: turned 180 degrees, v -> n - v."""
    n = len(tiles)
    return tuple(0 if t == 0 else n - t for t in reversed(tiles))


def peer_slidingpuzzle(tiles: tuple[int, ...], side: int, algorithm: str) -> int:
    import slidingpuzzle as sp

    board = _relabelled(tiles)
    rows = [board[r * side : (r + 1) * side] for r in range(side)]
    extra = {"detect_dupes": False} if algorithm == "ida*" else {}
    result = sp.search(
        sp.from_rows(*rows), algorithm, heuristic=sp.linear_conflict_distance, **extra
    )
    return len(result.solution)


PEERS = {
    "slidingpuzzle ida* + linear-conflict": (peer_slidingpuzzle, "ida*"),
    "slidingpuzzle a* + linear-conflict": (peer_slidingpuzzle, "a*"),
}


def _worker(conn: Any) -> None:
    while True:
        task = conn.recv()
        if task is None:
            return
        name, tiles, side = task
        function, algorithm = PEERS[name]
        started = time.perf_counter()
        try:
            length = function(tiles, side, algorithm)
        except Exception as error:  # a peer's failure is reported, not fatal
            conn.send(("error", f"{type(error).__name__}: {error}", 0.0))
        else:
            conn.send(("ok", length, time.perf_counter() - started))


class PeerRunner:
    """A worker process that is killed and restarted when a peer overruns its time."""

    def __init__(self) -> None:
        self.process: Any = None
        self.conn: Any = None

    def _start(self) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.process.start()

    def solve(self, task: tuple[Any, ...], timeout: float) -> tuple[str, Any, float]:
        if self.process is None or not self.process.is_alive():
            self._start()
        self.conn.send(task)
        if self.conn.poll(timeout):
            return self.conn.recv()
        self.process.kill()
        self.process.join()
        self.process = None
        return ("timeout", None, timeout)

    def close(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.conn.send(None)
            self.process.join(5)


def peer_available(name: str) -> str | None:
    module = name.split()[0]
    try:
        __import__(module)
    except ImportError as error:
        return f"not installed ({error}); run bash bench/setup.sh"
    return None


# -- lacak -----------------------------------------------------------------------------------


def run_lacak(
    spec: str,
    items: list[korf.KorfInstance],
    strategy: str,
    quiet: bool,
    limit: float | None = None,
) -> dict[str, Any]:
    puzzles = [korf.puzzle(item) for item in items]
    started = time.perf_counter()
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    heuristic.for_puzzle(puzzles[0])  # load (or build) the databases
    load = time.perf_counter() - started
    rows = []
    if not quiet:
        print(f"\n## {strategy} + {spec}\n")
        print(f"databases loaded (or built) in {load:.2f} s\n")
        print("| id | length | published | expanded | generated | seconds | generated/s |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
    for item, puzzle in zip(items, puzzles, strict=True):
        began = time.perf_counter()
        result = lacak.solve(
            puzzle, strategy, heuristic=heuristic, limits=lacak.Limits(seconds=limit)
        )
        seconds = time.perf_counter() - began
        row = {
            "id": item.id,
            "length": result.length if result.found else None,
            "published": item.length,
            "expanded": result.stats.expanded,
            "generated": result.stats.generated,
            "seconds": seconds,
        }
        rows.append(row)
        if not quiet:
            if not result.found:
                mark = f" (stopped: {result.stopped})"
            else:
                mark = "" if row["length"] == item.length else " **WRONG**"
            print(
                f"| {item.id} | {row['length']}{mark} | {item.length} | {row['expanded']:,} | "
                f"{row['generated']:,} | {seconds:.3f} | {row['generated'] / max(seconds, 1e-9):,.0f} |"
            )
        sys.stdout.flush()
    total = sum(r["seconds"] for r in rows)
    expanded = sum(r["expanded"] for r in rows)
    generated = sum(r["generated"] for r in rows)
    wrong = [r["id"] for r in rows if r["length"] is not None and r["length"] != r["published"]]
    stopped = [r["id"] for r in rows if r["length"] is None]
    summary = {
        "spec": spec,
        "strategy": strategy,
        "count": len(rows),
        "load": load,
        "search": total,
        "expanded": expanded,
        "generated": generated,
        "wrong": wrong,
        "stopped": stopped,
        "published": published_for(spec, puzzles[0]),
        "rows": rows,
    }
    if not quiet:
        n = len(rows)
        print(
            f"\n**{n} instances: {total:.2f} s searching + {load:.2f} s loading = "
            f"{total + load:.2f} s; {expanded / n:,.0f} expanded and {generated / n:,.0f} generated "
            f"per instance; {generated / max(total, 1e-9):,.0f} generated/s, "
            f"{expanded / max(total, 1e-9):,.0f} expanded/s; "
            f"lengths {'all as published' if not wrong else 'WRONG for ' + str(wrong)}"
            + (f"; stopped by the time limit: {stopped}" if stopped else "")
            + "**"
        )
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", default="korf100", choices=sorted(korf.SETS), help="instance set")
    parser.add_argument("--ids", default=None, help="instances: 1-10, 3,7,9-12 (default all)")
    parser.add_argument("--all", action="store_true", help="every instance of the set (default)")
    parser.add_argument(
        "--heuristic",
        action="append",
        default=None,
        help="heuristic spec, repeatable (default pdb-663 for korf100, pdb-6666 for korf24)",
    )
    parser.add_argument("--strategy", default="idastar-tiles")
    parser.add_argument("--peers", action="store_true", help="also run the PyPI peers")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="peer time limit per instance (s)"
    )
    parser.add_argument("--quiet", action="store_true", help="only the summary table")
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="lacak's time limit per instance (default none; the 24-puzzles need one)",
    )
    args = parser.parse_args(argv)

    items = korf.instances(args.set)
    ids = (
        korf.parse_ids(args.ids or "all", len(items))
        if not args.all
        else list(range(1, len(items) + 1))
    )
    chosen = [items[i - 1] for i in ids]
    specs = args.heuristic or ["pdb-663" if args.set == "korf100" else "pdb"]

    print(
        f"# {args.set}: {len(chosen)} instances, mean published length "
        f"{sum(i.length for i in chosen) / len(chosen):.2f}"
    )
    summaries = [run_lacak(spec, chosen, args.strategy, args.quiet, args.seconds) for spec in specs]

    peer_rows = []
    if args.peers:
        runner = PeerRunner()
        for name in PEERS:
            problem = peer_available(name)
            if problem:
                print(f"\n{name}: {problem}")
                continue
            solved, seconds, wrong, timeouts, errors = 0, 0.0, [], 0, []
            for item in chosen:
                status, value, took = runner.solve((name, item.tiles, item.side), args.timeout)
                if status == "ok":
                    solved += 1
                    seconds += took
                    if value != item.length:
                        wrong.append(item.id)
                elif status == "timeout":
                    timeouts += 1
                    seconds += args.timeout
                else:
                    errors.append(value)
                print(
                    f"  {name} #{item.id}: {status} {value if status != 'timeout' else ''} {took:.2f} s"
                )
                sys.stdout.flush()
                if timeouts >= 2 and solved == 0:
                    break
            peer_rows.append((name, solved, seconds, timeouts, wrong, errors))
        runner.close()

    print(f"\n## summary ({len(chosen)} instances of {args.set})\n")
    print(
        "| solver | solved | right length | total s (incl. loading) | search s | generated/instance | generated/s | published generated/instance | vs published |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    failed = False
    for s in summaries:
        n = s["count"]
        per = s["generated"] / n
        published = s["published"]
        pub_text = f"{published[1]:,} ({published[0]})" if published else "-"
        ratio = f"{per / published[1]:.2f}x" if published else "-"
        print(
            f"| lacak {s['strategy']} + {s['spec']} | {n - len(s['stopped'])} of {n} | "
            f"{n - len(s['stopped']) - len(s['wrong'])} | "
            f"{s['search'] + s['load']:.2f} | {s['search']:.2f} | {per:,.0f} | "
            f"{s['generated'] / max(s['search'], 1e-9):,.0f} | {pub_text} | {ratio} |"
        )
        failed |= bool(s["wrong"])
    best = min(summaries, key=lambda s: s["search"] + s["load"])
    for name, solved, seconds, timeouts, wrong, errors in peer_rows:
        bound = ">= " if timeouts else ""
        ratio = seconds / max(best["search"] + best["load"], 1e-9)
        print(
            f"| {name} | {solved} (+{timeouts} timeouts of {args.timeout:.0f} s) | {solved - len(wrong)} | "
            f"{bound}{seconds:.2f} | | | | | lacak {bound}{ratio:,.0f}x faster |"
        )
        if errors:
            print(f"|   errors: {errors[0]} | | | | | | | | |")
    if args.set == "korf100" and len(chosen) == 100:
        total = best["search"] + best["load"]
        print(
            f"\ntarget: all 100 optimal in under 180 s on one core including loading: "
            f"{'met' if total < 180 and not best['wrong'] and not best['stopped'] else 'MISSED'} ({total:.1f} s with "
            f"{best['spec']}); moonshot under 60 s: {'met' if total < 60 and not best['wrong'] else 'missed'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
