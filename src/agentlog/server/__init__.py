"""The HTTP server: sessions, resumable event streams, approvals and access control.

Needs the ``server`` extra (FastAPI, sse-starlette, uvicorn)::

    from agentlog.server import create_app
    app = create_app(Runner(agent=agent, session_service=SqliteSessionService("app.db")))
"""

from __future__ import annotations

try:
    import fastapi  # noqa: F401
    import sse_starlette  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by a test with the modules hidden
    raise ImportError(
        f"agentlog.server needs FastAPI and sse-starlette ({exc.name} is missing): "
        "pip install 'agentlog[server]'"
    ) from exc

from agentlog.server.app import RunnerFactory, create_app

__all__ = ["RunnerFactory", "create_app"]
