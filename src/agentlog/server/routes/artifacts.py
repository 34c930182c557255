"""Artifacts of the caller's sessions: the names, and one version's bytes.

The artifact service is the runner's, so what a tool saved (or an oversized tool result the
runner offloaded) is what these routes read. Another user's session, or an artifact the session
cannot see, is a 404 like any missing one. The bytes are served as a download in a sandbox, so
an artifact a model or tool wrote (HTML, SVG) never runs as a page of this server's origin.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import HTTPException, Path, Query, Response, status
from pydantic import BaseModel, ConfigDict, Field

from agentlog.artifacts.base import MAX_NAME_LENGTH, USER_PREFIX, Artifact
from agentlog.errors import ArtifactNotFoundError, InvalidArtifactNameError
from agentlog.server.auth import Caller
from agentlog.server.deps import CallerDep, Server, ServerDep, SessionId
from agentlog.server.routes.resource import resource_router
from agentlog.sessions.base import GetSessionConfig

__all__ = ["ArtifactList", "router"]

router = resource_router("/sessions", ["artifacts"])

_NONE: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such session for this user, or no such artifact or version."},
    422: {"description": "A name no artifact can have."},
}

ArtifactName = Annotated[
    str,
    Path(
        description="The artifact's name (``user:`` names are the user's, from any session): "
        "no path separator or NUL, not a relative path.",
        examples=["report.pdf"],
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=r"^[^/\\\x00]*$",
        json_schema_extra={
            "not": {"enum": [USER_PREFIX, ".", "..", f"{USER_PREFIX}.", f"{USER_PREFIX}.."]}
        },
    ),
]
"""A name :func:`~agentlog.artifacts.base.validate_filename` accepts, as the schema says it."""


class ArtifactList(BaseModel):
    """The artifacts a session can see."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    names: list[str] = Field(description="Sorted names: the session's own and the user's.")


async def _check_session(server: Server, caller: Caller, session_id: str) -> None:
    # Raises SessionNotFoundError (404) for a session that is not the caller's, so a user-scoped
    # name is never read through someone else's session id, nor through a made-up one.
    await server.store.get_session(
        app_name=server.app_name,
        user_id=caller.user_id,
        session_id=session_id,
        config=GetSessionConfig(num_recent_events=0),
    )


@router.get("/{session_id}/artifacts", responses=_NONE)
async def list_artifacts(
    session_id: SessionId, server: ServerDep, caller: CallerDep
) -> ArtifactList:
    """The names of the artifacts the session can see."""
    await _check_session(server, caller, session_id)
    names = await server.artifacts.list_artifact_keys(
        app_name=server.app_name, user_id=caller.user_id, session_id=session_id
    )
    return ArtifactList(names=names)


@router.get(
    "/{session_id}/artifacts/{name}",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}}, **_NONE},
)
async def get_artifact(
    session_id: SessionId,
    name: ArtifactName,
    server: ServerDep,
    caller: CallerDep,
    version: Annotated[
        int | None, Query(ge=0, description="This version (the latest without it).")
    ] = None,
) -> Response:
    """One version of an artifact, as it was saved, with its media type; ``X-Artifact-Version``
    says which version it is."""
    await _check_session(server, caller, session_id)
    try:
        artifact = await server.artifacts.load_artifact(
            app_name=server.app_name,
            user_id=caller.user_id,
            session_id=session_id,
            filename=name,
            version=version,
        )
    except ArtifactNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None
    except InvalidArtifactNameError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return _download(artifact)


def _download(artifact: Artifact) -> Response:
    return Response(
        content=artifact.data,
        media_type=artifact.mime_type,
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(artifact.name, safe='')}",
            "Content-Security-Policy": "sandbox",
            "X-Content-Type-Options": "nosniff",
            "X-Artifact-Version": str(artifact.version),
        },
    )
