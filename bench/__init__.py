"""Benchmarks for agentlog, run from the repository root in the bench venv (``.venv-bench``).

``python -m bench.stores`` compares the session stores with google-adk's and a bare-driver floor;
see ``bench/README.md``.
"""
