"""A function's docstring read for a tool's schema: its description and one line per argument.

Google (``Args:``), NumPy (``Parameters`` underlined) and Sphinx (``:param name:``) styles are
all read, by griffe's parsers (the ones mkdocstrings uses); the style is the one whose parser
finds the most sections.
griffe is imported on the first docstring read, not with the tools.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ToolDoc", "parse_docstring"]

_QUIET: Any = {style: {"warnings": False} for style in ("google", "numpy", "sphinx")}
"""No warnings: a tool's docstring owes griffe no types, returns or exact names."""


@dataclass(frozen=True, slots=True)
class ToolDoc:
    """What a docstring says about a tool."""

    description: str = ""
    """The text before the first section, on one line."""
    params: dict[str, str] = field(default_factory=dict)
    """Each documented argument's description, on one line, by name (``*``s stripped)."""


def parse_docstring(doc: str | None) -> ToolDoc:
    """The description and argument descriptions of ``doc`` (as ``inspect.getdoc`` gives it),
    in whichever of the Google, NumPy and Sphinx styles it is written."""
    text = inspect.cleandoc(doc or "")
    if not text:
        return ToolDoc()
    from griffe import Docstring, DocstringSectionKind, Parser, parse_auto

    # Parsed in each style, keeping the one that finds the most sections: griffe's quicker
    # heuristics miss a Sphinx field on a docstring's last line (their pattern wants a newline
    # after it), which would lose the only argument a short docstring documents.
    sections = parse_auto(
        Docstring(text, lineno=1),
        method="max_sections",
        style_order=[Parser.google, Parser.numpy, Parser.sphinx],
        default=Parser.google,
        per_style_options=_QUIET,
    )
    description = ""
    params: dict[str, str] = {}
    for section in sections:
        if section.kind is DocstringSectionKind.text and not description and not params:
            description = _one_line(section.value)
        elif section.kind in (
            DocstringSectionKind.parameters,
            DocstringSectionKind.other_parameters,
        ):
            for param in section.value:
                params.setdefault(param.name.lstrip("*"), _one_line(param.description))
    return ToolDoc(description, params)


def _one_line(text: str) -> str:
    return " ".join(text.split())
