"""A lane for the requests of a turn, matched before FastAPI's routing.

FastAPI walks its included routers for every request (each router's routes matched twice,
the route's scope keys set and restored), then wraps the handler in two exit stacks: on a
turn's two requests (``POST /sessions``, ``POST /sessions/{id}/messages``) a few percent of
the server's work. :class:`TurnLane`, the app's first route, matches just those by method and
path (the routes' own patterns) and answers them with their lean handlers
(:mod:`.lean`), inside the app's exception handlers as a route's handler is. A request its
lean handler declines is routed again by the app, past the lane, with its body as read: the
answer is then FastAPI's. With FastAPI's telemetry on, the lane matches nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from fastapi import FastAPI
from starlette._exception_handler import wrap_app_handling_exceptions
from starlette._utils import get_route_path
from starlette.datastructures import URLPath
from starlette.requests import Request
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Message, Receive, Scope, Send

from agentlog.server.lean import LeanHandler, built_for

__all__ = ["TurnLane", "install_turn_lane"]

_DECLINED: Final = "agentlog.lane_declined"
"""Set in a request's scope when the lane handed it back to the app's routing."""
_HANDLER: Final = "agentlog.lane_handler"


class TurnLane(BaseRoute):
    """Routes the requests of ``endpoints`` (each with its method) of ``app`` ahead of the
    rest. FastAPI builds a route as included in an app on the first request routed to it;
    until then, the lane leaves that route's requests to FastAPI."""

    def __init__(self, app: FastAPI, endpoints: Sequence[tuple[str, Callable[..., Any]]]) -> None:
        self._app = app
        self._waiting = list(endpoints)
        self._lanes: list[tuple[str, Any, dict[str, Any], LeanHandler]] = []

    def _take_built(self) -> None:
        for method, endpoint in list(self._waiting):
            built = built_for(self._app, endpoint)
            if built is not None:
                route, handler = built
                self._lanes.append((method, route.path_regex, route.param_convertors, handler))
                self._waiting.remove((method, endpoint))

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http" or _DECLINED in scope or "fastapi.telemetry" in scope:
            return Match.NONE, {}
        if self._waiting:
            self._take_built()
        method = scope["method"]
        path = get_route_path(scope)
        for wanted, regex, convertors, handler in self._lanes:
            if method != wanted:
                continue
            found = regex.match(path)
            if found is None:
                continue
            params = dict(scope.get("path_params", {}))
            for name, value in found.groupdict().items():
                params[name] = convertors[name].convert(value)
            return Match.FULL, {"path_params": params, _HANDLER: handler}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        raise NoMatchFound(name, path_params)  # named routes are the app's own

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler: LeanHandler = scope.pop(_HANDLER)
        request = Request(scope, receive, send)

        async def answer(scope: Scope, receive: Receive, send: Send) -> None:
            response = await handler(request)
            if response is None:
                await _route_again(self._app, scope, request, send)
                return
            await response(scope, receive, send)

        await wrap_app_handling_exceptions(answer, request)(scope, receive, send)


async def _route_again(app: FastAPI, scope: Scope, request: Request, send: Send) -> None:
    scope[_DECLINED] = True
    body: bytes | None = getattr(request, "_body", None)  # what the lean handler read
    receive = request.receive
    if body is not None:
        given = [{"type": "http.request", "body": body, "more_body": False}]
        inner = receive

        async def replay() -> Message:
            return given.pop() if given else await inner()

        receive = replay
    # This app's router (not the scope's, an outer app's when this one is mounted in it).
    await app.router(scope, receive, send)


def install_turn_lane(app: FastAPI, endpoints: Sequence[tuple[str, Callable[..., Any]]]) -> None:
    """Put a :class:`TurnLane` for ``endpoints`` (each with its method) first in ``app``'s
    routes."""
    app.router.routes.insert(0, TurnLane(app, endpoints))
