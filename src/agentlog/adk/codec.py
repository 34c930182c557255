"""google-adk ``Event`` to agentlog ``Event`` and back, exactly.

An ADK event is read as the JSON google-adk's own ``DatabaseSessionService`` stores
(``model_dump(mode="json", exclude_none=True)``), and each field agentlog has is mapped to it:
ids, author, timestamp, streaming flags, error code and message, long-running call ids, branch,
token usage, model, content parts, and the actions (state delta with its ``app:``/``user:``
keys, artifact delta, transfer, escalate, skip-summarization, tool confirmations, credential
requests, compaction). What agentlog has no field for, or maps with loss (``custom_metadata``,
``node_info``, the full ``usage_metadata``, an error code's own spelling, ``end_of_agent``,
``agent_state``, a thought part, ...), is kept as a patch on the event's first part
(:mod:`agentlog.adk.content`), on a carrier part when the event has no content. Reading back
applies the patches, so :func:`to_adk_event` of :func:`from_adk_event` equals what
``DatabaseSessionService`` would return for the same event.

Two differences from ADK's own stores, both agentlog's contract: a state value of ``None``
deletes its key (ADK keeps the key with the value ``None``; the event itself round-trips), and
the store may move a timestamp that is not after the previous event's just after it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

try:
    from google.adk.events import Event as AdkEvent
except ImportError as exc:  # pragma: no cover - covered by a test that hides the SDK
    raise ImportError("agentlog.adk needs google-adk: pip install 'agentlog[adk]'") from exc

from agentlog._frozen import thaw
from agentlog.adk._patch import Patch, apply_patch, make_patch
from agentlog.adk.content import ADK_KEY, PartDraft, content_json, draft_parts, parts_from_drafts
from agentlog.events import REMOVED, Content, ErrorCode, Event, EventActions, Part

__all__ = ["CoveredIds", "from_adk_event", "to_adk_event"]

CoveredIds = Callable[[float, float], tuple[str, ...]]
"""The ids of the events a compaction from ``start`` to ``end`` (timestamps) covers."""

_UNSET: Final = "-"
"""agentlog's stand-in for an ADK id field left empty (ADK's default); the patch keeps ''."""
_DEFAULT_NODE_INFO: Final = {"path": ""}
"""What every ADK event carries when no workflow node made it: not worth a patch."""
_EMPTY_ACTIONS: Final = (
    "state_delta",
    "artifact_delta",
    "requested_auth_configs",
    "requested_tool_confirmations",
)
"""The action fields ADK always writes, empty or not."""

_ADK_ERRORS: Final = {
    "BLOCKLIST": ErrorCode.SAFETY,
    "PROHIBITED_CONTENT": ErrorCode.SAFETY,
    "SPII": ErrorCode.SAFETY,
    "IMAGE_SAFETY": ErrorCode.SAFETY,
    "MALFORMED_FUNCTION_CALL": ErrorCode.MALFORMED_OUTPUT,
}
_ERROR_NAMES: Final = {ErrorCode.MALFORMED_OUTPUT: "MALFORMED_FUNCTION_CALL"}


def _error_code(value: object) -> ErrorCode | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return ErrorCode(value.lower())
    except ValueError:
        return _ADK_ERRORS.get(value.upper(), ErrorCode.PROVIDER_ERROR)


def _error_name(code: ErrorCode) -> str:
    return _ERROR_NAMES.get(code, code.value.upper())


def _usage_json(input_tokens: int, output_tokens: int) -> dict[str, int]:
    return {
        "prompt_token_count": input_tokens,
        "candidates_token_count": output_tokens,
        "total_token_count": input_tokens + output_tokens,
    }


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


# --- ADK to agentlog ----------------------------------------------------------------------------


def from_adk_event(event: AdkEvent, *, covered: CoveredIds | None = None) -> Event:
    """The agentlog event for an ADK event. ``covered`` gives the event ids a compaction spans
    (agentlog's compaction lists them; ADK's has only the timestamps)."""
    raw: dict[str, Any] = event.model_dump(mode="json", exclude_none=True)
    fields: dict[str, Any] = {}
    native: dict[str, Any] = {"node_info": _DEFAULT_NODE_INFO}
    for name in ("id", "invocation_id", "author"):
        value = raw.get(name) or _UNSET
        fields[name] = native[name] = value
    fields["timestamp"] = native["timestamp"] = raw["timestamp"]
    for name in ("partial", "turn_complete", "interrupted"):
        if isinstance(raw.get(name), bool):
            fields[name] = native[name] = raw[name]
    code = _error_code(raw.get("error_code"))
    if code is not None:
        fields["error_code"] = code
        native["error_code"] = _error_name(code)
    for ours, theirs in (("error_message", "error_message"), ("branch", "branch")):
        if isinstance(raw.get(theirs), str):
            fields[ours] = native[theirs] = raw[theirs]
    if isinstance(raw.get("model_version"), str):
        fields["model"] = native["model_version"] = raw["model_version"]
    ids = raw.get("long_running_tool_ids")
    if isinstance(ids, list) and ids:
        fields["long_running_tool_ids"] = ids
        native["long_running_tool_ids"] = sorted(ids)
    usage = raw.get("usage_metadata")
    if isinstance(usage, Mapping):
        tokens_in = _count(usage.get("prompt_token_count"))
        tokens_out = _count(usage.get("candidates_token_count"))
        fields["usage"] = {"input_tokens": tokens_in, "output_tokens": tokens_out}
        native["usage_metadata"] = _usage_json(tokens_in, tokens_out)

    raw_actions = raw.get("actions") or {}
    actions_fields, actions_native = _actions_in(raw_actions, covered)
    fields["actions"] = EventActions(**actions_fields)
    native["actions"] = actions_native

    drafts, role, role_patch = _content_in(raw.get("content"), fields["author"])
    compared = dict(raw)
    if drafts:
        del compared["content"]
    patch = make_patch(compared, native)
    # The actions are compared key by key, not as one value: a patch then holds only what
    # agentlog has no field for, never a second copy of the state delta.
    changed = patch.get("set", {})
    changed.pop("actions", None)
    if not changed:
        patch.pop("set", None)
    actions_patch = make_patch(raw_actions, actions_native)
    if actions_patch:
        patch["actions"] = actions_patch
    if role_patch:
        patch["role"] = role_patch
    if drafts:
        fields["content"] = Content(role=role, parts=parts_from_drafts(drafts, patch))
    elif patch:
        carrier = Part(text="", provider_metadata={ADK_KEY: {"carrier": True, "event": patch}})
        fields["content"] = Content(role=role, parts=(carrier,))
    return Event(**fields)


def _content_in(raw: object, author: str) -> tuple[list[PartDraft], Any, Patch]:
    """Part drafts for an ADK content (none if agentlog cannot hold it), its agentlog role,
    and the patch for its own role."""
    role = "user" if author == "user" else "model"
    if not isinstance(raw, Mapping):
        return [], role, {}
    parts = raw.get("parts")
    if not isinstance(parts, list) or not parts or not all(isinstance(p, Mapping) for p in parts):
        return [], role, {}
    theirs = raw.get("role")
    if theirs in ("user", "model"):
        role = theirs
    original = {k: v for k, v in raw.items() if k != "parts"}
    return draft_parts(parts), role, make_patch(original, {"role": role})


def _actions_in(
    raw: Mapping[str, Any], covered: CoveredIds | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """agentlog ``EventActions`` fields for ADK actions JSON, and the JSON they give back."""
    fields: dict[str, Any] = {}
    native: dict[str, Any] = {name: {} for name in _EMPTY_ACTIONS}
    delta = raw.get("state_delta")
    if isinstance(delta, Mapping) and delta:
        fields["state_delta"] = native["state_delta"] = dict(delta)
    artifacts = raw.get("artifact_delta")
    if isinstance(artifacts, Mapping) and artifacts:
        fields["artifact_delta"] = native["artifact_delta"] = dict(artifacts)
    if isinstance(raw.get("transfer_to_agent"), str):
        fields["transfer_to_agent"] = native["transfer_to_agent"] = raw["transfer_to_agent"]
    for name in ("escalate", "skip_summarization"):
        if raw.get(name) is True:
            fields[name] = native[name] = True
    confirmations = raw.get("requested_tool_confirmations")
    if isinstance(confirmations, Mapping) and confirmations:
        fields["requested_tool_confirmations"] = {
            cid: {
                "hint": c.get("hint") or "",
                "payload": c.get("payload"),
                # ADK's False is also its default: a request not answered yet.
                "confirmed": True if c.get("confirmed") is True else None,
            }
            for cid, c in confirmations.items()
        }
        native["requested_tool_confirmations"] = {
            cid: _confirmation_json(c["hint"], c["payload"], c["confirmed"])
            for cid, c in fields["requested_tool_confirmations"].items()
        }
    configs = raw.get("requested_auth_configs")
    if isinstance(configs, Mapping) and configs:
        fields["requested_auth_configs"] = {
            cid: {"auth_type": _auth_type(config), "params": config}
            for cid, config in configs.items()
        }
        native["requested_auth_configs"] = dict(configs)
    compaction = raw.get("compaction")
    if isinstance(compaction, Mapping):
        summary = _summary_in(compaction.get("compacted_content"))
        start, end = compaction.get("start_timestamp"), compaction.get("end_timestamp")
        if summary is not None and isinstance(start, int | float) and isinstance(end, int | float):
            fields["compaction"] = {
                "start_timestamp": start,
                "end_timestamp": end,
                "event_ids": covered(start, end) if covered is not None else (),
                "summary": summary,
            }
            native["compaction"] = {
                "start_timestamp": start,
                "end_timestamp": end,
                "compacted_content": content_json(summary),
            }
    return fields, native


def _summary_in(raw: object) -> Content | None:
    drafts, role, role_patch = _content_in(raw, "model")
    if not drafts or role_patch:
        return None
    return Content(role=role, parts=parts_from_drafts(drafts, None))


def _auth_type(config: object) -> str:
    scheme = config.get("auth_scheme") if isinstance(config, Mapping) else None
    kind = scheme.get("type") if isinstance(scheme, Mapping) else None
    return kind if isinstance(kind, str) and kind else "unknown"


def _confirmation_json(hint: str, payload: Any, confirmed: bool | None) -> dict[str, Any]:
    out: dict[str, Any] = {"hint": hint, "confirmed": bool(confirmed)}
    if payload is not None:
        out["payload"] = thaw(payload)
    return out


# --- agentlog to ADK ----------------------------------------------------------------------------


def to_adk_event(event: Event) -> AdkEvent:
    """The ADK event for an agentlog event: the one it was made from, if it was (patches
    applied), else its fields mapped to ADK's. A credential request agentlog made itself has no
    ADK form and is left out."""
    out: dict[str, Any] = {
        "id": event.id,
        "invocation_id": event.invocation_id,
        "author": event.author,
        "timestamp": event.timestamp,
        "node_info": dict(_DEFAULT_NODE_INFO),
        "actions": _actions_json(event.actions),
    }
    for name in ("partial", "turn_complete", "interrupted", "error_message", "branch"):
        value = getattr(event, name)
        if value is not None:
            out[name] = value
    if event.error_code is not None:
        out["error_code"] = _error_name(event.error_code)
    if event.model is not None:
        out["model_version"] = event.model
    if event.long_running_tool_ids:
        out["long_running_tool_ids"] = sorted(event.long_running_tool_ids)
    if event.usage is not None:
        out["usage_metadata"] = _usage_json(event.usage.input_tokens, event.usage.output_tokens)
    patch: Mapping[str, Any] = {}
    content = event.content
    if content is not None:
        first = content.parts[0].provider_metadata or {}
        adk = first.get(ADK_KEY)
        if isinstance(adk, Mapping):
            patch = adk.get("event") or {}
        raw_content = content_json(content, role_patch=patch.get("role"))
        if raw_content["parts"]:
            out["content"] = raw_content
    apply_patch(out["actions"], patch.get("actions"))
    apply_patch(out, patch)
    return AdkEvent.model_validate(out)


def _actions_json(actions: EventActions) -> dict[str, Any]:
    out: dict[str, Any] = {
        "state_delta": {
            k: None if v is REMOVED else thaw(v) for k, v in actions.state_delta.items()
        },
        "artifact_delta": dict(actions.artifact_delta),
        "requested_auth_configs": {
            cid: thaw(c.params)
            for cid, c in actions.requested_auth_configs.items()
            if "auth_scheme" in c.params
        },
        "requested_tool_confirmations": {
            cid: _confirmation_json(c.hint, c.payload, c.confirmed)
            for cid, c in actions.requested_tool_confirmations.items()
        },
    }
    if actions.transfer_to_agent is not None:
        out["transfer_to_agent"] = actions.transfer_to_agent
    if actions.escalate:
        out["escalate"] = True
    if actions.skip_summarization:
        out["skip_summarization"] = True
    if actions.compaction is not None:
        compaction = actions.compaction
        out["compaction"] = {
            "start_timestamp": compaction.start_timestamp,
            "end_timestamp": compaction.end_timestamp,
            "compacted_content": content_json(compaction.summary),
        }
    return out
