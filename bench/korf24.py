"""Korf and Felner's 50 random 24-puzzles, solved optimally with 6-6-6-6 pattern databases.

For each instance, with a time limit of its own (``--timeout``, default 900 s):
solved or not, the length found against the published optimal one, nodes
expanded and generated, wall and CPU seconds, and the load average. The
databases are loaded (or built, announced) first and timed apart.

    .venv/bin/python bench/korf24.py --ids 1-3 --timeout 60
    .venv/bin/python bench/korf24.py --order length --timeout 900 --json korf24.json
    .venv/bin/python bench/korf24.py --heuristic pdb-6666:noreflect --ids 1

Instances are taken in published order, or (``--order length``) shortest
published optimal length first: the search grows roughly exponentially with
the length, so those are the likeliest to finish within the limit. The
search is ``lacak.solve(puzzle, strategy="idastar-tiles", heuristic=...)``,
so it uses whichever engine ``idastar-tiles`` runs (the compiled one once it
is installed). Korf and Felner (2002) report about 3.6 x 10**11 nodes per
instance on average with 6-6-6-6 and the reflected lookup (C, two days an
instance on 2002 hardware); their per-instance counts are not transcribed
here. lacak's ``generated`` counts the children whose estimate was computed
(the inverse of the last move is never generated), the definition under which
its 7-8 count on Korf's 100 is within 4% of the published 36,710.

Exit status 1 when a length found differs from the published one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import lacak
from lacak_sliding import korf

#: Published mean nodes per instance, rounded (Korf & Felner 2002, 6-6-6-6 with reflection).
PUBLISHED_NODES = 3.6e11


def _load() -> str:
    return "/".join(f"{v:.1f}" for v in os.getloadavg())


def solve_one(item: korf.KorfInstance, heuristic: Any, strategy: str, timeout: float) -> dict[str, Any]:
    """Solve one instance under its own time limit; the row the table and the JSON show."""
    puzzle = korf.puzzle(item)
    load = os.getloadavg()[0]
    wall = time.perf_counter()
    cpu = time.process_time()
    result = lacak.solve(
        puzzle, strategy, heuristic=heuristic, limits=lacak.Limits(seconds=timeout)
    )
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    length = result.length if result.found else None
    return {
        "id": item.id,
        "published": item.length,
        "solved": result.found,
        "length": length,
        "optimal": length == item.length if length is not None else None,
        "stopped": str(result.stopped) if not result.found else None,
        "expanded": result.stats.expanded,
        "generated": result.stats.generated,
        "wall": round(wall, 3),
        "cpu": round(cpu, 3),
        "load": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ids", default="all", help="instances: 1-10, 3,7,9-12 (default all)")
    parser.add_argument("--order", choices=["published", "length"], default="published")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="time limit per instance, seconds (default 900)")  # fmt: skip
    parser.add_argument("--heuristic", default="pdb-6666", help="heuristic spec (default pdb-6666)")
    parser.add_argument("--strategy", default="idastar-tiles")
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")

    items = korf.instances("korf24")
    try:
        chosen = [items[i - 1] for i in korf.parse_ids(args.ids, len(items))]
    except lacak.LacakError as error:
        parser.error(str(error))
    if args.order == "length":
        chosen.sort(key=lambda item: (item.length, item.id))

    print(f"# Korf & Felner's 24-puzzles: {len(chosen)} instances, {args.strategy} + "
          f"{args.heuristic}, {args.timeout:g} s each; load average {_load()}\n")  # fmt: skip
    wall = time.perf_counter()
    cpu = time.process_time()
    heuristic = lacak.default_registry().heuristic("sliding", args.heuristic)
    prepared = heuristic.for_puzzle(korf.puzzle(chosen[0]))  # load (or build) the databases
    print(f"databases loaded (or built) in {time.perf_counter() - wall:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s CPU; load average {_load()}\n")  # fmt: skip
    del prepared

    print("| id | published | solved | length | expanded | generated | wall s | cpu s | "
          "generated/s | load avg |")  # fmt: skip
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---|")
    rows = []
    for item in chosen:
        row = solve_one(item, heuristic, args.strategy, args.timeout)
        rows.append(row)
        solved = "yes" if row["solved"] else f"no ({row['stopped']})"
        mark = "" if row["optimal"] in (True, None) else " **WRONG**"
        length = "-" if row["length"] is None else f"{row['length']}{mark}"
        rate = row["generated"] / max(row["wall"], 1e-9)
        print(
            f"| {row['id']} | {row['published']} | {solved} | {length} | {row['expanded']:,} | "
            f"{row['generated']:,} | {row['wall']:.1f} | {row['cpu']:.1f} | {rate:,.0f} | "
            f"{row['load'][0]:.1f}/{row['load'][1]:.1f} |"
        )
        sys.stdout.flush()

    solved = [r for r in rows if r["solved"]]
    wrong = [r["id"] for r in solved if not r["optimal"]]
    generated = sum(r["generated"] for r in rows)
    print(
        f"\n**{len(solved)} of {len(rows)} solved within {args.timeout:g} s each"
        f"{', all optimal' if solved and not wrong else ''}"
        f"{'; WRONG lengths: ' + str(wrong) if wrong else ''}; {generated:,} nodes generated in "
        f"{sum(r['wall'] for r in rows):.1f} s; published mean about {PUBLISHED_NODES:.1e} nodes "
        f"per instance (C, 2002)**"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"heuristic": args.heuristic, "strategy": args.strategy,
                       "timeout": args.timeout, "rows": rows}, out, indent=1)  # fmt: skip
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
