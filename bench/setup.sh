#!/usr/bin/env bash
# Creates bench/.venv: lacak (from this checkout) plus the peer libraries that
# the benchmarks compare against, installed from PyPI. The test environment
# never sees the peers.
#   bash bench/setup.sh && bench/.venv/bin/python bench/sliding.py
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python3 -m venv "$here/.venv"
"$here/.venv/bin/pip" install -q --upgrade pip
"$here/.venv/bin/pip" install -q -e "$here/..[fast]"   # lacak with its compiled Boggle engine
for req in "$here"/requirements-*.txt; do
    [ -e "$req" ] || continue
    # Peers are installed one by one so that one broken peer does not stop the others.
    grep -vE '^\s*(#|$)' "$req" | while read -r peer; do
        "$here/.venv/bin/pip" install -q "$peer" || echo "bench/setup.sh: could not install $peer; its column will be empty" >&2
    done
done
# A peer may pin an old numpy (slidingpuzzle 0.1.5 pins numpy==1.23.5, which lacak and
# numba cannot use): lacak's own requirements are put back last. The peers run on it
# (slidingpuzzle only uses basic numpy); pip's warning about the pin is expected.
"$here/.venv/bin/pip" install -q -e "$here/..[fast]"
"$here/.venv/bin/python" -c "import lacak, numpy; print('bench/.venv: lacak with numpy', numpy.__version__)"
