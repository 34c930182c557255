"""``FunctionTool``: a plain Python function as a tool, its schema read from the signature.

Parameter types become JSON schema through pydantic; the docstring's first paragraph is the
description and its ``Args:`` section (Google style) describes each parameter. A parameter
named ``tool_context`` (or annotated ``ToolContext``) receives the context and is hidden from
the model.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import to_jsonable_python

from agentlog._frozen import thaw
from agentlog.context import ToolContext
from agentlog.models.base import ToolDeclaration
from agentlog.tools.base import BaseTool, ConfirmationPolicy, ToolArgumentsError

__all__ = ["FunctionTool", "as_tool"]

_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s*(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_SECTION = re.compile(r"^\s*[A-Z][A-Za-z ]*:\s*$")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    lines = inspect.cleandoc(doc).splitlines() if doc else []
    summary: list[str] = []
    params: dict[str, str] = {}
    i = 0
    while i < len(lines) and not _ARGS_HEADER.match(lines[i]) and not _SECTION.match(lines[i]):
        summary.append(lines[i])
        i += 1
    current: str | None = None
    in_args = False
    for line in lines[i:]:
        if _ARGS_HEADER.match(line):
            in_args = True
            continue
        if _SECTION.match(line):
            in_args = False
            continue
        if not in_args:
            continue
        match = _ARG_LINE.match(line)
        if match and (len(line) - len(line.lstrip())) <= 4:
            current = match[1].lstrip("*")
            params[current] = match[2].strip()
        elif current and line.strip():
            params[current] = f"{params[current]} {line.strip()}".strip()
    description = " ".join(" ".join(summary).split())
    return description, params


class FunctionTool(BaseTool):
    """Wraps a sync or async function. Sync functions run in a worker thread."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        require_confirmation: ConfirmationPolicy = False,
    ) -> None:
        doc_description, doc_params = _parse_docstring(inspect.getdoc(func) or "")
        super().__init__(
            name=name or func.__name__,
            description=description if description is not None else doc_description,
            require_confirmation=require_confirmation,
        )
        self.func = func
        self._is_async = inspect.iscoroutinefunction(func)
        self._context_param: str | None = None
        self._args_model = self._build_model(func, doc_params)
        schema = self._args_model.model_json_schema()
        schema.pop("title", None)
        self._parameters = schema

    def _build_model(self, func: Callable[..., Any], docs: Mapping[str, str]) -> type[BaseModel]:
        hints = get_type_hints(func)
        fields: dict[str, Any] = {}
        for param in inspect.signature(func).parameters.values():
            annotation = hints.get(param.name, Any)
            if param.name == "tool_context" or annotation is ToolContext:
                self._context_param = param.name
                continue
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise TypeError(f"tool {func.__name__}: *args and **kwargs cannot be declared")
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (annotation, Field(default, description=docs.get(param.name)))
        config = ConfigDict(extra="forbid")
        model: type[BaseModel] = create_model(f"{self.name}_args", __config__=config, **fields)
        return model

    def declaration(self) -> ToolDeclaration:
        """Name, description and the JSON schema of the parameters."""
        return ToolDeclaration(
            name=self.name, description=self.description, parameters=self._parameters
        )

    async def run(self, args: Mapping[str, Any], tool_context: ToolContext) -> Any:
        """Validate ``args`` and call the function."""
        try:
            validated = self._args_model.model_validate(thaw(args))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors()
            )
            raise ToolArgumentsError(f"invalid arguments for {self.name}: {problems}") from exc
        kwargs = {name: getattr(validated, name) for name in type(validated).model_fields}
        if self._context_param is not None:
            kwargs[self._context_param] = tool_context
        if self._is_async:
            result = await self.func(**kwargs)
        else:
            result = await asyncio.to_thread(self.func, **kwargs)
        return to_jsonable_python(result)


def as_tool(tool: BaseTool | Callable[..., Any]) -> BaseTool:
    """A tool as given, or a function wrapped in a ``FunctionTool``."""
    return tool if isinstance(tool, BaseTool) else FunctionTool(tool)
