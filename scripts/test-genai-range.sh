#!/usr/bin/env bash
# Run the Gemini adapter's tests on both ends of the `gemini` extra's google-genai range.
#
# The dev venv resolves google-genai to the newest release google-adk allows (2.x), which is
# neither end of the range agentlog supports (`google-genai>=2.30,<4`). For each end this
# installs google-genai and its dependencies into a folder of their own under .venv-genai/
# (once: a stamp records the spec) and runs the provider tests with that folder first on
# PYTHONPATH, so the dev venv's pytest and agentlog run against that SDK. Only the install
# reaches the package registry; the tests talk to a local wire-format server.
#
# Usage: scripts/test-genai-range.sh [PYTHON]   (PYTHON defaults to .venv/bin/python)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${1:-$ROOT/.venv/bin/python}"
BASE="$ROOT/.venv-genai"
# Keep in step with the `gemini` extra in pyproject.toml.
ENDS=("google-genai==2.30.0" "google-genai>=3,<4")
TESTS=("tests/providers/test_gemini.py" "tests/providers/test_model_secrets.py")

cd "$ROOT"
for spec in "${ENDS[@]}"; do
    name="$(printf '%s' "$spec" | tr -c 'A-Za-z0-9.' '_')"
    dir="$BASE/$name"
    if [ "$(cat "$dir/.installed" 2>/dev/null || true)" != "$spec" ]; then
        echo "genai-range: installing $spec into $dir" >&2
        rm -rf "$dir"
        mkdir -p "$BASE"
        # pip's warning that the dev venv's google-adk wants another google-genai is expected
        # (that is the point), so its output is shown only if the install fails.
        if ! "$PYTHON" -m pip install --quiet --disable-pip-version-check --target "$dir" \
            "$spec" >"$BASE/$name.log" 2>&1; then
            cat "$BASE/$name.log" >&2
            exit 1
        fi
        printf '%s' "$spec" >"$dir/.installed"
    fi
    version="$(PYTHONPATH="$dir" "$PYTHON" -c 'from google import genai; print(genai.__version__)')"
    echo "genai-range: google-genai $version ($spec)" >&2
    PYTHONPATH="$dir" "$PYTHON" -m pytest -q -p no:cacheprovider "${TESTS[@]}"
done
