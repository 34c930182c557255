"""The transcript a summariser reads: one line per event part, each naming its event.

Every line starts with ``[event id] author``, so a summary can cite it and tell the user's words
from an agent's. Then, by kind::

    [e002] user: text
    [e005] agent CALLS lookup_order {"order_id": "A-1001"}
    [e006] agent RESULT lookup_order {"status": "shipped", ...}
    [e009] agent SUMMARY of 8 events (e001 to e008): text of a compaction
    [e010] agent CODE ok: output
    [e011] agent ARTIFACT report.pdf v2
    [e012] agent TRANSFER to refunds
    [e013] agent ERROR max_tokens: the error message, if any

Payloads are JSON. One longer than ``max_tool_chars`` first has its large arrays cut to their
first ``max_array_items`` elements and a count, and is then cut at the head (a tool's
identifiers usually come first), at a separator so no number or id is split, with a
``...[truncated N chars]`` marker. Text longer than ``max_text_chars`` is cut the same way.
Line breaks inside text and payloads are shown as ``⏎``, so no content can start a line of its
own and pass itself off as another event. Partial events are skipped. The output depends only
on the events and the limits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal, NamedTuple

from agentlog.events import Event

__all__ = [
    "LINE_HEAD",
    "TranscriptLine",
    "parse_line",
    "render_payload",
    "render_transcript",
    "transcript_lines",
    "truncate_head",
]

LineKind = Literal["text", "call", "result", "summary", "code", "artifact", "transfer", "error"]

_KEYWORDS: Final[dict[LineKind, str]] = {
    "call": "CALLS",
    "result": "RESULT",
    "summary": "SUMMARY",
    "code": "CODE",
    "artifact": "ARTIFACT",
    "transfer": "TRANSFER",
    "error": "ERROR",
}
_KINDS: Final = {word: kind for kind, word in _KEYWORDS.items()}

LINE_HEAD: Final = re.compile(
    r"\[([^\]\n]*)\] (\S+?)(?:: | (CALLS|RESULT|SUMMARY|CODE|ARTIFACT|TRANSFER|ERROR) )"
)
"""Matches the start of a rendered line: groups are event id, author, keyword (None for text)."""

# What ``str.splitlines`` breaks at; ``\r\n`` is one break.
_BREAKS: Final = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_NEWLINE: Final = " ⏎ "


class TranscriptLine(NamedTuple):
    """One rendered line: the event it belongs to, its kind, and the text after the head."""

    event_id: str
    author: str
    kind: LineKind
    body: str

    @property
    def head_len(self) -> int:
        """Characters before the body: ``[id] author: `` or ``[id] author KEYWORD ``."""
        keyword = 0 if self.kind == "text" else len(_KEYWORDS[self.kind])
        return len(self.event_id) + len(self.author) + 5 + keyword

    def render(self) -> str:
        """The line as the summariser sees it."""
        if self.kind == "text":
            return f"[{self.event_id}] {self.author}: {self.body}"
        return f"[{self.event_id}] {self.author} {_KEYWORDS[self.kind]} {self.body}"


def parse_line(line: str) -> tuple[str, str, LineKind, int] | None:
    """``(event id, author, kind, offset of the body)`` of a rendered line, or ``None``."""
    m = LINE_HEAD.match(line)
    if m is None:
        return None
    kind: LineKind = "text" if m[3] is None else _KINDS[m[3]]
    return m[1], m[2], kind, m.end()


def _one_line(text: str) -> str:
    # ``in`` finds a character at memchr speed (at once, if it is wider than the text), where
    # a regex, ``isprintable`` or ``replace`` tests every character.
    if "\r" in text:
        text = text.replace("\r\n", _NEWLINE)
    for brk in _BREAKS:
        if brk in text:
            text = text.replace(brk, _NEWLINE)
    return text


def truncate_head(text: str, max_chars: int) -> str:
    """``text`` if it fits, else its head (cut at a separator) and a ``...[truncated N chars]``."""
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    floor = max_chars // 2
    # Between two values if possible, else between two words: never inside a number or an id.
    cut = head.rfind(", ", floor)
    if cut < 0:
        cut = head.rfind(" ", floor)
    if cut > 0:
        head = head[:cut].rstrip(",")
    return f"{head} ...[truncated {len(text) - len(head)} chars]"


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, default=str)


def _c_encoder() -> Callable[[Any, int], Sequence[str]] | None:
    # ``JSONEncoder.encode`` builds a C encoder on every call, which costs as much as
    # encoding a small payload; this one is built once. Without the circular-reference check
    # (its ``markers`` dict would be shared between threads): a circular value recurses until
    # ``RecursionError`` and is then handed to ``_ENCODER``, which reports it as before.
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        encoder: Callable[[Any, int], Sequence[str]] = make(
            None, str, json.encoder.encode_basestring, None, ": ", ", ", False, False, True
        )
        probe = {"a": [1, 2.5, None, True, "é\n"], "b": {"c": float("inf")}, "d": object}
        if "".join(encoder(probe, 0)) != _ENCODER.encode(probe):
            return None
    except Exception:  # another Python's private signature: use the public path
        return None
    return encoder


_C_ENCODER: Final = _c_encoder()


def _dumps(value: Any) -> str:
    """``_ENCODER.encode(value)``, faster."""
    if _C_ENCODER is None or isinstance(value, str):
        return _ENCODER.encode(value)
    try:
        return "".join(_C_ENCODER(value, 0))
    except RecursionError:
        return _ENCODER.encode(value)


_CONTAINERS: Final = (dict, list, tuple)


def _has_long_array(value: Any, max_items: int) -> bool:
    # A stack, not a call per container; leaves, most of a payload, never go on it.
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(v for v in node.values() if isinstance(v, _CONTAINERS))
        elif isinstance(node, list | tuple):
            if len(node) > max_items:
                return True
            stack.extend(v for v in node if isinstance(v, _CONTAINERS))
    return False


def _shorten_arrays(value: Any, max_items: int) -> Any:
    if isinstance(value, dict):
        return {k: _shorten_arrays(v, max_items) for k, v in value.items()}
    if isinstance(value, list | tuple):
        kept = [_shorten_arrays(v, max_items) for v in value[:max_items]]
        if len(value) > max_items:
            kept.append(f"...and {len(value) - max_items} more ({len(value)} items)")
        return kept
    return value


def render_payload(value: Any, max_chars: int, max_array_items: int = 3) -> str:
    """A tool payload as one line of JSON, shortened to about ``max_chars``."""
    body = _dumps(value)
    if len(body) > max_chars:
        # Most long payloads are long objects, not long arrays: then there is nothing to cut
        # and encoding them again would give the same text.
        if _has_long_array(value, max_array_items):
            body = _dumps(_shorten_arrays(value, max_array_items))
        body = truncate_head(body, max_chars)
    # JSON escapes every ASCII line break; only U+0085, U+2028 and U+2029 may remain.
    return body if body.isascii() else _one_line(body)


def _author(author: str) -> str:
    return author if author and author.isprintable() and " " not in author else _fold(author)


def _fold(author: str) -> str:
    return "_".join(author.split()) or "?"


def transcript_lines(
    events: Iterable[Event],
    *,
    max_tool_chars: int = 2_000,
    max_text_chars: int = 4_000,
    max_array_items: int = 3,
) -> list[TranscriptLine]:
    """The transcript's lines, in event order (see the module docstring for the format)."""
    lines: list[TranscriptLine] = []
    # A long session has thousands of lines: each is made without the named tuple's
    # ``__new__`` (a Python function), and each author or tool name is cleaned once.
    new, add = tuple.__new__, lines.append
    names: dict[str, str] = {}
    for event in events:
        if event.partial:
            continue
        eid, actions, content = event.id, event.actions, event.content
        author = names.get(event.author) or names.setdefault(event.author, _author(event.author))
        compaction = actions.compaction
        if compaction is not None:
            text = "".join(p.text or "" for p in compaction.summary.parts)
            ids = compaction.event_ids
            span = f" ({ids[0]} to {ids[-1]})" if ids else ""
            body = truncate_head(_one_line(text), max_text_chars)
            add(TranscriptLine(eid, author, "summary", f"of {len(ids)} events{span}: {body}"))
            continue
        for part in content.parts if content is not None else ():
            if (said := part.text) is not None:
                if said.strip():
                    body = truncate_head(_one_line(said), max_text_chars)
                    add(new(TranscriptLine, (eid, author, "text", body)))
            elif (call := part.function_call) is not None:
                name = names.get(call.name) or names.setdefault(call.name, _author(call.name))
                args = render_payload(call.args, max_tool_chars, max_array_items)
                add(new(TranscriptLine, (eid, author, "call", f"{name} {args}")))
            elif (fr := part.function_response) is not None:
                name = names.get(fr.name) or names.setdefault(fr.name, _author(fr.name))
                body = render_payload(fr.response, max_tool_chars, max_array_items)
                add(new(TranscriptLine, (eid, author, "result", f"{name} {body}")))
            elif part.code_execution_result is not None:
                result = part.code_execution_result
                output = truncate_head(_one_line(result.output), max_tool_chars)
                add(TranscriptLine(eid, author, "code", f"{result.outcome}: {output}"))
            elif part.artifact_ref is not None:
                ref = part.artifact_ref
                add(TranscriptLine(eid, author, "artifact", f"{ref.name} v{ref.version}"))
        if actions.transfer_to_agent:
            add(TranscriptLine(eid, author, "transfer", f"to {actions.transfer_to_agent}"))
        if event.error_code is not None:
            error = str(event.error_code)
            if event.error_message:  # what went wrong, for a reader who cannot ask
                error += ": " + truncate_head(_one_line(event.error_message), max_text_chars)
            add(TranscriptLine(eid, author, "error", error))
    return lines


def render_transcript(
    events: Sequence[Event],
    *,
    max_tool_chars: int = 2_000,
    max_text_chars: int = 4_000,
    max_array_items: int = 3,
) -> str:
    """The transcript as text, one line per event part (see the module docstring)."""
    lines = transcript_lines(
        events,
        max_tool_chars=max_tool_chars,
        max_text_chars=max_text_chars,
        max_array_items=max_array_items,
    )
    return "\n".join(line.render() for line in lines)
