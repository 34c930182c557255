"""A route's inputs solved once per app rather than once per request, where they are
constant.

FastAPI solves every route's dependencies on every request: it walks the tree of them (the
caller, its two API-key schemes), builds a sub-response and a cache, and validates each
parameter; on a turn (``POST /sessions`` and ``POST /sessions/{id}/messages``) that was about a
tenth of the server's work. Here a route whose dependencies are all known ones (the caller,
the admin caller, the server) is taken apart once, as FastAPI builds it for the app including
it, and a request is answered by validating its parameters and body with the route's own
fields and calling the endpoint.

It is a fast path only: a request it cannot answer exactly as FastAPI would (a body that is
not plain ``application/json``, a parameter or body that does not validate, a caller refused,
dependency overrides, FastAPI's telemetry on) goes to FastAPI's handler, which answers it, so
every error keeps FastAPI's order and form. With a FastAPI whose internals differ from those
this was written against, every request does.
"""

from __future__ import annotations

import inspect
import json
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from copy import deepcopy
from typing import Any, Final

from fastapi import HTTPException, Request, Response, params
from fastapi.datastructures import DefaultPlaceholder
from fastapi.encoders import jsonable_encoder
from fastapi.routing import APIRoute
from fastapi.utils import is_body_allowed_for_status_code

from agentlog.server.auth import Caller
from agentlog.server.deps import (
    _bearer,
    _header,
    authenticate,
    get_server,
    require_admin,
    server_of,
)

__all__ = ["LeanHandler", "built_for", "lean_handler"]

LeanHandler = Callable[[Request], Coroutine[Any, Any, Response | None]]
"""Answers a request, or ``None``: not answerable here, FastAPI's handler must (given the
same request, whose body it has read, if any)."""

try:  # FastAPI's own pieces, as the version this was written against has them
    from fastapi._compat import get_missing_field_error
    from fastapi._compat.shared import field_annotation_is_sequence
    from fastapi.dependencies.utils import (
        _get_param_aliases,
        _get_param_model,
        _is_json_field,
        request_body_to_args,
        request_params_to_args,
    )
    from fastapi.routing import _effective_route_context_var, serialize_response
    from fastapi.telemetry import get_telemetry_data

    _USABLE = "dump_json" in inspect.signature(serialize_response).parameters
except ImportError:  # pragma: no cover - another FastAPI: its handler answers everything
    _USABLE = False

_JSON: Final = "application/json"
_ATOMIC: Final = frozenset({type(None), bool, int, float, str})
"""Defaults whose ``deepcopy`` is themselves."""

_Solve = Callable[[Request, dict[str, Any]], Awaitable[Any]]
_NOT_SOLVED: Final = object()


async def _caller(request: Request, solved: dict[str, Any]) -> Any:
    if "caller" not in solved:
        try:
            bearer, key = await _bearer(request), await _header(request)
            solved["caller"] = await authenticate(request, bearer, key)
        except HTTPException:
            solved["caller"] = _NOT_SOLVED  # refused: FastAPI's handler answers why
    return solved["caller"]


async def _admin(request: Request, solved: dict[str, Any]) -> Any:
    caller = await _caller(request, solved)
    if isinstance(caller, Caller) and caller.admin:
        return caller
    return _NOT_SOLVED


async def _server(request: Request, solved: dict[str, Any]) -> Any:
    return server_of(request)


_KNOWN: Final[dict[Callable[..., Any], _Solve]] = {
    authenticate: _caller,
    require_admin: _admin,
    get_server: _server,
}
"""The dependencies solved here, each as FastAPI would, once per request."""


_Params = Callable[[Any], tuple[dict[str, Any], list[Any]]]


def _params_reader(fields: list[Any]) -> _Params:
    """``request_params_to_args(fields, received)`` as a function of ``received``, with what
    it works out of each field (its aliases, whether it is a model, a sequence or JSON) found
    once: FastAPI finds it again for every field of every request, several times over what
    validating the value costs. Fields that are not plain values are left to FastAPI."""
    prepared: list[tuple[Any, list[tuple[str, str]], str]] = []
    for field in fields:
        info = field.field_info
        if (
            not isinstance(info, params.Param)
            or _get_param_model(field) is not None
            or _is_json_field(field)
            or field_annotation_is_sequence(info.annotation)
        ):
            return lambda received: request_params_to_args(fields, received)
        prepared.append((field, _get_param_aliases(field), info.in_.value))

    def read(received: Any) -> tuple[dict[str, Any], list[Any]]:
        # What request_params_to_args does for such fields: the first alias the request
        # has (else the first), its value, a missing one as the default.
        values: dict[str, Any] = {}
        errors: list[Any] = []
        for field, aliases, where in prepared:
            alias = next((pair[1] for pair in aliases if pair[1] in received), aliases[0][1])
            value = received.get(alias, None)
            if value is None:
                info = field.field_info
                if info.is_required():
                    errors.append(get_missing_field_error(loc=(where, alias)))
                    continue
                default = field.default
                value = default if type(default) in _ATOMIC else deepcopy(default)
                if not info.validate_default:
                    values[field.name] = value
                    continue
            found, problems = field.validate(value, values, loc=(where, alias))
            if problems:
                errors.extend(problems)
            else:
                values[field.name] = found
        return values, errors

    return read


def lean_handler(route: APIRoute) -> LeanHandler | None:
    """The fast path of ``route`` (as included in its app), or ``None`` when it has
    inputs this does not solve."""
    if not _USABLE:
        return None
    effective = _effective_route_context_var.get()
    shape: Any = route
    if effective is not None and effective.original_route is route:
        shape = effective
    dependant = shape.dependant
    call = dependant.call
    if (
        dependant is None
        or not inspect.iscoroutinefunction(call)
        or not isinstance(shape.response_class, DefaultPlaceholder)
        or dependant.cookie_params
        or dependant.background_tasks_param_name
        or dependant.response_param_name
        or dependant.http_connection_param_name
        or dependant.websocket_param_name
        or dependant.security_scopes_param_name
        or getattr(shape, "is_sse_stream", False)
        or getattr(shape, "is_json_stream", False)
    ):
        return None
    solvers: list[tuple[str, _Solve]] = []
    for sub in dependant.dependencies:
        solve = _KNOWN.get(sub.call) if sub.call is not None else None
        if solve is None or sub.name is None:
            return None
        solvers.append((sub.name, solve))
    body_field = shape.body_field
    if body_field is not None and isinstance(body_field.field_info, params.Form):
        return None
    overrides = shape.dependency_overrides_provider
    body_params = dependant.body_params
    readers = [
        (_params_reader(fields), given)
        for fields, given in (
            (dependant.path_params, "path_params"),
            (dependant.query_params, "query_params"),
            (dependant.header_params, "headers"),
        )
        if fields
    ]
    request_name = dependant.request_param_name
    embed = shape._embed_body_fields
    status_code = shape.status_code
    response_class: type[Response] = shape.response_class.value
    response_field = shape.response_field
    serialization = {
        "include": shape.response_model_include,
        "exclude": shape.response_model_exclude,
        "by_alias": shape.response_model_by_alias,
        "exclude_unset": shape.response_model_exclude_unset,
        "exclude_defaults": shape.response_model_exclude_defaults,
        "exclude_none": shape.response_model_exclude_none,
    }

    async def answer(request: Request) -> Response | None:
        if get_telemetry_data() is not None or getattr(overrides, "dependency_overrides", None):
            return None
        body: Any = None
        if body_field is not None:
            raw = await request.body()
            if not raw or request.headers.get("content-type") != _JSON:
                return None
            try:
                body = json.loads(raw.decode("utf-8"))
            except Exception:  # FastAPI's handler says what (422, or 400)
                return None
        solved: dict[str, Any] = {}
        values: dict[str, Any] = {}
        for name, solve in solvers:
            value = await solve(request, solved)
            if value is _NOT_SOLVED:
                return None
            values[name] = value
        for read, given in readers:
            found, errors = read(getattr(request, given))
            if errors:
                return None
            values.update(found)
        if body_params:
            found, errors = await request_body_to_args(
                body_fields=body_params, received_body=body, embed_body_fields=embed
            )
            if errors:
                return None
            values.update(found)
        if request_name:
            values[request_name] = request
        result = await call(**values)
        if isinstance(result, Response):
            return result
        # As FastAPI answers what an endpoint returns (its default response class).
        response: Response
        if response_field is None:
            response = response_class(jsonable_encoder(result))
        else:
            content = await serialize_response(
                field=response_field, response_content=result, dump_json=True, **serialization
            )
            response = Response(content=content, media_type=_JSON)
        if status_code is not None:
            response.status_code = status_code
        if not is_body_allowed_for_status_code(response.status_code):
            response.body = b""
        return response

    if effective is not None and overrides is not None:
        # As included in an app: what a lane of that app (:mod:`.lanes`) answers it with.
        _BUILT.setdefault(overrides, {})[route.endpoint] = (shape, answer)
    return answer


_BUILT: weakref.WeakKeyDictionary[Any, dict[Callable[..., Any], tuple[Any, LeanHandler]]] = (
    weakref.WeakKeyDictionary()
)
"""Each app's lean handlers, by endpoint, with the route as the app includes it."""


def built_for(app: Any, endpoint: Callable[..., Any]) -> tuple[Any, LeanHandler] | None:
    """The route (as ``app`` includes it) and the lean handler of ``endpoint`` in ``app``."""
    return _BUILT.get(app, {}).get(endpoint)
