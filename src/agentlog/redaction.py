"""Redaction: rewrite an event before it is stored, so sensitive data never reaches the log.

A :data:`Redactor` takes an event and returns it, or a copy with some strings rewritten.
:class:`PatternRedactor` replaces regular-expression matches in every free-text and JSON payload
string of an event; identifiers (ids, names, authors, call ids) and mapping keys are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final, TypeVar

from pydantic import BaseModel

from agentlog.events import Content, Event, EventActions, Part

__all__ = [
    "CARD_PATTERN",
    "DEFAULT_PATTERNS",
    "EMAIL_PATTERN",
    "US_SSN_PATTERN",
    "PatternRedactor",
    "Redactor",
]

Redactor = Callable[[Event], Event]
"""Rewrites an event before it is stored; returns the same object when there is nothing to hide."""

CARD_PATTERN: Final = re.compile(r"(?<!\d)\d(?:[ -]?\d){12,}(?!\d)")
"""Runs of 13 or more digits, single spaces or dashes between them allowed.

Wherever this pattern is used, only the stretches of 13 to 19 digits that pass the Luhn check
are redacted, so order numbers and other long digit runs are kept.
"""

EMAIL_PATTERN: Final = re.compile(
    r"(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b"
)
"""E-mail addresses."""

US_SSN_PATTERN: Final = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
"""US social security numbers written NNN-NN-NNNN."""

DEFAULT_PATTERNS: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType(
    {"card": CARD_PATTERN, "email": EMAIL_PATTERN, "us_ssn": US_SSN_PATTERN}
)
"""The patterns a :class:`PatternRedactor` uses unless given others."""

M = TypeVar("M", bound=BaseModel)

_Finder = Callable[[str], Iterator[tuple[int, int]]]

_DIGITS: Final = re.compile(r"\d+")


def _card_spans(run: str, offset: int) -> Iterator[tuple[int, int]]:
    """Luhn-valid stretches of 13-19 digits in a digit run, cut only where a separator is.

    Trying sub-stretches matters: a card followed by a space and more digits ("4111 1111 1111
    1111 12") forms one longer run whose digits as a whole fail the check. Luhn weights count
    from the right, so each stretch's sum is built leftwards from its last group: O(19) a group.
    """
    groups = [(m.start(), m.end()) for m in _DIGITS.finditer(run)]
    longest: dict[int, int] = {}  # first group of a valid stretch -> its last group, the furthest
    for last in range(len(groups)):
        total = count = 0
        for first in range(last, -1, -1):
            a, b = groups[first]
            if count + b - a > 19:
                break
            for char in reversed(run[a:b]):
                n = int(char)
                total += (n * 2 - 9 if n > 4 else n * 2) if count % 2 else n
                count += 1
            if count >= 13 and total % 10 == 0:
                longest[first] = last
    first = 0
    while first < len(groups):
        if first in longest:
            yield offset + groups[first][0], offset + groups[longest[first]][1]
            first = longest[first] + 1
        else:
            first += 1


def _finder(pattern: re.Pattern[str]) -> _Finder:
    if pattern.pattern == CARD_PATTERN.pattern and pattern.flags == CARD_PATTERN.flags:
        return lambda text: (
            span for m in pattern.finditer(text) for span in _card_spans(m.group(), m.start())
        )
    return lambda text: (m.span() for m in pattern.finditer(text))


def _rebuilt(model: M, changes: dict[str, Any]) -> M:
    """``model`` itself when nothing changed, else a re-validated (so deep-frozen) copy."""
    if not changes:
        return model
    return type(model).model_validate({**dict(model), **changes})


# The payload fields redacted in each kind of part and action; everything else is an identifier.
_PART_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "function_call": ("args",),
    "function_response": ("response",),
    "code_execution_result": ("output",),
}
_ACTION_MAPS: Final[Mapping[str, tuple[str, ...]]] = {
    "requested_tool_confirmations": ("hint", "payload"),
    "requested_auth_configs": ("hint", "params"),
}


class PatternRedactor:
    """A :data:`Redactor` that replaces pattern matches with ``replacement``.

    ``patterns`` maps a name to a regular expression (default :data:`DEFAULT_PATTERNS`; merge
    with it to add your own). Each match becomes ``replacement`` with ``{name}`` filled in.
    Patterns apply in order, each to the text the previous ones left; :data:`CARD_PATTERN`, under
    any name, redacts only Luhn-valid numbers.
    """

    def __init__(
        self,
        patterns: Mapping[str, str | re.Pattern[str]] | None = None,
        *,
        replacement: str = "[REDACTED:{name}]",
    ) -> None:
        chosen = DEFAULT_PATTERNS if patterns is None else patterns
        self._rules: list[tuple[_Finder, str]] = [
            (_finder(re.compile(p)), replacement.format(name=name)) for name, p in chosen.items()
        ]

    def __call__(self, event: Event) -> Event:
        """``event`` with every match redacted; the same object when nothing matched."""
        changes: dict[str, Any] = {}
        if event.content is not None:
            content = self._content(event.content)
            if content is not event.content:
                changes["content"] = content
        if event.error_message is not None:
            message = self.redact_text(event.error_message)
            if message is not event.error_message:
                changes["error_message"] = message
        actions = self._actions(event.actions)
        if actions is not event.actions:
            changes["actions"] = actions
        return _rebuilt(event, changes)

    def redact_text(self, text: str) -> str:
        """``text`` with every match replaced; the same object when nothing matched."""
        for find, replacement in self._rules:
            spans = list(find(text))
            if spans:
                pieces: list[str] = []
                last = 0
                for start, end in spans:
                    pieces += [text[last:start], replacement]
                    last = end
                text = "".join([*pieces, text[last:]])
        return text

    def redact_value(self, value: Any) -> Any:
        """Any JSON value with its strings redacted, keys kept; the same object when unchanged.

        A changed value comes back as plain dicts and lists.
        """
        if isinstance(value, str):
            return self.redact_text(value)
        if isinstance(value, Mapping):
            items = {k: self.redact_value(v) for k, v in value.items()}
            changed = any(items[k] is not v for k, v in value.items())
            return items if changed else value
        if isinstance(value, list | tuple):
            redacted = [self.redact_value(v) for v in value]
            if all(r is v for r, v in zip(redacted, value, strict=True)):
                return value
            return redacted if isinstance(value, list) else tuple(redacted)
        return value

    # --- the parts of an event ----------------------------------------------------------------

    def _fields(self, model: M, *names: str) -> M:
        changes: dict[str, Any] = {}
        for name in names:
            old = getattr(model, name)
            new = self.redact_value(old)
            if new is not old:
                changes[name] = new
        return _rebuilt(model, changes)

    def _content(self, content: Content) -> Content:
        parts = tuple(self._part(p) for p in content.parts)
        if all(new is old for new, old in zip(parts, content.parts, strict=True)):
            return content
        return _rebuilt(content, {"parts": parts})

    def _part(self, part: Part) -> Part:
        changes: dict[str, Any] = {}
        if part.text is not None and (text := self.redact_text(part.text)) is not part.text:
            changes["text"] = text
        for name, fields in _PART_FIELDS.items():
            old = getattr(part, name)
            if old is not None and (new := self._fields(old, *fields)) is not old:
                changes[name] = new
        return _rebuilt(part, changes)

    def _actions(self, actions: EventActions) -> EventActions:
        changes: dict[str, Any] = {}
        delta = self.redact_value(actions.state_delta)
        if delta is not actions.state_delta:
            changes["state_delta"] = delta
        for name, fields in _ACTION_MAPS.items():
            old: Mapping[str, BaseModel] = getattr(actions, name)
            new = {key: self._fields(value, *fields) for key, value in old.items()}
            if any(new[key] is not value for key, value in old.items()):
                changes[name] = new
        compaction = actions.compaction
        if compaction is not None and (summary := self._content(compaction.summary)) is not (
            compaction.summary
        ):
            changes["compaction"] = _rebuilt(compaction, {"summary": summary})
        return _rebuilt(actions, changes)
