"""``RunConfig``: how one run streams and where it stops."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RunConfig", "StreamingMode"]


class StreamingMode(StrEnum):
    """Whether model text arrives whole or as drafts."""

    NONE = "none"
    """Whole events only."""
    SSE = "sse"
    """Partial events carry the text so far; one aggregated event follows and is stored."""


class RunConfig(BaseModel):
    """Settings for one ``Runner.run_async`` call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    streaming_mode: StreamingMode = Field(default=StreamingMode.NONE, description="Drafts or not.")
    max_llm_calls: int = Field(
        default=500,
        gt=0,
        description=(
            "Model calls allowed in one invocation before it stops; a turn resumed after a "
            "confirmation counts the calls it made before pausing."
        ),
    )
