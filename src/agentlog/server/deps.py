"""What every route gets: the server's parts, and the authenticated caller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, HTTPException, Path, Request, status
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from agentlog.artifacts import ArtifactService
from agentlog.limits import MAX_ID_BYTES
from agentlog.runner import Runner
from agentlog.server.auth import LOCAL_USER, Caller, KeyRing, is_loopback
from agentlog.server.hub import SessionKey, TurnHub
from agentlog.server.versions import VersionReads
from agentlog.sessions.base import SessionService

if TYPE_CHECKING:
    from agentlog.memory import MemoryService
    from agentlog.summary import Summarizer, SummaryStore

__all__ = [
    "AdminCaller",
    "CallerDep",
    "Server",
    "ServerDep",
    "SessionId",
    "get_server",
    "server_of",
]


@dataclass(frozen=True, slots=True)
class Server:
    """The parts a running app shares between requests."""

    runner: Runner
    hub: TurnHub
    keys: KeyRing
    approval_deadline_s: float
    follow_poll_s: float = 1.0
    """How often a stream waiting on other processes reads the store, when nothing (a
    notification of the store, a turn of this process) wakes it sooner."""
    versions: VersionReads | None = None
    """Those reads (version and running turn), shared by every stream of this process."""
    summaries: SummaryStore | None = None
    summarizer: Summarizer | None = None
    memory: MemoryService | None = None

    @property
    def store(self) -> SessionService:
        """The session store (the runner's)."""
        return self.runner.session_service

    @property
    def app_name(self) -> str:
        """The app every session belongs to."""
        return self.runner.app_name

    @property
    def artifacts(self) -> ArtifactService:
        """The artifact service (the runner's: what its tools save is what routes read)."""
        return self.runner.artifact_service

    def key(self, caller: Caller, session_id: str) -> SessionKey:
        """A session of the caller's."""
        return (caller.user_id, session_id)

    def summary_store(self) -> SummaryStore:
        """The summary store (its routes exist only when there is one)."""
        if self.summaries is None:
            raise RuntimeError("this app has no summary store")
        return self.summaries

    def memory_store(self) -> MemoryService:
        """The memory store (its routes exist only when there is one)."""
        if self.memory is None:
            raise RuntimeError("this app has no memory store")
        return self.memory

    async def forget(self, caller: Caller, session_id: str) -> None:
        """Delete what was derived from a session: its own artifacts (the user's ``user:``
        ones stay), its summaries and memory entries."""
        where = {"app_name": self.app_name, "user_id": caller.user_id, "session_id": session_id}
        await self.artifacts.delete_session_artifacts(**where)
        if self.summaries is not None:
            await self.summaries.delete(**where)
        if self.memory is not None:
            await self.memory.delete_session(**where)


def server_of(request: Request) -> Server:
    """The server the app was created with: for a route on the hot path, read from its
    request rather than taken as ``ServerDep`` (each dependency is one more for FastAPI to
    solve, on every request)."""
    server: Server = request.app.state.agentlog
    return server


async def get_server(request: Request) -> Server:
    """The server the app was created with."""
    return server_of(request)


ServerDep = Annotated[Server, Depends(get_server)]

SessionId = Annotated[
    str,
    Path(
        description="A session of the caller's (another user's reads as 404): at most "
        f"{MAX_ID_BYTES} bytes of UTF-8, no NUL.",
        examples=["s-1"],
        # Checked here for every route, the memory routes too (their store checks no ids).
        # JSON Schema counts characters where the limit counts bytes: exact for ASCII ids; a
        # longer non-ASCII id is refused by the stores' own check, also with a 422.
        max_length=MAX_ID_BYTES,
        pattern="^[^\\x00]*$",
    ),
]

_bearer = HTTPBearer(auto_error=False, description="An API key: 'Authorization: Bearer KEY'.")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="An API key.")

_UNAUTHORIZED = HTTPException(
    status_code=status.HTTP_401_UNAUTHORIZED,
    detail="a valid API key is required (Authorization: Bearer KEY, or X-API-Key: KEY)",
    headers={"WWW-Authenticate": "Bearer"},
)


async def authenticate(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    header_key: Annotated[str | None, Depends(_header)],
) -> Caller:
    """The caller the request's API key names; 401 without a valid one.

    With no keys configured, every loopback client is the one local user. (This and the
    other dependencies here are ``async``, though they never wait: FastAPI runs a plain
    ``def`` dependency on a worker thread, a hand-over that cost more than the request's
    routing, on every request. The server is read from the app, not taken as a dependency:
    FastAPI solves a cached dependency again, for each that takes it, before its cache.)
    """
    server = server_of(request)
    if server.keys.local:
        client = request.client.host if request.client else None
        if not is_loopback(client):
            raise HTTPException(
                status_code=status.HTTP_403_FORBIDDEN,
                detail="this server has no API keys and serves loopback clients only",
            )
        return Caller(LOCAL_USER, admin=True)
    key = bearer.credentials if bearer is not None else header_key
    caller = server.keys.identify(key) if key else None
    if caller is None:
        raise _UNAUTHORIZED
    return caller


CallerDep = Annotated[Caller, Depends(authenticate)]


async def require_admin(caller: CallerDep) -> Caller:
    """The caller, if it holds an admin key; 403 otherwise."""
    if not caller.admin:
        raise HTTPException(status_code=status.HTTP_403_FORBIDDEN, detail="needs an admin key")
    return caller


AdminCaller = Annotated[Caller, Depends(require_admin)]
