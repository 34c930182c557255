"""JSON answers without null fields, and an OpenAPI schema that says so.

Every JSON route leaves out the fields whose value is null (``response_model_exclude_none``,
set by :class:`~agentlog.server.routes.resource.JsonRoute`), and so do the frames of a stream
and the JSON answer of a turn: an event without a model says nothing of one, rather than
``"model": null``. Only fields go: a null inside a value is data and stays (a ``state_delta``
maps a key to null to delete it; a tool's result may hold nulls).

The schema is made to match: in every component only answers use (none a request body or a
parameter refers to), a field that may be left out loses its ``null`` alternative and its
``null`` default, so a client generated from the schema reads an absent field as unset, and
schemathesis, checking every answer against the schema, finds any null that slips through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from fastapi import FastAPI

__all__ = ["NOTE", "install_no_nulls", "strip_nulls"]

NOTE: Final = (
    "JSON answers leave out fields whose value would be null: an absent field is unset. "
    "A null inside a value (a state delta deleting a key, a tool's result) is data and stays."
)
"""What the API's description says about nulls."""

_REF: Final = "#/components/schemas/"
_NULL: Final = {"type": "null"}


def install_no_nulls(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI schema say that its answers carry no null fields."""
    build: Callable[[], dict[str, Any]] = app.openapi
    done = False

    def openapi() -> dict[str, Any]:
        nonlocal done
        schema = build()  # FastAPI's, made once and cached on the app
        if not done:
            strip_nulls(schema)
            info = schema.setdefault("info", {})
            info["description"] = f"{info.get('description', '')}\n\n{NOTE}".strip()
            done = True
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def strip_nulls(schema: dict[str, Any]) -> None:
    """Drop the ``null`` of every optional field of the components only answers use, in
    place."""
    components: dict[str, Any] = schema.get("components", {}).get("schemas", {})
    inputs = _reachable(_request_schemas(schema), components)
    for name, component in components.items():
        if name not in inputs:
            _strip_properties(component)


def _strip_properties(component: dict[str, Any]) -> None:
    required = set(component.get("required", ()))
    for name, prop in component.get("properties", {}).items():
        if name in required or not isinstance(prop, dict):
            continue
        options = prop.get("anyOf")
        if not isinstance(options, list) or _NULL not in options:
            continue
        rest = [option for option in options if option != _NULL]
        del prop["anyOf"]
        if len(rest) == 1:
            for key, value in rest[0].items():
                prop.setdefault(key, value)
        else:
            prop["anyOf"] = rest
        if "default" in prop and prop["default"] is None:
            del prop["default"]


def _request_schemas(schema: dict[str, Any]) -> Iterator[Any]:
    """The schemas of every request body and parameter."""
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", ()):
                yield parameter.get("schema")
            for media in operation.get("requestBody", {}).get("content", {}).values():
                yield media.get("schema")


def _reachable(roots: Iterator[Any], components: dict[str, Any]) -> set[str]:
    """The names of the components ``roots`` refer to, directly or through others."""
    found: set[str] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(_REF):
                name = ref.removeprefix(_REF)
                if name not in found:
                    found.add(name)
                    stack.append(components.get(name))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found
