"""The router of one resource: what every API route shares, and documents.

Each route needs an API key (401 without a valid one; 403 when a keyless server is reached from
off the machine), reads its body as UTF-8 JSON, and answers a malformed or invalid request with
422: a body that is not UTF-8 is a JSON syntax error like any other (FastAPI alone would answer
it with an undocumented 400). The OpenAPI schema says all of this, so it matches what the
routes do. The error bodies are inlined, not referenced: a stream route's extra responses
would otherwise be documented as ``text/event-stream``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import validation_error_definition
from fastapi.routing import APIRoute

from agentlog.server.lean import lean_handler
from agentlog.server.schemas import ErrorOut

__all__ = ["KEY_REQUIRED", "JsonRoute", "resource_router"]

_ERROR: dict[str, Any] = {"application/json": {"schema": ErrorOut.model_json_schema()}}

KEY_REQUIRED: dict[int | str, dict[str, Any]] = {
    401: {"description": "No valid API key.", "content": _ERROR},
    403: {"description": "Not allowed with this key.", "content": _ERROR},
}
"""The answers of authentication, on every route that needs a key."""

_PARSE_ERRORS: dict[str, Any] = {
    "title": "HTTPValidationError",
    "type": "object",
    "properties": {"detail": {"type": "array", "items": validation_error_definition}},
    "required": ["detail"],
}
_INVALID: dict[str, Any] = {
    "description": "The request is malformed, or what it asks cannot be taken: the problems "
    "request parsing found, or one sentence.",
    "content": {
        "application/json": {"schema": {"anyOf": [_PARSE_ERRORS, ErrorOut.model_json_schema()]}}
    },
}
_TOO_LARGE: dict[str, Any] = {
    "description": "The body is over the server's limit.",
    "content": _ERROR,
}


class _Utf8JsonRequest(Request):
    """A request whose JSON body must be UTF-8 (RFC 8259), failing as FastAPI maps to 422."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                # An empty document: the error must not echo bytes it cannot encode.
                raise json.JSONDecodeError("the body is not UTF-8", "", exc.start) from exc
            self._json = json.loads(text)
        return self._json


def _takes_input(dependant: Dependant) -> bool:
    own = (
        dependant.path_params,
        dependant.query_params,
        dependant.header_params,
        dependant.cookie_params,
        dependant.body_params,
    )
    return any(own) or any(_takes_input(d) for d in dependant.dependencies)


class JsonRoute(APIRoute):
    """A route reading its body as UTF-8 JSON, documenting its 413 and 422 answers, and
    leaving null fields out of the JSON it answers (:mod:`agentlog.server.no_nulls`)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        kwargs["response_model_exclude_none"] = True
        super().__init__(path, endpoint, **kwargs)
        if _takes_input(self.dependant):
            self.responses[422] = {**_INVALID, **self.responses.get(422, {})}
        if self.body_field is not None:
            self.responses.setdefault(413, _TOO_LARGE)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        lean = lean_handler(self)

        async def utf8_json(request: Request) -> Response:
            return await handle(_Utf8JsonRequest(request.scope, request.receive))

        if lean is None:
            return utf8_json

        async def lean_or_full(request: Request) -> Response:
            answer = await lean(request)
            if answer is not None:
                return answer
            full = _Utf8JsonRequest(request.scope, request.receive)
            if hasattr(request, "_body"):
                full._body = request._body  # the body is read once: FastAPI's handler reads it here
            return await handle(full)

        return lean_or_full


def resource_router(prefix: str, tags: Sequence[str]) -> APIRouter:
    """The router of the routes under ``prefix``: each needs a key and reads UTF-8 JSON."""
    return APIRouter(
        prefix=prefix, tags=list(tags), route_class=JsonRoute, responses=dict(KEY_REQUIRED)
    )
