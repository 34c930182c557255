"""google-genai ``Content`` (as ADK stores it: JSON) to agentlog ``Content`` and back.

Text, function calls, function responses and code-execution results become agentlog parts of
the same kind, so agentlog's summaries, compaction and history read them. A part agentlog has
no kind for (a thought, inline data, a file, executable code, ...) becomes an empty text part;
whatever a part's agentlog form cannot say is kept in its ``provider_metadata`` under
:data:`ADK_KEY` as a patch (:mod:`agentlog.adk._patch`), so the round trip is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from agentlog._frozen import thaw
from agentlog.adk._patch import Patch, apply_patch, make_patch
from agentlog.events import Content, Part

__all__ = ["ADK_KEY", "PartDraft", "content_json", "draft_parts", "parts_from_drafts"]

ADK_KEY: Final = "google_adk"
"""The ``Part.provider_metadata`` key holding what agentlog's fields cannot say about ADK data:
``part`` (this part's patch), ``event`` (on an event's first part: the event's patch) and
``carrier`` (the part exists only to hold ``event``: the ADK event has no content)."""

_THOUGHT_SIGNATURE: Final = "gemini_thought_signature"
"""agentlog's Gemini adapter keeps a part's thought signature under this key."""

_OUTCOMES: Final[dict[str, Literal["ok", "failed", "deadline_exceeded"]]] = {
    "OUTCOME_OK": "ok",
    "OUTCOME_FAILED": "failed",
    "OUTCOME_DEADLINE_EXCEEDED": "deadline_exceeded",
}
_ADK_OUTCOMES: Final = {v: k for k, v in _OUTCOMES.items()}


class PartDraft:
    """One part on its way in: agentlog's fields, and the patch for what they cannot say."""

    __slots__ = ("fields", "patch")

    def __init__(self, fields: dict[str, Any], patch: Patch) -> None:
        self.fields = fields
        self.patch = patch


def _native(raw: Mapping[str, Any]) -> dict[str, Any]:
    """agentlog ``Part`` fields for an ADK part, plain values; an empty text if none fits."""
    text = raw.get("text")
    if isinstance(text, str) and not raw.get("thought"):
        return {"text": text}
    call = raw.get("function_call")
    if isinstance(call, Mapping) and call.get("id") and call.get("name"):
        args = call.get("args")
        return {
            "function_call": {
                "id": call["id"],
                "name": call["name"],
                "args": args if isinstance(args, Mapping) else {},
            }
        }
    answer = raw.get("function_response")
    if isinstance(answer, Mapping) and answer.get("id") and answer.get("name"):
        body = answer.get("response")
        return {
            "function_response": {
                "id": answer["id"],
                "name": answer["name"],
                "response": body if isinstance(body, Mapping) else {},
            }
        }
    result = raw.get("code_execution_result")
    if isinstance(result, Mapping) and result.get("outcome") in _OUTCOMES:
        output = result.get("output")
        return {
            "code_execution_result": {
                "outcome": _OUTCOMES[result["outcome"]],
                "output": output if isinstance(output, str) else "",
            }
        }
    return {"text": ""}


def _fields_json(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The ADK JSON that agentlog part fields stand for (the inverse of :func:`_native`)."""
    if "text" in fields:
        return {"text": fields["text"]}
    if "function_call" in fields:
        call = fields["function_call"]
        return {"function_call": {"id": call["id"], "name": call["name"], "args": call["args"]}}
    if "function_response" in fields:
        answer = fields["function_response"]
        return {
            "function_response": {
                "id": answer["id"],
                "name": answer["name"],
                "response": answer["response"],
            }
        }
    result = fields["code_execution_result"]
    return {
        "code_execution_result": {
            "outcome": _ADK_OUTCOMES[result["outcome"]],
            "output": result["output"],
        }
    }


def draft_parts(raw_parts: Sequence[Mapping[str, Any]]) -> list[PartDraft]:
    """Drafts for the parts of an ADK ``Content`` JSON, in order."""
    drafts = []
    for raw in raw_parts:
        fields = _native(raw)
        drafts.append(PartDraft(fields, make_patch(raw, _fields_json(fields))))
    return drafts


def parts_from_drafts(drafts: Sequence[PartDraft], event_patch: Patch | None) -> tuple[Part, ...]:
    """agentlog parts from drafts; ``event_patch`` rides on the first part."""
    parts = []
    for index, draft in enumerate(drafts):
        meta: dict[str, Any] = {}
        if draft.patch:
            meta["part"] = draft.patch
        if index == 0 and event_patch:
            meta["event"] = event_patch
        if meta:
            parts.append(Part(**draft.fields, provider_metadata={ADK_KEY: meta}))
        else:
            parts.append(Part(**draft.fields))
    return tuple(parts)


def _part_json(part: Part) -> dict[str, Any]:
    """The ADK JSON of one agentlog part, its patch applied."""
    if part.text is not None:
        native: dict[str, Any] = {"text": part.text}
    elif part.function_call is not None:
        call = part.function_call
        native = {"function_call": {"id": call.id, "name": call.name, "args": thaw(call.args)}}
    elif part.function_response is not None:
        answer = part.function_response
        native = {
            "function_response": {
                "id": answer.id,
                "name": answer.name,
                "response": thaw(answer.response),
            }
        }
    elif part.code_execution_result is not None:
        result = part.code_execution_result
        native = {
            "code_execution_result": {
                "outcome": _ADK_OUTCOMES[result.outcome],
                "output": result.output,
            }
        }
    else:
        # genai has no artifact reference; ADK shows the model a placeholder the same way.
        ref = part.artifact_ref
        assert ref is not None  # a Part holds exactly one payload
        native = {"text": f"[artifact {ref.name!r}, version {ref.version}]"}
    meta = part.provider_metadata or {}
    signature = meta.get(_THOUGHT_SIGNATURE)
    if isinstance(signature, str):
        native["thought_signature"] = signature
    adk = meta.get(ADK_KEY)
    if isinstance(adk, Mapping):
        apply_patch(native, adk.get("part"))
    return native


def content_json(content: Content, *, role_patch: Patch | None = None) -> dict[str, Any]:
    """The ADK JSON of an agentlog ``Content``, carrier parts left out."""
    parts = [
        _part_json(p)
        for p in content.parts
        if not (p.provider_metadata and _is_carrier(p.provider_metadata))
    ]
    return apply_patch({"parts": parts, "role": content.role}, role_patch)


def _is_carrier(meta: Mapping[str, Any]) -> bool:
    adk = meta.get(ADK_KEY)
    return isinstance(adk, Mapping) and bool(adk.get("carrier"))
