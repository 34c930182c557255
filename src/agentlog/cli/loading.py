"""Objects a command line names as ``module:object``: the agent ``serve --agent`` serves, the
summariser and compaction settings of ``worker``.

The module is looked for in the current folder first, as ``python -m`` does, so
``agentlog serve --agent myapp:root`` works from the folder that holds ``myapp.py``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import TYPE_CHECKING, Any

from agentlog.errors import InvalidConfigError

if TYPE_CHECKING:
    from agentlog.agents.base import BaseAgent
    from agentlog.compaction.config import EventsCompactionConfig

__all__ = ["load_agent", "load_compaction", "load_summarizer"]


def load_agent(spec: str) -> BaseAgent:
    """The agent ``module:object`` names: an agent, or a function of no arguments returning
    one.

    Raises ``InvalidConfigError`` saying what is wrong with ``spec``.
    """
    from agentlog.agents.base import BaseAgent

    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise InvalidConfigError(f"{spec!r} is not 'module:object', e.g. 'myapp:root'")
    try:
        obj: Any = _import(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module_name + ".").startswith(exc.name + "."):
            raise InvalidConfigError(f"importing {module_name!r} failed: {exc}") from exc
        raise InvalidConfigError(
            f"no module named {exc.name!r}: check the name, and run from the folder that holds "
            "it or add that folder to PYTHONPATH"
        ) from exc
    except Exception as exc:
        raise InvalidConfigError(
            f"importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidConfigError(f"module {module_name!r} has no {attr!r}") from None
    if not isinstance(obj, BaseAgent) and callable(obj):
        obj = _call_factory(spec, obj)
    if not isinstance(obj, BaseAgent):
        raise InvalidConfigError(
            f"{spec} is a {type(obj).__name__}, not an agent: name a BaseAgent, or a function "
            "of no arguments that returns one"
        )
    return obj


def _import(module_name: str) -> Any:
    # The ``agentlog`` script's sys.path starts at its own folder, not the current one.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    return importlib.import_module(module_name)


def _call_factory(spec: str, factory: Any) -> Any:
    try:
        inspect.signature(factory).bind()
    except TypeError:
        raise InvalidConfigError(
            f"{spec} is not an agent but a {type(factory).__name__} that needs arguments: name "
            "a BaseAgent, or a function of no arguments that returns one"
        ) from None
    except ValueError:  # no signature to read (some builtins): calling it will tell
        pass
    try:
        return factory()
    except Exception as exc:
        raise InvalidConfigError(f"calling {spec}() failed: {type(exc).__name__}: {exc}") from exc


def _named(spec: str, option: str) -> Any:
    """The object a ``module:object`` spec names (``object`` may be dotted)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"{option} {spec!r} is not 'module:object'")
    obj: Any = _import(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def load_summarizer(spec: str | None) -> Any:
    """The summariser ``module:object`` names (an object, or a callable returning one); the
    extractive summariser (no model) without a spec."""
    if spec is None:
        from agentlog.summary import ExtractiveSummarizer

        return ExtractiveSummarizer()
    obj = _named(spec, "--summarizer")
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "summarize")):
        obj = obj()
    if not callable(getattr(obj, "summarize", None)):
        raise ValueError(f"{spec} is a {type(obj).__name__}, not a summariser")
    return obj


def load_compaction(spec: str) -> EventsCompactionConfig:
    """The ``EventsCompactionConfig`` ``module:object`` names (or a callable returning one)."""
    from agentlog.compaction.config import EventsCompactionConfig

    obj = _named(spec, "--compaction")
    if not isinstance(obj, EventsCompactionConfig) and callable(obj):
        obj = obj()
    if not isinstance(obj, EventsCompactionConfig):
        raise ValueError(f"{spec} is a {type(obj).__name__}, not an EventsCompactionConfig")
    return obj
