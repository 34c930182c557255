"""``FunctionTool``: a plain Python function as a tool, its schema read from the signature.

Parameter types become JSON schema through pydantic; the docstring's text before its first
section is the description, and its arguments section describes each parameter, in Google,
NumPy or Sphinx style (:mod:`agentlog.tools.docstrings`). A parameter named ``tool_context``
(or annotated ``ToolContext``) receives the context and is hidden from the model.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import to_jsonable_python

from agentlog._frozen import thaw
from agentlog.context import ToolContext
from agentlog.models.base import ToolDeclaration
from agentlog.tools.base import BaseTool, ConfirmationPolicy, ToolArgumentsError
from agentlog.tools.docstrings import parse_docstring

__all__ = ["FunctionTool", "as_tool"]


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
        doc = parse_docstring(inspect.getdoc(func))
        super().__init__(
            name=name or func.__name__,
            description=description if description is not None else doc.description,
            require_confirmation=require_confirmation,
        )
        self.func = func
        self._is_async = inspect.iscoroutinefunction(func)
        self._context_param: str | None = None
        self._args_model = self._build_model(func, doc.params)
        schema = self._args_model.model_json_schema()
        schema.pop("title", None)
        self._parameters = schema
        self._declared: ToolDeclaration | None = None

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
        # Made once (a model request carries it every call, and validating the schema again
        # cost more than the rest of building the request); again only if renamed.
        made = self._declared
        if made is None or made.name != self.name or made.description != self.description:
            made = self._declared = ToolDeclaration(
                name=self.name, description=self.description, parameters=self._parameters
            )
        return made

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
