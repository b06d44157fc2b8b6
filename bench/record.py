"""Run one benchmark script and keep what it printed, dated, with the machine it ran on.

    .venv/bin/python bench/record.py mazes.py --scaling --sizes 250,500,1000
    bench/.venv/bin/python bench/record.py boggle.py --quick

writes ``bench/results/<script>.json`` (``<script>-<name>.json`` with
``--name NAME``, for a second run of the same script with other options):
the command, the UTC date, the machine (processor, cores, memory, load average
before and after, operating system, Python, lacak's version and git revision,
which peers were installed) and the tables exactly as the script printed them.
Nothing is measured here: the script does that, as it does when run by hand.
``docs/gen/performance.py`` turns every file of ``bench/results/`` into the
performance page of the documentation site while it builds, so the page shows
the figures of the last recorded run of each benchmark, never figures typed in.
A run that fails is not recorded (the previous result stays).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"

#: The peer libraries the scripts compare with (bench/requirements-*.txt): which were installed.
PEERS = (
    "slidingpuzzle", "simpleai", "mazelib", "maze-dataset", "amazed", "aamaze",
    "bogglesolver", "pyggle", "boggled", "boggler", "reasoning-gym",
)  # fmt: skip


def _processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _revision() -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(BENCH), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def machine() -> dict[str, object]:
    """What the figures depend on, besides the code."""
    return {
        "processor": _processor(),
        "cores": os.cpu_count(),
        "memory_gb": _memory_gb(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "lacak": _version("lacak"),
        "revision": _revision(),
        "peers": {name: v for name in PEERS if (v := _version(name)) is not None},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("script", help="a script of bench/, such as mazes.py")
    parser.add_argument("--name", default="", help="a name for this run (default: the script's)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's own options")
    args = parser.parse_args(argv)
    script = BENCH / args.script
    if script.parent != BENCH or not script.is_file() or script.name == Path(__file__).name:
        parser.error(f"no benchmark script {args.script!r} in {BENCH}")
    command = [Path(sys.executable).name, f"bench/{script.name}", *args.args]
    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    done = subprocess.run(
        [sys.executable, str(script), *args.args], cwd=BENCH.parent, capture_output=True, text=True
    )
    load_after = os.getloadavg()
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        message = f"record: {script.name} exited with status {done.returncode}; nothing recorded"
        print(message, file=sys.stderr)
        return done.returncode
    doc = (script.read_text(encoding="utf-8").split('"""')[1].strip().splitlines() or [""])[0]
    record = {
        "benchmark": script.stem + (f"-{args.name}" if args.name else ""),
        "script": f"bench/{script.name}",
        "title": doc,
        "command": " ".join(command),
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "seconds": round((datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()),
        "machine": machine()
        | {
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in load_after],
        },
        "output": done.stdout,
    }
    RESULTS.mkdir(exist_ok=True)
    target = RESULTS / f"{record['benchmark']}.json"
    target.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"record: {target.relative_to(BENCH.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
