"""What the evaluation-set tests share: the documented ``meta`` keys (``evals/README.md``) and
loading a set's builder script by path (the scripts sit in ``evals/``, not on the path)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

META_KEYS = frozenset(
    {
        "domain",
        "scenario",
        "tags",
        "expected_entities",
        "expected_commitments",
        "expected_open_questions",
        "gold_actions",
        "user_claims",
        "injection",
        "notes",
    }
)
"""The keys of every session's ``meta``, as ``evals/README.md`` documents them."""


def load_builder(path: Path) -> ModuleType:
    """The builder script at ``path``, imported as a module."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
