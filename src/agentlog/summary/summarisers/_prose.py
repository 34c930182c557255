"""Prose results: the labelled parts (``Status Bar: ...``) that several tools repeat after each
action, kept as one fact of each label's latest value rather than a part of every result."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Final

from agentlog.events import Event
from agentlog.summary.record._extract import clip, prose_of
from agentlog.summary.summarisers._draft import Draft
from agentlog.summary.summarisers._terse import key_sentences

__all__ = ["last_shown", "repeated_labels", "without_repeats"]

_LABEL: Final = re.compile(r"(?<![^\s.])([A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}): ")
"""A labelled part of a prose result (``Status Bar: ...``), up to the next label."""


def repeated_labels(events: Iterable[Event]) -> set[str]:
    """The labels (``Status Bar:``) that the prose results of more than one tool show: a
    device's state repeated after every action is one fact, not a part of each."""
    tools: dict[str, set[str]] = {}
    for event in events:
        for response in event.function_responses():
            prose = prose_of(response.response)
            if prose is not None:
                for m in _LABEL.finditer(prose):
                    tools.setdefault(m[1], set()).add(response.name)
    return {label for label, names in tools.items() if len(names) > 1}


def without_repeats(
    draft: Draft,
    text: str,
    repeated: Collection[str],
    sources: list[str],
    entities: Collection[str],
    *,
    terse: bool = False,
) -> str:
    """A prose result without its repeated labelled parts, each kept as the latest value of
    its label (:func:`repeated_labels`, :func:`last_shown`); with ``terse`` (a write's), only
    its sentences naming one of ``entities`` (:func:`key_sentences`)."""
    if repeated:
        marks = list(_LABEL.finditer(text))
        kept: list[str] = [text[: marks[0].start()] if marks else text]
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            part = text[m.start() : end]
            if m[1] in repeated:
                draft.last_shown.pop(m[1], None)  # kept in order of last showing
                draft.last_shown[m[1]] = (part[m.end() - m.start() :].strip(), sources)
            else:
                kept.append(part)
        text = " ".join(" ".join(kept).split())
    if text and terse:
        text = key_sentences(text, entities)
    return clip(text, draft.limit // 2)


def last_shown(draft: Draft) -> None:
    """Add the fact of each repeated label's latest value, citing the events that showed it."""
    for label, (value, sources) in draft.last_shown.items():
        draft.add(draft.facts, clip(f"{label}, last shown: {value}", draft.limit), sources)
