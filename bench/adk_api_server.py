"""google-adk's ``api_server`` serving the same turn as ``bench.server``'s agentlog server.

The agent is google-adk's own ``LlmAgent`` named ``desk`` with the refund desk's
``lookup_order`` tool (the same orders, the same state write) and a canned google-adk model
that answers as agentlog's offline desk model does: a call of ``lookup_order`` for the order
in the message, then the answer about that order, streamed in chunks of nine characters (the
partial responses google-adk sends as SSE events) and then whole. So a turn stores the same
three events beside the user's message (call, result, answer) and streams twelve drafts.

The server is ``google.adk.cli.fast_api.get_fast_api_app`` (what ``adk api_server`` runs) on
an agents folder this module writes, served by uvicorn with its access log off, on
google-adk's ``SqliteSessionService`` (a file created in WAL mode first, as ``bench.stores``
does) or its ``DatabaseSessionService`` on PostgreSQL (asyncpg, in a schema of its own).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import httpx

APP: Final = "desk"

AGENT: Final = '''\
"""The refund desk's lookup turn, for google-adk (written by bench.adk_api_server)."""

import re
from typing import Any, AsyncGenerator

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from agentlog.demo.refund_desk import ORDERS

GREETING = "Hello! What is your order number?"


def _order_text(order: dict[str, Any]) -> str:
    # The words of agentlog's offline desk model (agentlog.server.desk), which the bench
    # venv cannot import (it has no server extra).
    if "error" in order:
        return f"I couldn't find that order ({order['error']}). Could you check the number?"
    order_id, shipped, promised = order["order_id"], order["shipped_on"], order["promised_by"]
    if not shipped:
        return f"Order {order_id} is still {order['status']}; we promised it by {promised}."
    late = " That is later than we promised, and I'm sorry." if shipped > promised else ""
    return f"Order {order_id} shipped on {shipped}; we promised it by {promised}.{late}"

_ORDER_ID = re.compile(r"\\b([A-Za-z])-(\\d{4})\\b")
CHUNK = 9


def lookup_order(order_id: str, tool_context: ToolContext) -> dict[str, Any]:
    """Look up an order by its id.

    Args:
        order_id: The order id, such as A-1001.
    """
    order = ORDERS.get(order_id.strip().upper())
    if order is None:
        return {"error": f"no order {order_id}"}
    tool_context.state["order"] = order
    return order


class DeskLlm(BaseLlm):
    """A canned model answering like agentlog's offline desk model, without a network."""

    model: str = "scripted-refund-desk"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = None
        for content in reversed(llm_request.contents or []):
            if content.parts:
                last = content.parts[-1]
                break
        response = last.function_response if last is not None else None
        if response is not None and response.name == "lookup_order":
            text = _order_text(dict(response.response or {}))
            if stream:
                for start in range(0, len(text), CHUNK):
                    yield LlmResponse(
                        content=types.Content(
                            role="model", parts=[types.Part(text=text[start : start + CHUNK])]
                        ),
                        partial=True,
                    )
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
            return
        said = last.text if last is not None and last.text else ""
        match = _ORDER_ID.search(said)
        if match:
            order_id = f"{match.group(1).upper()}-{match.group(2)}"
            call = types.FunctionCall(name="lookup_order", args={"order_id": order_id})
            yield LlmResponse(
                content=types.Content(role="model", parts=[types.Part(function_call=call)])
            )
            return
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=GREETING)]))


root_agent = LlmAgent(
    name="desk",
    model=DeskLlm(),
    instruction=(
        "You are the front desk of an online shop. Look orders up with lookup_order before "
        "answering about them."
    ),
    tools=[lookup_order],
)
'''

SERVICES: Final = '''\
"""A session service scheme for the bench's PostgreSQL schema (written by bench)."""

import os

from google.adk.cli.service_registry import get_service_registry
from google.adk.sessions.database_session_service import DatabaseSessionService


def _postgres(uri: str, **kwargs):
    schema = os.environ["BENCH_ADK_SCHEMA"]
    return DatabaseSessionService(
        os.environ["BENCH_ADK_ASYNCPG_URL"],
        connect_args={"server_settings": {"search_path": schema}},
    )


get_service_registry().register_session_service("benchpg", _postgres)
'''


def write_agents(folder: Path) -> Path:
    """The agents folder ``adk api_server`` loads: the desk and the services module."""
    (folder / APP).mkdir(parents=True, exist_ok=True)
    (folder / APP / "__init__.py").write_text("from . import agent\n")
    (folder / APP / "agent.py").write_text(AGENT)
    (folder / "services.py").write_text(SERVICES)
    return folder


def serve(agents: str, db: str, schema: str | None, host: str, port: int) -> None:
    """Serve google-adk's api_server on ``db`` (a SQLite file or a PostgreSQL DSN) until
    terminated. Runs in the child process."""
    import logging
    import os
    import warnings

    import uvicorn
    from google.adk.cli.fast_api import get_fast_api_app

    warnings.simplefilter("ignore")  # google-adk warns about experimental features
    logging.getLogger("google_adk").setLevel(logging.ERROR)
    if db.startswith("postgresql://"):
        from bench.stores import asyncpg_url

        assert schema is not None
        os.environ["BENCH_ADK_SCHEMA"] = schema
        os.environ["BENCH_ADK_ASYNCPG_URL"] = asyncpg_url(db)
        uri = "benchpg://"
    else:
        conn = sqlite3.connect(db)  # WAL, as bench.stores gives google-adk's stores
        conn.execute("PRAGMA journal_mode=WAL")
        conn.close()
        uri = f"sqlite:///{db}"
    app = get_fast_api_app(
        agents_dir=agents, session_service_uri=uri, use_local_storage=False, web=False
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def _run_body(session_id: str, message: str) -> dict[str, Any]:
    return {
        "app_name": APP,
        "user_id": "u",
        "session_id": session_id,
        "new_message": {"role": "user", "parts": [{"text": message}]},
        "streaming": True,
    }


def _finish(last: dict[str, Any], seen: Any) -> None:
    """Judge a turn by its last event: an error, or the whole answer."""
    if "error" in last or last.get("error_code"):
        seen.error = f"the run failed: {last.get('error') or last.get('error_message')}"
        return
    parts = (last.get("content") or {}).get("parts") or [{}]
    seen.answered = bool(parts[-1].get("text")) and not last.get("partial")
    if not seen.answered:
        seen.error = "no answer in the turn"


async def adk_turn(http: httpx.AsyncClient, message: str, seen: Any) -> None:
    """One client's turn on google-adk's api_server: create a session, POST ``/run_sse``,
    read its events to the end; fills ``seen`` (a ``bench.server.Client``)."""
    created = await http.post(f"/apps/{APP}/users/u/sessions", json={})
    created.raise_for_status()
    body = _run_body(created.json()["id"], message)
    seen.sent_at = time.perf_counter()

    async def trace(event: str, info: object) -> None:
        if event == "http11.send_request_body.complete":
            seen.written_at = time.perf_counter()

    last: dict[str, Any] = {}
    extensions = {"trace": trace}
    async with http.stream("POST", "/run_sse", json=body, extensions=extensions) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            now = time.perf_counter()
            if seen.events == 0:
                seen.written_at = seen.written_at or seen.sent_at
                seen.first_s = now - seen.written_at
            seen.events += 1
            last = json.loads(line[5:])
            kind = "draft" if last.get("partial") else "event"
            seen.kinds[kind] = seen.kinds.get(kind, 0) + 1
    seen.total_s = time.perf_counter() - seen.written_at
    _finish(last, seen)


async def adk_turn_wire(conn: Any, message: str, seen: Any) -> None:
    """``adk_turn`` over a ``bench.wire_client.WireConnection``: the same requests, the
    first event timed from the ``/run_sse`` request's bytes written."""
    status, created = await conn.request("POST", f"/apps/{APP}/users/u/sessions", {})
    if status != 200:
        raise RuntimeError(f"creating a session: HTTP {status}")
    seen.sent_at = time.perf_counter()
    last: dict[str, Any] = {}
    async for _, data in conn.events("POST", "/run_sse", _run_body(created["id"], message)):
        now = time.perf_counter()
        if seen.events == 0:
            seen.written_at = conn.written_at
            seen.first_s = now - seen.written_at
        seen.events += 1
        last = json.loads(data)
        kind = "draft" if last.get("partial") else "event"
        seen.kinds[kind] = seen.kinds.get(kind, 0) + 1
    seen.total_s = time.perf_counter() - seen.written_at
    _finish(last, seen)
