"""Checked summaries of the caller's sessions, and their Markdown digests.

Registered when the app is given a summary store; ``POST`` also needs a summariser. A summary
taken here also refreshes the session's long-term memory, when the app has a memory store.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import HTTPException, Query, status
from fastapi.responses import PlainTextResponse

from agentlog.server.deps import CallerDep, ServerDep, SessionId
from agentlog.server.routes.resource import resource_router
from agentlog.summary import StoredSummary, memory_entries, render_digest

__all__ = ["router"]

router = resource_router("/sessions", ["summaries"])

_NONE: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such session, or no summary of it yet."}
}


@router.get("/{session_id}/summary", responses=_NONE)
async def get_summary(
    session_id: SessionId,
    server: ServerDep,
    caller: CallerDep,
    ok_only: Annotated[bool, Query(description="Only a delivered (checked) record.")] = False,
) -> StoredSummary:
    """The newest summary of the session: a checked record with each item's cited events and
    provenance (``user_claim`` when only the user said it), or a failure with its problems."""
    summary = await server.summary_store().get(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id, ok_only=ok_only
    )
    if summary is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no summary of session {session_id!r}")
    return summary


@router.post("/{session_id}/summary", responses={404: {"description": "No such session."}})
async def take_summary(
    session_id: SessionId, server: ServerDep, caller: CallerDep
) -> StoredSummary:
    """Summarise the session now and keep the outcome (an unchecked record is never kept)."""
    summarizer = server.summarizer
    if summarizer is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "this server takes no summaries on request")
    session = await server.store.get_session(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    result = await summarizer.summarize(session)
    summary = StoredSummary.from_result(
        result,
        app_name=server.app_name,
        user_id=caller.user_id,
        session_id=session_id,
        version=session.version,
    )
    await server.summary_store().put(summary)
    if server.memory is not None and summary.record is not None:
        entries = memory_entries(
            summary.record, app_name=server.app_name, user_id=caller.user_id, session_id=session_id
        )
        await server.memory.delete_session(
            app_name=server.app_name, user_id=caller.user_id, session_id=session_id
        )
        await server.memory.add(entries)
    return summary


@router.get(
    "/{session_id}/digest",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/markdown": {}}}, **_NONE},
)
async def get_digest(
    session_id: SessionId, server: ServerDep, caller: CallerDep
) -> PlainTextResponse:
    """The newest checked record as Markdown for a person: every line links to its events
    (``#<event id>``), and what rests only on the user's word says so."""
    summary = await server.summary_store().get(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id, ok_only=True
    )
    if summary is None or summary.record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no checked summary of {session_id!r}")
    session = await server.store.get_session(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    return PlainTextResponse(render_digest(summary.record, session), media_type="text/markdown")
