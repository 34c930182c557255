"""``McpToolset``: an MCP server's tools, over stdio or streamable HTTP, as an agent's tools.

Each tool the server lists becomes an :class:`McpTool` that works like a function tool: its
schema is the server's ``inputSchema``, a call goes through the MCP session, and its result is
the function response (the structured content when the server sends it, otherwise the text;
images, audio and binary resources are saved as artifacts and referenced). A result marked
``isError``, a protocol error or a lost connection is a :class:`~agentlog.errors.ToolError`
whose message the model gets as the call's result. ``require_confirmation`` asks a person
first, through the same confirmation flow as a function tool.

Lifetime: the connection opens on first use (the first ``get_tools`` or call) or on entering
``async with``, and closes on ``close()``, on leaving the ``async with``, or when the event
loop shuts down (``asyncio.run`` cancels it, and it closes as if asked). The MCP SDK's
transports hold anyio task groups that must be entered and left by one task, so a connection
lives in a task of its own and calls from any task reach it through the session. A connection
that drops is opened again on the next use; a call in flight when it drops fails (it is never
sent twice). A toolset belongs to one event loop at a time: used from another, it connects
again there.
"""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, TextIO, TypeAlias, TypeVar

try:
    import anyio
    import httpx
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.session import MessageHandlerFnT
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.exceptions import McpError
except ImportError as exc:  # pragma: no cover - exercised by a test that hides the SDK
    raise ImportError("McpToolset needs the mcp SDK: pip install 'agentlog[mcp]'") from exc

from agentlog._frozen import thaw
from agentlog.context import ToolContext
from agentlog.errors import InvalidConfigError, McpConnectionError, McpToolError
from agentlog.logs import get_logger
from agentlog.models.base import ToolDeclaration
from agentlog.tools.base import BaseTool, ConfirmationPolicy
from agentlog.tools.toolset import BaseToolset

__all__ = ["ConfirmationRule", "McpTool", "McpToolset", "ToolFilter"]

logger = get_logger("agentlog.tools.mcp")

T = TypeVar("T")

ConfirmationRule: TypeAlias = (
    bool | str | Collection[str] | Callable[[str, Mapping[str, Any]], bool]
)
"""Which calls need a person's yes first: all, none, the tools named (by the server's name or
the agent's), or those a predicate of (server's tool name, arguments) picks."""
ToolFilter: TypeAlias = Collection[str] | Callable[[str], bool]
"""Which of the server's tools to offer: the names given, or those a predicate picks."""

_Streams: TypeAlias = tuple[Any, Any]
_Transport: TypeAlias = Callable[[], AbstractAsyncContextManager[_Streams]]
_CONNECTION_LOST = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    httpx.TransportError,
    OSError,
)


class McpToolset(BaseToolset):
    """The tools of one MCP server. Make one with :meth:`stdio` or :meth:`streamable_http`.

    Args:
        tool_filter: offer only these tools (names as the server lists them).
        tool_name_prefix: put before each tool's name, to keep two servers' tools apart.
        require_confirmation: calls that wait for a person's yes (:data:`ConfirmationRule`).
        call_timeout_s: how long a call may take before it fails as a tool error.
        connect_timeout_s: how long connecting and listing may take.
    """

    def __init__(
        self,
        transport: _Transport,
        *,
        label: str,
        tool_filter: ToolFilter | None = None,
        tool_name_prefix: str = "",
        require_confirmation: ConfirmationRule = False,
        call_timeout_s: float | None = 60.0,
        connect_timeout_s: float = 30.0,
    ) -> None:
        if (call_timeout_s is not None and call_timeout_s <= 0) or connect_timeout_s <= 0:
            raise InvalidConfigError("call_timeout_s and connect_timeout_s must be > 0")
        self.label = label
        """The server, for messages: its command or URL."""
        self._transport = transport
        self._filter = tool_filter
        self._prefix = tool_name_prefix
        self._confirmation = require_confirmation
        self._call_timeout = timedelta(seconds=call_timeout_s) if call_timeout_s else None
        self._connect_timeout_s = connect_timeout_s
        self._connection: _Connection | None = None
        self._tools: list[McpTool] | None = None
        self._lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    @classmethod
    def stdio(
        cls,
        command: str,
        args: Sequence[str] = (),
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        errlog: TextIO | None = None,
        **options: Any,
    ) -> McpToolset:
        """A server run as a subprocess, spoken to over its stdin and stdout.

        ``env`` is added to the MCP SDK's safe default environment; the server's stderr goes to
        ``errlog`` (this process's stderr by default). ``options`` are the class's.
        """
        params = StdioServerParameters(
            command=command, args=list(args), env=dict(env) if env else None, cwd=cwd
        )

        def transport() -> AbstractAsyncContextManager[_Streams]:
            if errlog is None:
                return stdio_client(params)
            return stdio_client(params, errlog=errlog)

        return cls(transport, label=" ".join([command, *args]), **options)

    @classmethod
    def streamable_http(
        cls,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float = 30.0,
        **options: Any,
    ) -> McpToolset:
        """A server at ``url`` (its streamable HTTP endpoint, often ``.../mcp``).

        ``headers`` go with every request (an ``Authorization`` header, say); ``timeout_s``
        bounds each HTTP exchange. ``options`` are the class's.
        """

        @asynccontextmanager
        async def transport() -> Any:
            timeout = httpx.Timeout(timeout_s, read=300.0)
            async with (
                httpx.AsyncClient(headers=dict(headers or {}), timeout=timeout) as client,
                streamable_http_client(url, http_client=client) as (read, write, _),
            ):
                yield read, write

        return cls(transport, label=url, **options)

    # --- the toolset ----------------------------------------------------------------------

    async def get_tools(self) -> list[McpTool]:
        """The server's tools (listed once a connection, again when the server says they
        changed), connecting first if need be."""
        async with self._guard():
            connection = await self._connected()
            if self._tools is None:
                listed = await connection.request(_list_tools, self._connect_timeout_s)
                self._tools = self._wrap(listed)
            return self._tools

    async def call(self, name: str, arguments: Mapping[str, Any]) -> types.CallToolResult:
        """Call the server's tool ``name``; raises ``McpToolError`` or ``McpConnectionError``."""
        async with self._guard():
            connection = await self._connected()
        timeout = self._call_timeout

        async def send(session: ClientSession) -> types.CallToolResult:
            return await session.call_tool(name, dict(arguments), read_timeout_seconds=timeout)

        return await connection.request(send, None)

    async def close(self) -> None:
        """Close the connection (stopping a stdio server); the next use opens a new one."""
        connection, self._connection, self._tools = self._connection, None, None
        if connection is not None:
            await connection.close()

    async def __aenter__(self) -> McpToolset:
        await self.get_tools()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # --- internals ------------------------------------------------------------------------

    def _guard(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock[0] is not loop:
            self._lock = (loop, asyncio.Lock())
        return self._lock[1]

    async def _connected(self) -> _Connection:
        connection = self._connection
        if connection is not None and connection.usable():
            return connection
        if connection is not None:
            logger.warning("MCP server %s: connection lost, connecting again", self.label)
            await connection.close()
        self._connection = self._tools = None
        connection = _Connection(self._transport, self.label, self._changed)
        await connection.open(self._connect_timeout_s)
        self._connection = connection
        return connection

    async def _changed(self, message: object) -> None:
        # The session's message handler: a tools/list_changed notification means list again.
        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ToolListChangedNotification
        ):
            self._tools = None

    def _wrap(self, listed: Sequence[types.Tool]) -> list[McpTool]:
        tools: list[McpTool] = []
        for tool in listed:
            if not self._offered(tool.name):
                continue
            name = self._prefix + re.sub(r"\W", "_", tool.name)
            if not name.isidentifier():
                name = "mcp_" + name
            tools.append(McpTool(self, tool, name=name, policy=self._policy(tool.name, name)))
        names = [t.name for t in tools]
        clashes = sorted({n for n in names if names.count(n) > 1})
        if clashes:
            raise InvalidConfigError(
                f"MCP server {self.label}: tool names clash once made identifiers: {clashes}; "
                "use tool_filter"
            )
        return tools

    def _offered(self, name: str) -> bool:
        rule = self._filter
        if rule is None:
            return True
        return bool(rule(name)) if callable(rule) else name in rule

    def _policy(self, server_name: str, name: str) -> ConfirmationPolicy:
        rule = self._confirmation
        if isinstance(rule, bool):
            return rule
        if isinstance(rule, str):
            return rule in (server_name, name)
        if callable(rule):
            predicate = rule
            return lambda args: bool(predicate(server_name, args))
        return server_name in rule or name in rule


async def _list_tools(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.nextCursor
        if not cursor:
            return tools


class McpTool(BaseTool):
    """One tool of an MCP server; made by :class:`McpToolset`."""

    def __init__(
        self, toolset: McpToolset, tool: types.Tool, *, name: str, policy: ConfirmationPolicy
    ) -> None:
        super().__init__(
            name=name,
            description=tool.description or tool.title or "",
            require_confirmation=policy,
        )
        self.server_name = tool.name
        """The tool's name on the server (``name`` is the one the model sees)."""
        self._toolset = toolset
        self._parameters = dict(tool.inputSchema)

    def declaration(self) -> ToolDeclaration:
        """The server's description and input schema."""
        return ToolDeclaration(
            name=self.name, description=self.description, parameters=self._parameters
        )

    async def run(self, args: Mapping[str, Any], tool_context: ToolContext) -> Any:
        """Call the tool on the server; its result as a function response."""
        result = await self._toolset.call(self.server_name, thaw(args))
        return await _response(result, self, tool_context)


# --- results -------------------------------------------------------------------------------


async def _response(
    result: types.CallToolResult, tool: McpTool, tool_context: ToolContext
) -> dict[str, Any]:
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    if result.isError:
        raise McpToolError("\n".join(texts) or f"{tool.server_name} failed")
    response: dict[str, Any] = {}
    if result.structuredContent is not None:
        # Servers send the same value as text too; the structured one is the answer.
        response.update(result.structuredContent)
    elif texts:
        response["result"] = "\n".join(texts)
    others = [c for c in result.content if not isinstance(c, types.TextContent)]
    if others:
        key = "content" if "content" not in response else "mcp_content"
        response[key] = [
            await _describe(item, index, tool, tool_context) for index, item in enumerate(others)
        ]
    return response


async def _describe(
    item: object, index: int, tool: McpTool, tool_context: ToolContext
) -> dict[str, Any]:
    """A non-text content item as the model reads it: binary data saved as an artifact."""
    if isinstance(item, types.ImageContent | types.AudioContent):
        kind = "image" if isinstance(item, types.ImageContent) else "audio"
        saved = await _save(base64.b64decode(item.data), item.mimeType, index, tool, tool_context)
        return {"type": kind, "mime_type": item.mimeType, "artifact": saved}
    if isinstance(item, types.ResourceLink):
        link: dict[str, Any] = {"type": "resource_link", "uri": str(item.uri), "name": item.name}
        if item.mimeType:
            link["mime_type"] = item.mimeType
        return link
    if isinstance(item, types.EmbeddedResource):
        resource = item.resource
        out: dict[str, Any] = {"type": "resource", "uri": str(resource.uri)}
        if resource.mimeType:
            out["mime_type"] = resource.mimeType
        if isinstance(resource, types.TextResourceContents):
            out["text"] = resource.text
        else:
            mime = resource.mimeType or "application/octet-stream"
            data = base64.b64decode(resource.blob)
            out["artifact"] = await _save(data, mime, index, tool, tool_context)
        return out
    return {"type": getattr(item, "type", type(item).__name__)}


async def _save(
    data: bytes, mime_type: str, index: int, tool: McpTool, tool_context: ToolContext
) -> dict[str, Any]:
    call = re.sub(r"[^\w.-]", "_", tool_context.function_call_id)
    name = f"mcp-{tool.name}-{call}-{index}"
    version = await tool_context.save_artifact(name, data, mime_type)
    return {"name": name, "version": version, "bytes": len(data)}


# --- the connection ------------------------------------------------------------------------


class _Connection:
    """One MCP session, held open by a task of its own from ``open`` to ``close``."""

    def __init__(self, transport: _Transport, label: str, handler: MessageHandlerFnT) -> None:
        self._transport = transport
        self._label = label
        self._handler = handler
        self._loop = asyncio.get_running_loop()
        self._ready: asyncio.Future[ClientSession] = self._loop.create_future()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._session: ClientSession | None = None

    async def open(self, timeout_s: float) -> None:
        self._task = self._loop.create_task(self._hold(), name=f"mcp {self._label}")
        try:
            self._session = await asyncio.wait_for(asyncio.shield(self._ready), timeout_s)
        except TimeoutError:
            await self.close()
            raise McpConnectionError(
                f"MCP server {self._label}: no answer to initialize within {timeout_s:g}s"
            ) from None
        except McpConnectionError:
            raise
        except Exception as exc:
            raise McpConnectionError(
                f"MCP server {self._label}: cannot connect: {_leaf(exc)!r}"
            ) from exc

    def usable(self) -> bool:
        """Whether this connection still runs, in the running event loop."""
        return (
            self._session is not None
            and self._task is not None
            and not self._task.done()
            and not self._stop.is_set()
            and self._loop is asyncio.get_running_loop()
        )

    async def request(
        self, send: Callable[[ClientSession], Awaitable[T]], timeout_s: float | None
    ) -> T:
        """``send`` over the session; fails at once if the connection ends meanwhile."""
        if self._session is None or self._task is None:
            raise McpConnectionError(f"MCP server {self._label}: not connected")
        call = asyncio.ensure_future(send(self._session))
        try:
            done, _ = await asyncio.wait(
                {call, self._task}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        except BaseException:
            call.cancel()
            raise
        if call not in done:
            call.cancel()
            if self._task in done:
                raise McpConnectionError(f"MCP server {self._label}: the connection was lost")
            raise McpToolError(f"MCP server {self._label}: no answer within {timeout_s:g}s")
        try:
            return call.result()
        except McpError as exc:
            if exc.error.code == types.CONNECTION_CLOSED:
                self._stop.set()
                raise McpConnectionError(
                    f"MCP server {self._label}: the connection was lost"
                ) from exc
            raise McpToolError(exc.error.message) from exc
        except _CONNECTION_LOST as exc:
            self._stop.set()
            raise McpConnectionError(
                f"MCP server {self._label}: the connection was lost ({_leaf(exc)!r})"
            ) from exc
        except RuntimeError as exc:
            # The SDK's check of structured content against the tool's output schema.
            raise McpToolError(str(exc)) from exc

    async def close(self) -> None:
        self._stop.set()
        task = self._task
        if task is None or task.done() or self._loop is not asyncio.get_running_loop():
            # A task of a loop that is gone was cancelled (and so closed) with that loop.
            return
        try:
            await task
        except Exception as exc:
            logger.warning("MCP server %s: closing failed: %s", self._label, exc)

    async def _hold(self) -> None:
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                session = await stack.enter_async_context(
                    ClientSession(
                        read,
                        write,
                        message_handler=self._handler,
                        client_info=types.Implementation(name="agentlog", version=_version()),
                    )
                )
                await session.initialize()
                self._ready.set_result(session)
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(
                    exc if isinstance(exc, Exception) else McpConnectionError(repr(exc))
                )
            elif isinstance(exc, Exception):
                logger.warning("MCP server %s: connection ended: %r", self._label, _leaf(exc))
            if not isinstance(exc, Exception):
                raise


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside anyio's exception groups, which say little themselves."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _version() -> str:
    from agentlog import __version__

    return __version__
