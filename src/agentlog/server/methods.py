"""The methods a path takes: in the ``Allow`` header of a 405, and as the answer to ``OPTIONS``.

FastAPI registers one route per method, so Starlette's 405 lists only the methods of the first
route whose path matched (``OPTIONS /sessions`` would say ``Allow: POST`` although ``GET`` is
served too). Here every route of the app is asked, so ``Allow`` lists each method the path
takes, and ``OPTIONS`` on an API path answers 204 with that list instead of a 405.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fastapi import FastAPI, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import Scope

__all__ = ["allowed_methods", "install_method_answers"]


_METHODS: Final = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def allowed_methods(routes: Sequence[BaseRoute], scope: Scope) -> set[str]:
    """The methods the app's routes serve on the path of ``scope`` (mounted apps left out).

    Each method is tried against the routes as the router would, so routers included in
    others are asked too.
    """

    def served(method: str) -> bool:
        probe = {**scope, "method": method}
        return any(
            not isinstance(route, Mount) and route.matches(probe)[0] is Match.FULL
            for route in routes
        )

    return {method for method in _METHODS if served(method)}


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    # Starlette's routing raises its HTTPException(405) for a path matched with another method.
    methods = allowed_methods(request.app.router.routes, request.scope)
    headers = dict(getattr(exc, "headers", None) or {})
    if not methods:
        # A mounted app's path (the static files): its own answer stands.
        return JSONResponse({"detail": "Method Not Allowed"}, status_code=405, headers=headers)
    headers["Allow"] = ", ".join(sorted(methods | {"OPTIONS"}))
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=headers)
    return JSONResponse({"detail": "Method Not Allowed"}, status_code=405, headers=headers)


def install_method_answers(app: FastAPI) -> None:
    """Answer 405s with every method of the path, and ``OPTIONS`` with 204 and that list."""
    app.add_exception_handler(405, _method_not_allowed)
