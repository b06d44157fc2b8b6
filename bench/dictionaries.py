"""Dictionary loading: lacak (cold and cached) against the peers' word-list loaders.

    bash bench/setup.sh && bench/.venv/bin/python bench/dictionaries.py [--repeat N]

Every loader reads the same words: lacak's packaged English list (``eng``,
SCOWL size 50 from Debian's wamerican), written to a plain text file for
the peers. Each measurement runs in a fresh subprocess (so nothing is warm
but the operating system's file cache) and the best of ``--repeat`` runs is
shown. The peers build a letter trie while loading (that is how they load);
lacak's Dictionary is a sorted tuple plus a set, and the Boggle plugin builds
its own search structure on top. The ratio column is the peer's time over
lacak's cached load. A peer that is not installed or fails shows its error.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: label -> (imports, not timed; loading, timed)
SETUP = {
    "lacak (cold: parse + normalise)": (
        "import lacak",
        "d = lacak.Dictionary.from_file(PATH, cache=False)",
    ),
    "lacak (cached compiled form)": (
        "import lacak",
        "d = lacak.Dictionary.from_file(PATH)",
    ),
    "lacak (cached, via registry + plugins)": (
        "import lacak",
        "d = lacak.dictionary('eng')",
    ),
    "plain json.load + frozenset (baseline)": (
        "import json",
        "d = frozenset(json.load(open(PATH, encoding='utf-8'))['words'])",
    ),
    "bogglesolver Edict.add_word": (
        "from bogglesolver.load_english_dictionary import Edict",
        "e = Edict()\nfor w in open(TXT):\n    e.add_word(w.strip().lower())",
    ),
    "pyggle Trie.insert": (
        "from pyggle.boggle import Trie",
        "t = Trie()\nfor w in open(TXT):\n    t.insert(w.strip().lower())",
    ),
    "boggled BoggleWords.loadFromFile": (
        "from boggled import BoggleWords",
        "b = BoggleWords()\nb.loadFromFile(TXT)",
    ),
}

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
    setup: tuple[str, str], path: str, txt: str, env: dict[str, str]
) -> tuple[float, float] | str:
    """``(import seconds, load seconds)`` in a fresh interpreter, or the error's last line."""
    code = TIMER.format(imports=setup[0], body=setup[1])
    done = subprocess.run(
        [sys.executable, "-c", code, path, txt],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return last[:60]
    first, second = done.stdout.strip().splitlines()[-1].split()
    return float(first), float(second)


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
        measure(SETUP["lacak (cached compiled form)"], source, str(txt), env)
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
    reference = results["lacak (cached compiled form)"]
    size = Path(source).stat().st_size / 1e6
    print(f"English word list: {len(words)} words, {size:.2f} MB JSON; best of {args.repeat}")
    print(f"{'loader':40} {'load ms':>9} {'import ms':>10} {'load / lacak cached':>20}")
    for label, value in results.items():
        if isinstance(value, str):
            print(f"{label:40} {'-':>9} {'-':>10} {value}")
            continue
        ratio = value[1] / reference[1] if not isinstance(reference, str) else float("nan")
        print(f"{label:40} {value[1] * 1e3:9.1f} {value[0] * 1e3:10.1f} {ratio:19.1f}x")
    summary = {
        k: (v if isinstance(v, str) else {"load_ms": round(v[1] * 1e3, 2)})
        for k, v in results.items()
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
