"""What agentlog's native fields cannot say about a google-adk value, and how to put it back.

An ADK event is converted field by field into agentlog's own event, so that summaries,
compaction and the rest of agentlog read it. What has no agentlog field (``custom_metadata``,
``node_info``, a thought part, an error code's exact spelling, ...) is kept as a *patch*: the
ADK JSON of the value compared with the JSON the native fields give back, one level deep. The
patch holds each key whose value differs or is missing (``set``) and each key the native form
has but the original had not (``drop``). Applying it to the native form gives the original
JSON exactly, so a value survives the round trip whatever ADK adds to its models later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["Patch", "apply_patch", "make_patch"]

Patch = dict[str, Any]
"""``{"set": {key: value}, "drop": [key, ...]}``, either left out when empty."""


def make_patch(original: Mapping[str, Any], native: Mapping[str, Any]) -> Patch:
    """The patch turning ``native`` into ``original`` (both JSON objects); empty if equal."""
    changed = {k: v for k, v in original.items() if k not in native or native[k] != v}
    dropped = [k for k in native if k not in original]
    patch: Patch = {}
    if changed:
        patch["set"] = changed
    if dropped:
        patch["drop"] = dropped
    return patch


def apply_patch(native: dict[str, Any], patch: Mapping[str, Any] | None) -> dict[str, Any]:
    """``native`` with ``patch`` applied, in place; returns it."""
    if not patch:
        return native
    for key in patch.get("drop", ()):
        native.pop(key, None)
    changed = patch.get("set")
    if changed:
        native.update(_plain(changed))
    return native


def _plain(value: Any) -> Any:
    # Values read back from a store are frozen containers; ADK's models want plain ones.
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
