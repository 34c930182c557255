"""Instruction templates: ``{key}`` placeholders filled from state.

``{key}`` must exist (a missing key is an ``InstructionError``), ``{key?}`` may be missing and
then reads as empty. Keys may carry a scope prefix (``{user:name}``, ``{app:tone}``,
``{temp:x}``). Anything else in braces, such as a JSON example, is left as written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from agentlog.errors import AgentlogError

__all__ = ["InstructionError", "fill_instruction"]

_PLACEHOLDER = re.compile(r"\{((?:app:|user:|temp:)?[A-Za-z_][A-Za-z0-9_]*)(\?)?\}")


class InstructionError(AgentlogError, KeyError):
    """An instruction names a state key that is not set."""


def fill_instruction(template: str, state: Mapping[str, Any]) -> str:
    """``template`` with each placeholder replaced by its state value."""

    def replace(match: re.Match[str]) -> str:
        key, optional = match[1], match[2] == "?"
        if key not in state:
            if optional:
                return ""
            raise InstructionError(f"instruction needs state key {key!r}, which is not set")
        value = state[key]
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return _PLACEHOLDER.sub(replace, template)
