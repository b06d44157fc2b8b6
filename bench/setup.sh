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
