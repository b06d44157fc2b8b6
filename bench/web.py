"""Load check of ``lacak serve``: requests per second and latency, on loopback only.

Starts ``lacak serve --port 0`` (its worker processes included) on 127.0.0.1, then:

1. requests per second for a maze generation (``wilson``, 30x30) and for a Boggle solve
   (a shaken 4x4 board, dictionary ``eng``) at a few concurrency levels;
2. the latency of small requests (a 15x15 maze) alone, and while a long search (a
   breadth-first search of a hard 15-puzzle, 8 s) holds a worker.

Every phase is bounded in count and in time (``--requests``, ``--seconds``), and the
server is stopped at the end. Only 127.0.0.1 is ever sent anything.

    python bench/web.py                      # the table
    python bench/web.py --json               # the numbers as JSON
    python bench/web.py --levels 1,2,4 --requests 100 --seconds 10 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx

MAZE = ("/api/kinds/maze/generate", {"algorithm": "wilson", "size": "30x30", "seed": 1})
SMALL = ("/api/kinds/maze/generate", {"algorithm": "wilson", "size": "15x15", "seed": 2})
BOGGLE = ("/api/kinds/boggle/solve",
          {"puzzle": "ANEU/DUKS/YHRA/OEEA", "options": {"dictionary": "eng"}})  # fmt: skip
LONG = ("/api/kinds/sliding/solve",
        {"puzzle": "15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 1 2 0", "strategy": "bfs",
         "limits": {"seconds": 8}})  # fmt: skip


def start_server(workers: int) -> tuple[subprocess.Popen[str], str]:
    """``lacak serve`` on 127.0.0.1 with a free port: the process and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "lacak", "serve", "--host", "127.0.0.1", "--port", "0",
         "--workers", str(workers)],
        stderr=subprocess.PIPE, text=True, env={**os.environ, "LACAK_PROGRESS": "0"},
    )  # fmt: skip
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/ ", line)
    if not match:
        process.kill()
        raise SystemExit(f"lacak serve did not start: {line!r}")
    return process, match.group(1)


async def wait_ready(http: httpx.AsyncClient) -> None:
    """Until the workers answer (they load lacak's plugins when they start)."""
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline:
        try:
            response = await http.post(SMALL[0], json=SMALL[1])
            if response.status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


async def load(
    http: httpx.AsyncClient, request: tuple[str, dict[str, Any]], concurrency: int,
    requests: int, seconds: float,
) -> dict[str, Any]:
    """``requests`` requests (or ``seconds``, whichever ends first), ``concurrency`` at a time."""
    path, body = request
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    sent = 0
    stop_at = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal sent
        while sent < requests and time.perf_counter() < stop_at:
            sent += 1
            began = time.perf_counter()
            response = await http.post(path, json=body)
            latencies.append(time.perf_counter() - began)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - began
    return {
        "concurrency": concurrency,
        "requests": len(latencies),
        "seconds": round(elapsed, 3),
        "per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p95_ms": round(1000 * sorted(latencies)[int(0.95 * (len(latencies) - 1))], 1),
        "statuses": statuses,
    }


async def latency_under_long_search(
    http: httpx.AsyncClient, requests: int, seconds: float
) -> dict[str, Any]:
    """Small requests one at a time: alone, then while a long search runs."""
    alone = await load(http, SMALL, 1, requests, seconds)
    long_task = asyncio.ensure_future(http.post(LONG[0], json=LONG[1], timeout=60))
    await asyncio.sleep(0.5)  # the long search has started on a worker
    during = await load(http, SMALL, 1, requests, min(seconds, 6.0))
    long_response = await long_task
    long_result = long_response.json().get("result", {})
    return {
        "alone": alone,
        "during_long_search": during,
        "long_search": {
            "status": long_response.status_code,
            "stopped": long_result.get("stopped"),
            "expanded": long_result.get("stats", {}).get("expanded"),
        },
    }


async def main_async(args: argparse.Namespace, base: str) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await wait_ready(http)
        await load(http, BOGGLE, 2, 10, 10)  # warm: each worker loads the dictionary once
        results: dict[str, Any] = {"maze": [], "boggle": []}
        for level in args.levels:
            results["maze"].append(await load(http, MAZE, level, args.requests, args.seconds))
            results["boggle"].append(await load(http, BOGGLE, level, args.requests, args.seconds))
        results["latency"] = await latency_under_long_search(http, 40, args.seconds)
        server = (await http.get("/api/server")).json()
        results["server"] = {"workers": server["workers"], "version": server["version"]}
        return results


def table(results: dict[str, Any]) -> str:
    lines = [f"lacak serve on 127.0.0.1, {results['server']['workers']} worker processes", ""]
    lines.append(f"{'request':<28}{'clients':>8}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}  statuses")
    for name, label in (("maze", "maze wilson 30x30"), ("boggle", "Boggle 4x4, eng")):
        for row in results[name]:
            lines.append(f"{label:<28}{row['concurrency']:>8}{row['per_second']:>9}"
                         f"{row['p50_ms']:>9}{row['p95_ms']:>9}  {row['statuses']}")  # fmt: skip
    latency = results["latency"]
    lines.append("")
    lines.append("latency of a 15x15 maze, one request at a time:")
    for key, label in (("alone", "alone"), ("during_long_search", "during a long search")):
        row = latency[key]
        lines.append(f"  {label:<24} p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms "
                     f"({row['requests']} requests)")  # fmt: skip
    long = latency["long_search"]
    lines.append(f"  the long search: HTTP {long['status']}, stopped {long['stopped']}, "
                 f"{long['expanded']:,} nodes expanded")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,4,8",
                        type=lambda text: [int(x) for x in text.split(",")])  # fmt: skip
    parser.add_argument("--requests", type=int, default=200, help="at most, per phase")
    parser.add_argument("--seconds", type=float, default=10.0, help="at most, per phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    process, base = start_server(args.workers)
    try:
        results = asyncio.run(main_async(args, base))
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(json.dumps(results, indent=1) if args.json else table(results))


if __name__ == "__main__":
    main()
