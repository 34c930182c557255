#!/usr/bin/env bash
# Create the bench venv (.venv-bench) if missing and install what `python -m bench.stores` needs.
#
# Idempotent: a stamp file records a hash of bench/requirements.txt and pyproject.toml, and
# nothing is installed again until one of them changes. Run from anywhere; paths are taken from
# this script's location. Set PYTHON to choose the interpreter (default python3.11) and
# BENCH_VENV to put the venv elsewhere (default <repo>/.venv-bench).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3.11}"
VENV="${BENCH_VENV:-$ROOT/.venv-bench}"
STAMP="$VENV/.installed-bench"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "bench/setup.sh: $PYTHON not found (set PYTHON to a Python 3.11+ interpreter)" >&2
    exit 1
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "bench/setup.sh: $PYTHON is older than Python 3.11" >&2
    exit 1
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "bench/setup.sh: creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi

want="$(cat "$ROOT/bench/requirements.txt" "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
have="$(cat "$STAMP" 2>/dev/null || true)"
if [ "$want" != "$have" ]; then
    echo "bench/setup.sh: installing agentlog[postgres] and bench/requirements.txt into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[postgres]" -r "$ROOT/bench/requirements.txt"
    echo "$want" >"$STAMP"
fi
