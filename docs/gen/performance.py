"""The performance page (``performance.md``), generated from ``bench/results/`` while the site builds.

Run by mkdocs-gen-files. Each file of ``bench/results/`` is one benchmark run
kept by ``bench/record.py``: the command, its date, the machine and the tables
the script printed. The page shows every one of them, newest run first in each
section, with its date and machine, so no figure on it is typed by hand; a
benchmark that was never recorded is listed with the command that records it.
``python docs/gen/performance.py`` prints the page.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"

#: The benchmark scripts, in the page's order, with the guide that discusses each.
SCRIPTS = {
    "sliding.py": ("Sliding puzzles against slidingpuzzle and simpleai", "sliding.md"),
    "korf100.py": ("Korf's 100 fifteen-puzzles with pattern databases", "pattern-databases.md"),
    "mazes.py": ("Maze generation and solving against mazelib and others", "mazes.md"),
    "maze_grids.py": ("Mazes on every grid: growth with the cells", "mazes.md"),
    "boggle.py": ("Boggle against bogglesolver, pyggle, boggled and boggler", "boggle.md"),
    "boggle_limits.py": ("Boggle's bounds on the worst boards", "boggle.md"),
    "dictionaries.py": ("Opening a dictionary", "dictionaries.md"),
    "caches.py": ("Cached loads", "pattern-databases.md"),
    "cold_start.py": ("A first 15-puzzle solve from empty caches", "pattern-databases.md"),
    "bounds.py": ("--timeout asked against taken", "search.md"),
    "web.py": ("lacak serve under load", "web.md"),
    "batch.py": ("lacak batch", "batch.md"),
}


def load_results(folder: Path = RESULTS) -> list[dict[str, Any]]:
    """Every recorded run, newest first."""
    runs = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        record.setdefault("benchmark", path.stem)
        runs.append(record)
    return sorted(runs, key=lambda record: record.get("date", ""), reverse=True)


def _machine(machine: dict[str, Any]) -> str:
    parts = [
        f"{machine.get('processor', '?')}, {machine.get('cores', '?')} cores",
        f"{machine['memory_gb']} GB" if machine.get("memory_gb") else None,
        machine.get("os"),
        f"Python {machine.get('python', '?')}",
        f"lacak {machine.get('lacak', '?')}"
        + (f" ({machine['revision']})" if machine.get("revision") else ""),
    ]
    text = "; ".join(p for p in parts if p)
    before, after = machine.get("load_before"), machine.get("load_after")
    if before and after:
        text += f"; load average {before[0]:.2f} before, {after[0]:.2f} after"
    peers = machine.get("peers") or {}
    text += "; peers: " + (
        ", ".join(f"{name} {version}" for name, version in sorted(peers.items()))
        if peers
        else "none installed"
    )
    return text


def _fence(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}text\n{text.rstrip()}\n{fence}\n"


def page(runs: list[dict[str, Any]]) -> str:
    """The Markdown of the performance page."""
    out = [
        "# Performance\n",
        "Speed is measured by the scripts in `bench/` (lacak and the peer libraries "
        "from PyPI on the same seeded workload, with the published figures where there "
        "are any), never asserted in tests. This page is written while the site builds "
        "from the runs `bench/record.py` kept in `bench/results/`: each section is a "
        "script's output as it printed it, with the date and the machine. The machine "
        "matters: figures from a shared 2-core machine under load are slower and noisier "
        "than an idle desktop's; compare ratios within one run, not absolute times "
        "across runs.\n",
        "To record a run (on an idle machine; `bash bench/setup.sh` installs the peers "
        "into `bench/.venv`):\n",
        "```text\nbench/.venv/bin/python bench/record.py mazes.py\n"
        "bench/.venv/bin/python bench/record.py boggle.py --quick\n```\n",
    ]
    by_script: dict[str, list[dict[str, Any]]] = {}
    for record in runs:
        by_script.setdefault(Path(record.get("script", record["benchmark"])).name, []).append(
            record
        )
    missing = []
    for script, (title, guide) in SCRIPTS.items():
        records = by_script.pop(script, [])
        if not records:
            missing.append((script, title))
            continue
        out.append(f"## {title}\n")
        out.append(f"`bench/{script}`; the guide: [{guide}]({guide}).\n")
        for record in records:
            out.append(f"### {record['date']}: `{record['command']}`\n")
            out.append(f"Machine: {_machine(record.get('machine', {}))}.\n")
            out.append(_fence(record.get("output", "")))
    for script, records in sorted(by_script.items()):  # a script not listed above
        out.append(f"## `bench/{script}`\n")
        for record in records:
            out.append(f"### {record['date']}: `{record['command']}`\n")
            out.append(f"Machine: {_machine(record.get('machine', {}))}.\n")
            out.append(_fence(record.get("output", "")))
    if missing:
        out.append("## Not recorded yet\n")
        out.append(
            "These benchmarks have no run in `bench/results/`; their last figures are "
            "quoted, with their conditions, in the guides:\n"
        )
        for script, title in missing:
            out.append(f"- {title}: `python bench/record.py {script}`")
        out.append("")
    return "\n".join(out)


def main() -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open("performance.md", "w") as handle:
        handle.write(page(load_results()))
    mkdocs_gen_files.set_edit_path("performance.md", "../bench/record.py")


if __name__ == "<run_path>":  # mkdocs-gen-files runs it with runpy
    main()
elif __name__ == "__main__":
    sys.stdout.write(page(load_results()))
