"""Opening a dictionary: lacak (cold and cached) against the peers' trie builds.

    bash bench/setup.sh && bench/.venv/bin/python bench/dictionaries.py [--repeat N]

Every loader reads the same words: lacak's packaged English list (``eng``),
written to a plain text file for the peers. Each measurement runs in a fresh
subprocess, so nothing is warm but the operating system's file cache, and the
best of ``--repeat`` runs is shown. The peers build a letter trie while
loading (that is how they open a word list for Boggle); lacak's Boggle
solver opens two things, the normalised ``Dictionary`` and its word graph
(a minimal DAWG), so the rows that compare with the peers load both:

- *cold*: no cache at all (a fresh ``LACAK_CACHE_DIR`` for every run):
  parse and normalise the JSON, build the word graph (numpy's import, which
  the build needs, is counted), write both caches;
- *cached*: both read back from their verified cache files.

``load / peer`` is the lacak row's time over the peer's best: below 1, lacak
is faster. A second table times whole processes: ``lacak dictionaries list``
against ``lacak --help``, the start-up every command pays (Python, ``import
lacak``, every plugin's commands). A peer that is not installed or fails
shows its error.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRAPH = "from lacak_boggle.wordgraph import compile_dictionary"

#: label -> (imports, not timed; loading, timed; cold: a fresh cache folder per run)
SETUP = {
    "lacak cold: dictionary + word graph": (
        f"import lacak\n{GRAPH}",
        "d = lacak.Dictionary.from_file(PATH)\ng = compile_dictionary(d)",
        True,
    ),
    "lacak cached: dictionary + word graph": (
        f"import lacak\n{GRAPH}",
        "d = lacak.Dictionary.from_file(PATH)\ng = compile_dictionary(d)",
        False,
    ),
    "lacak cached, by name (registry + plugins)": (
        f"import lacak\n{GRAPH}",
        "d = lacak.dictionary('eng')\ng = compile_dictionary(d)",
        False,
    ),
    "lacak cold: dictionary only": (
        "import lacak",
        "d = lacak.Dictionary.from_file(PATH, cache=False)",
        True,
    ),
    "lacak cached: dictionary only": (
        "import lacak",
        "d = lacak.Dictionary.from_file(PATH)",
        False,
    ),
    "plain json.load + frozenset (baseline)": (
        "import json",
        "d = frozenset(json.load(open(PATH, encoding='utf-8'))['words'])",
        False,
    ),
    "bogglesolver Edict.add_word": (
        "from bogglesolver.load_english_dictionary import Edict",
        "e = Edict()\nfor w in open(TXT):\n    e.add_word(w.strip().lower())",
        False,
    ),
    "pyggle Trie.insert": (
        "from pyggle.boggle import Trie",
        "t = Trie()\nfor w in open(TXT):\n    t.insert(w.strip().lower())",
        False,
    ),
    "boggled BoggleWords.loadFromFile": (
        "from boggled import BoggleWords",
        "b = BoggleWords()\nb.loadFromFile(TXT)",
        False,
    ),
}
PEERS = [label for label in SETUP if not label.startswith(("lacak", "plain"))]

TIMER = """
import time, sys
PATH, TXT = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
{imports}
t1 = time.perf_counter()
{body}
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def measure(
    setup: tuple[str, str, bool], path: str, txt: str, env: dict[str, str]
) -> tuple[float, float] | str:
    """``(import seconds, load seconds)`` in a fresh interpreter, or the error's last line."""
    imports, body, cold = setup
    code = TIMER.format(imports=imports, body=body)
    with tempfile.TemporaryDirectory() as fresh:
        run_env = {**env, "LACAK_CACHE_DIR": fresh} if cold else env
        done = subprocess.run(
            [sys.executable, "-c", code, path, txt],
            capture_output=True,
            text=True,
            env=run_env,
            timeout=600,
            check=False,
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return last[:60]
    first, second = done.stdout.strip().splitlines()[-1].split()
    return float(first), float(second)


def process_seconds(args: list[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """``(best wall seconds, best CPU seconds)`` of a whole ``lacak`` process."""
    lacak = Path(sys.executable).with_name("lacak")
    walls, cpus = [], []
    for _ in range(repeat):
        before = os.times()
        started = time.perf_counter()
        subprocess.run([str(lacak), *args], capture_output=True, env=env, check=True)
        walls.append(time.perf_counter() - started)
        after = os.times()
        cpus.append(
            after.children_user
            - before.children_user
            + after.children_system
            - before.children_system
        )
    return min(walls), min(cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per loader (best is shown)")
    args = parser.parse_args()
    import lacak

    source = lacak.dictionaries()["eng"].path
    assert source is not None
    words = lacak.dictionary("eng").words
    with tempfile.TemporaryDirectory() as folder:
        txt = Path(folder) / "eng.txt"
        txt.write_text("".join(w.lower() + "\n" for w in words), encoding="utf-8")
        env = {**os.environ, "LACAK_CACHE_DIR": str(Path(folder) / "cache")}
        # fill the cache once so "cached" rows measure a second load
        measure(SETUP["lacak cached: dictionary + word graph"], source, str(txt), env)
        results: dict[str, tuple[float, float] | str] = {}
        for label, setup in SETUP.items():
            best: tuple[float, float] | str = "n/a"
            for _ in range(args.repeat):
                value = measure(setup, source, str(txt), env)
                if isinstance(value, str):
                    best = value
                    break
                best = value if isinstance(best, str) else min(best, value, key=lambda v: v[1])
            results[label] = best
        processes = {
            "lacak --help (start-up floor)": process_seconds(["--help"], env, args.repeat),
            "lacak dictionaries list": process_seconds(["dictionaries", "list"], env, args.repeat),
            "lacak dictionaries list --json": process_seconds(
                ["dictionaries", "list", "--json"], env, args.repeat
            ),
        }
    peer_times = [v[1] for k, v in results.items() if k in PEERS and not isinstance(v, str)]
    best_peer = min(peer_times) if peer_times else float("nan")
    size = Path(source).stat().st_size / 1e6
    print(f"English word list: {len(words)} words, {size:.2f} MB JSON; best of {args.repeat}")
    print(f"{'loader':44} {'load ms':>9} {'import ms':>10} {'load / best peer':>17}")
    for label, value in results.items():
        if isinstance(value, str):
            print(f"{label:44} {'-':>9} {'-':>10} {value}")
            continue
        ratio = value[1] / best_peer
        print(f"{label:44} {value[1] * 1e3:9.1f} {value[0] * 1e3:10.1f} {ratio:16.2f}x")
    print(f"\n{'whole process':44} {'wall ms':>9} {'CPU ms':>10}")
    for label, (wall, cpu) in processes.items():
        print(f"{label:44} {wall * 1e3:9.1f} {cpu * 1e3:10.1f}")
    summary = {
        **{
            k: (v if isinstance(v, str) else {"load_ms": round(v[1] * 1e3, 2)})
            for k, v in results.items()
        },
        **{
            k: {"wall_ms": round(w * 1e3, 1), "cpu_ms": round(c * 1e3, 1)}
            for k, (w, c) in processes.items()
        },
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
