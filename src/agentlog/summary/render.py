"""The transcript a summariser reads: :mod:`agentlog.transcript`, where it lives since
compaction renders its windows with it too (issue 13); re-exported here for existing imports."""

from __future__ import annotations

from agentlog.transcript import (
    LINE_HEAD,
    LineKind,
    TranscriptLine,
    parse_line,
    render_payload,
    render_transcript,
    transcript_lines,
    truncate_head,
)

__all__ = [
    "LINE_HEAD",
    "LineKind",
    "TranscriptLine",
    "parse_line",
    "render_payload",
    "render_transcript",
    "transcript_lines",
    "truncate_head",
]
