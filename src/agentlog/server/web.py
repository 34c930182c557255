"""The web page at ``/``: plain HTML, CSS and JavaScript from ``static/``, no build step.

The page is a client of the API like any other: it holds no key of its own (a key typed into
it stays in the browser's storage) and talks to the routes on the same origin only, which the
Content-Security-Policy sent with it enforces. Neither ``/`` nor ``/static`` is part of the
OpenAPI schema, nor is ``/web/agent``: what the served agent says of itself (its name, its
description, its tools and the agents it hands over to), which the page shows as its hints, so
they fit whatever agent ``agentlog serve --agent`` serves, and whether the server keeps
summaries.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from agentlog.agents.base import BaseAgent
from agentlog.agents.llm import LlmAgent
from agentlog.logs import get_logger
from agentlog.server.deps import CallerDep, ServerDep

__all__ = ["STATIC_DIR", "agent_hints", "install_web_page"]

logger = get_logger("agentlog.server")

STATIC_DIR: Final = Path(__file__).with_name("static")
"""The page's files (package data)."""

# Same origin only, no inline script or style: whatever a model or a customer wrote is shown as
# text, and even a slip in the page's code could not load or send anything elsewhere.
_PAGE_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # Revalidated on every load, so a server upgrade never runs with a stale script.
    "Cache-Control": "no-cache",
}


class _StaticFiles(StaticFiles):
    """Static files that browsers revalidate each time (ETags keep that cheap)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def agent_hints(agent: BaseAgent) -> dict[str, Any]:
    """What the page says about the agent it talks to: its name and description, the tools it
    declares (each with its description's first sentence) and the agents it can hand over to."""
    tools = agent.tools if isinstance(agent, LlmAgent) else ()
    return {
        "name": agent.name,
        "description": agent.description,
        "tools": [{"name": t.name, "description": _first_sentence(t.description)} for t in tools],
        "agents": [
            {"name": a.name, "description": _first_sentence(a.description)}
            for a in agent.sub_agents
        ],
    }


def _first_sentence(text: str) -> str:
    head, dot, _ = " ".join(text.split()).partition(". ")
    return head + ("." if dot else "")


def install_web_page(app: FastAPI) -> None:
    """Serve the page at ``/`` and its files under ``/static/``; no key is needed for them."""
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        # The API works without the page; a package built without its data should say so.
        logger.warning("the web page's files are missing from %s: serving the API only", STATIC_DIR)
        return

    @app.get("/", include_in_schema=False)
    async def web_page() -> FileResponse:
        return FileResponse(index, media_type="text/html", headers=_PAGE_HEADERS)

    @app.get("/web/agent", include_in_schema=False)
    async def served_agent(server: ServerDep, caller: CallerDep) -> dict[str, Any]:
        # Behind the same keys as the API: a deployment's tools are its own business.
        # ``summaries`` tells the page whether to offer them, without asking for one.
        return {**agent_hints(server.runner.agent), "summaries": server.summaries is not None}

    app.mount("/static", _StaticFiles(directory=STATIC_DIR), name="static")
