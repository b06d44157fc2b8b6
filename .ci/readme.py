"""The README pasted top to bottom into a fresh shell (issue 25): every ``sh`` block, in order.

    python3 .ci/readme.py CLONE

In ``CLONE`` (a fresh clone: nothing installed, no ``.venv``), it runs the quick
start's first command as written, then every later ``sh`` block of README.md with
the environment that command made active (``. .venv/bin/activate``, as the README
says), each block under ``bash -euo pipefail``. The quick start's second command (the
whole test suite) is left to ``.ci/run``'s own step, which runs exactly it. A block
that serves until stopped (``lacak serve``, ``mkdocs serve``) passes once it has
printed its address and is still serving a few seconds later (it is stopped then);
``BROWSER=true`` keeps ``--open`` from starting a browser.

Exits non-zero, naming the block and its line in README.md, at the first block that
fails.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

#: Seconds a block that serves may take to print its address (installing included).
SERVE_SECONDS = 300
#: Seconds a block that serves must go on serving once its address is printed.
SERVED_SECONDS = 5
#: The address the README's serving blocks print.
ADDRESS = "http://127.0.0.1:8000"
#: Seconds any other block may take (a first pattern database build without numba
#: included).
BLOCK_SECONDS = 900


def blocks(readme: str) -> list[tuple[int, str]]:
    """The ``sh`` blocks of ``readme``: (the line of the fence, the block's text)."""
    found = []
    for match in re.finditer(r"^```sh\n(.*?)^```", readme, flags=re.S | re.M):
        found.append((readme.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def _wait(process: subprocess.Popen[str], log: IO[str], serves: bool) -> int | None:
    """The block's exit status; ``None`` when it was stopped: a block that serves once it
    has served its address for a few seconds (or after :data:`SERVE_SECONDS`), any other
    after :data:`BLOCK_SECONDS`."""
    began = time.monotonic()
    seen: float | None = None
    while process.poll() is None:
        now = time.monotonic()
        if serves and seen is None:
            log.seek(0)
            if ADDRESS in log.read():
                seen = now
        limit = SERVE_SECONDS if serves else BLOCK_SECONDS
        if now - began > limit or (seen is not None and now - seen > SERVED_SECONDS):
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            return None
        time.sleep(0.5)
    return process.returncode


def main(clone: Path) -> int:
    readme = (clone / "README.md").read_text(encoding="utf-8")
    found = blocks(readme)
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    demo, tests = re.findall(r"```sh\n(.*?)\n```", quick, flags=re.S)
    venv = clone / ".venv"
    active = {
        **os.environ,
        "VIRTUAL_ENV": str(venv),
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "BROWSER": "true",  # (lacak serve --open: no browser is started)
        "LACAK_PROGRESS": "0",
    }
    for line, text in found:
        command = text.strip()
        if command == tests:
            print(f"README.md:{line}: the test suite (.ci/run runs it in its own step)")
            continue
        env = dict(os.environ) if command == demo else active
        serves = bool(re.search(r"\b(lacak|mkdocs) serve\b", command))
        more = " ..." if len(command.splitlines()) > 1 else ""
        print(f"README.md:{line}: {command.splitlines()[0]}{more}", flush=True)
        script = f"set -euo pipefail\n{command}\n"
        # (a session of its own: a server the block started is stopped with it)
        with tempfile.TemporaryFile("w+") as log:
            process = subprocess.Popen(["bash", "-c", script], cwd=clone, env=env, text=True,
                                       stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)  # fmt: skip
            ended = _wait(process, log, serves)
            log.seek(0)
            output = log.read()
        if serves and ended is None:
            print("  serving, as it should: stopped")
            continue
        if ended is None:
            print(output[-3000:], file=sys.stderr)
            print(f"README.md:{line}: did not finish in {BLOCK_SECONDS} s", file=sys.stderr)
            return 1
        if ended != 0:
            print(output[-3000:], file=sys.stderr)
            print(f"README.md:{line}: exit status {ended}", file=sys.stderr)
            return 1
        if serves:
            print(output[-3000:], file=sys.stderr)
            print(f"README.md:{line}: stopped serving by itself", file=sys.stderr)
            return 1
    print(f"README.md: {len(found)} shell blocks, top to bottom: all worked")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
