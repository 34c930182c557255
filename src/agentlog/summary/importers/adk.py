"""A google-adk session, as ``Session.model_dump(mode="json")`` produces it (snake_case or, with
``by_alias=True``, camelCase keys), as an agentlog ``Session``: id, app name, user id, state and
events with content parts (text, function calls and responses, code results), author,
invocation id, timestamp and actions.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any, Literal

from agentlog.events import (
    CodeExecutionResult,
    Content,
    CredentialRequest,
    ErrorCode,
    Event,
    EventActions,
    EventCompaction,
    FunctionCall,
    FunctionResponse,
    Part,
    ToolConfirmation,
    Usage,
)
from agentlog.sessions.base import Session
from agentlog.summary.importers._origin import check_author, check_unique
from agentlog.summary.importers.calls import CallIds

__all__ = ["import_adk_session"]


def _get(data: Mapping[str, Any], snake: str, default: Any = None) -> Any:
    if snake in data:
        return data[snake]
    head, *rest = snake.split("_")
    camel = head + "".join(w.title() for w in rest)
    return data.get(camel, default)


_ADK_ERRORS = {
    "BLOCKLIST": ErrorCode.SAFETY,
    "PROHIBITED_CONTENT": ErrorCode.SAFETY,
    "SPII": ErrorCode.SAFETY,
    "IMAGE_SAFETY": ErrorCode.SAFETY,
    "MALFORMED_FUNCTION_CALL": ErrorCode.MALFORMED_OUTPUT,
}
_OUTCOMES: dict[str, Literal["ok", "failed", "deadline_exceeded"]] = {
    "OUTCOME_OK": "ok",
    "OUTCOME_FAILED": "failed",
    "OUTCOME_DEADLINE_EXCEEDED": "deadline_exceeded",
}


def _error_code(value: Any) -> ErrorCode | None:
    if not value:
        return None
    text = str(value)
    try:
        return ErrorCode(text.lower())
    except ValueError:
        return _ADK_ERRORS.get(text.upper(), ErrorCode.PROVIDER_ERROR)


def _adk_part(raw: Mapping[str, Any], calls: CallIds, fallback: str) -> Part | None:
    text = _get(raw, "text")
    if text is not None:
        return None if _get(raw, "thought") else Part(text=str(text))
    fc = _get(raw, "function_call")
    if fc:
        cid = calls.call(fc["name"], fc.get("id"), fallback)
        return Part(function_call=FunctionCall(id=cid, name=fc["name"], args=fc.get("args") or {}))
    fr = _get(raw, "function_response")
    if fr:
        cid = calls.response(fr["name"], fr.get("id"), fallback, fallback)
        body = fr.get("response")
        body = body if isinstance(body, dict) else {"result": body}
        return Part(function_response=FunctionResponse(id=cid, name=fr["name"], response=body))
    result = _get(raw, "code_execution_result")
    if result:
        outcome = _OUTCOMES.get(str(result.get("outcome")), "failed")
        return Part(
            code_execution_result=CodeExecutionResult(
                outcome=outcome,
                output=str(result.get("output") or ""),
            )
        )
    code = _get(raw, "executable_code")
    if code:
        return Part(text=f"[code to run]\n{code.get('code', '')}")
    blob = _get(raw, "inline_data") or _get(raw, "file_data")
    if blob:
        kind = _get(blob, "mime_type") or "data"
        name = _get(blob, "display_name") or _get(blob, "file_uri") or ""
        return Part(text=f"[attached {kind}{' ' + name if name else ''}]")
    return None


def _adk_actions(raw: Mapping[str, Any], earlier: list[Event]) -> EventActions:
    confirmations = {
        cid: ToolConfirmation(
            hint=str(c.get("hint") or ""), payload=c.get("payload"), confirmed=c.get("confirmed")
        )
        for cid, c in (_get(raw, "requested_tool_confirmations") or {}).items()
    }
    credentials = {}
    for cid, config in (_get(raw, "requested_auth_configs") or {}).items():
        scheme = _get(config, "auth_scheme") or {}
        kind = scheme.get("type") if isinstance(scheme, Mapping) else None
        credentials[cid] = CredentialRequest(auth_type=str(kind or "unknown"))
    compaction = None
    raw_compaction = _get(raw, "compaction")
    if raw_compaction:
        start, end = _get(raw_compaction, "start_timestamp"), _get(raw_compaction, "end_timestamp")
        summary = _adk_content(_get(raw_compaction, "compacted_content") or {}, CallIds(), "c")
        compaction = EventCompaction(
            start_timestamp=start,
            end_timestamp=end,
            event_ids=tuple(e.id for e in earlier if start <= e.timestamp <= end),
            summary=summary or Content.from_text("", role="model"),
        )
    return EventActions(
        state_delta=dict(_get(raw, "state_delta") or {}),
        artifact_delta=dict(_get(raw, "artifact_delta") or {}),
        transfer_to_agent=_get(raw, "transfer_to_agent"),
        escalate=bool(_get(raw, "escalate")),
        skip_summarization=bool(_get(raw, "skip_summarization")),
        requested_auth_configs=credentials,
        requested_tool_confirmations=confirmations,
        compaction=compaction,
    )


def _adk_content(raw: Mapping[str, Any], calls: CallIds, eid: str) -> Content | None:
    parts = [
        part
        for i, p in enumerate(raw.get("parts") or ())
        if (part := _adk_part(p, calls, f"call-{eid}-{i}")) is not None
    ]
    if not parts:
        return None
    return Content(role="user" if raw.get("role") == "user" else "model", parts=tuple(parts))


def import_adk_session(data: Mapping[str, Any] | str) -> Session:
    """An agentlog ``Session`` from a google-adk session dump (a dict or its JSON text).

    Thought parts are dropped; attachments become a text placeholder; an ADK finish reason
    becomes the nearest ``ErrorCode``. Refuses, as :func:`session_from_jsonl` does, a function
    response that answers no call before it (``UnansweredResponseError``), an event authored as
    agentlog's own records (``ReservedAuthorError``) and an event id given twice
    (``DuplicateEventError``).
    """
    raw: Mapping[str, Any] = json.loads(data) if isinstance(data, str) else data
    calls = CallIds()
    events: list[Event] = []
    for index, e in enumerate(raw.get("events") or ()):
        eid = str(e.get("id") or f"adk-{index}")
        author = check_author(eid, str(e.get("author") or "unknown"))
        usage = _get(e, "usage_metadata")
        events.append(
            Event(
                id=eid,
                invocation_id=str(_get(e, "invocation_id") or f"inv-{eid}"),
                author=author,
                timestamp=float(e.get("timestamp") or 0.0),
                content=_adk_content(e.get("content") or {}, calls, eid),
                partial=e.get("partial"),
                turn_complete=_get(e, "turn_complete"),
                interrupted=e.get("interrupted"),
                error_code=_error_code(_get(e, "error_code")),
                error_message=_get(e, "error_message"),
                long_running_tool_ids=list(_get(e, "long_running_tool_ids") or ()),
                branch=e.get("branch"),
                usage=Usage(
                    input_tokens=_get(usage, "prompt_token_count") or 0,
                    output_tokens=_get(usage, "candidates_token_count") or 0,
                )
                if usage
                else None,
                model=_get(e, "model_version"),
                actions=_adk_actions(e.get("actions") or {}, events),
            )
        )
    check_unique(str(raw["id"]), (e.id for e in events))
    return Session(
        id=str(raw["id"]),
        app_name=str(_get(raw, "app_name") or "adk"),
        user_id=str(_get(raw, "user_id") or "unknown"),
        state=dict(raw.get("state") or {}),
        events=tuple(events),
        version=len(events),
        last_update_time=float(
            _get(raw, "last_update_time") or (events[-1].timestamp if events else time.time())
        ),
    )
