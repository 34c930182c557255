"""The work behind ``agentlog summarize`` and ``agentlog eval`` (:mod:`agentlog.cli.summarize`):
choosing summarisers, running them over sessions, loading sessions and writing results."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

from agentlog.events import Event
from agentlog.models.base import BaseLlm
from agentlog.sessions.base import Session, SessionService
from agentlog.summary.evaluation.scoring import EvalReport, aggregate, score_session
from agentlog.summary.importers.jsonl import ImportedSession, load_jsonl_sessions
from agentlog.summary.record.entities import EntityPatterns
from agentlog.summary.record.result import Summarizer, SummaryResult, TokenPrice
from agentlog.summary.summarisers.extractive import ExtractiveSummarizer
from agentlog.summary.summarisers.service import SummaryService
from agentlog.summary.uses.digest import render_digest

__all__ = [
    "AnySession",
    "Summarizers",
    "evaluate",
    "load_jsonl",
    "load_store_sessions",
    "make_model",
    "patterns_named",
    "result_name",
    "summarize_all",
    "write_result",
]

AnySession = Session | ImportedSession


def patterns_named(name: str) -> EntityPatterns:
    """``EntityPatterns.default()``, ``.retail()`` or ``.telecom()``."""
    return {"retail": EntityPatterns.retail, "telecom": EntityPatterns.telecom}.get(
        name, EntityPatterns.default
    )()


def _meta(session: AnySession) -> Mapping[str, Any]:
    return session.meta if isinstance(session, ImportedSession) else {}


def _id(session: AnySession) -> str:
    return session.session_id if isinstance(session, ImportedSession) else session.id


class Summarizers:
    """One summariser per pattern set, made on first use: extractive, or ``SummaryService``.

    ``patterns`` names the set (``default``, ``retail``, ``telecom``), or is ``auto``: each
    session's ``meta.domain`` picks it."""

    def __init__(
        self,
        patterns: str,
        *,
        model: BaseLlm | None = None,
        max_tool_chars: int = 2_000,
        price: TokenPrice | None = None,
    ) -> None:
        self.patterns = patterns
        self.model = model
        self.max_tool_chars = max_tool_chars
        self.price = price
        self._made: dict[str, Summarizer] = {}

    @property
    def label(self) -> str:
        """``extractive`` or ``llm:<model>``."""
        return "extractive" if self.model is None else f"llm:{self.model.model}"

    def for_session(self, session: AnySession) -> Summarizer:
        """The summariser for ``session``'s domain (or for the chosen pattern set)."""
        name = self.patterns
        if name == "auto":
            name = str(_meta(session).get("domain") or "default")
        name = name if name in ("retail", "telecom") else "default"
        if name not in self._made:
            patterns = patterns_named(name)
            if self.model is None:
                made: Summarizer = ExtractiveSummarizer(
                    patterns=patterns, max_tool_chars=self.max_tool_chars
                )
            else:
                prices = {self.model.model: self.price} if self.price else None
                made = SummaryService(
                    self.model, patterns=patterns, max_tool_chars=self.max_tool_chars, prices=prices
                )
            self._made[name] = made
        return self._made[name]


async def summarize_all(
    sessions: Sequence[AnySession],
    summarizers: Summarizers,
    *,
    concurrency: int = 1,
    done: Callable[[AnySession, SummaryResult], None] | None = None,
) -> list[SummaryResult]:
    """Every session's result, in order, ``concurrency`` at a time; ``done`` after each."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(session: AnySession) -> SummaryResult:
        async with gate:
            given = session if isinstance(session, Session) else session.events
            result = await summarizers.for_session(session).summarize(given)
        if result.session_id is None:
            result = result.model_copy(update={"session_id": _id(session)})
        if done is not None:
            done(session, result)
        return result

    return list(await asyncio.gather(*(one(s) for s in sessions)))


def make_model(
    spec: str | None, base_url: str | None, price: str | None
) -> tuple[BaseLlm | None, TokenPrice | None]:
    """The model ``--model`` names (``None``: extractive) and the ``--price`` ``IN,OUT``."""
    token_price = None
    if price is not None:
        try:
            inp, out = (float(x) for x in price.split(","))
        except ValueError:
            raise typer.BadParameter(
                "expected INPUT,OUTPUT per million tokens", param_hint="--price"
            ) from None
        token_price = TokenPrice(inp, out)
    if spec is None:
        return None, token_price
    from agentlog.models.registry import model_from_spec

    try:
        return model_from_spec(spec, base_url=base_url), token_price
    except (ValueError, ImportError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--model") from exc


async def load_store_sessions(
    store: SessionService, *, app_name: str, user_id: str | None, session_id: str | None
) -> list[Session]:
    """One session (``user_id`` and ``session_id`` given), or every session of the app (of one
    user), with their events; closes ``store``."""
    try:
        if session_id is not None and user_id is not None:
            keys = [(user_id, session_id)]
        else:
            listed = await store.list_sessions(app_name=app_name, user_id=user_id)
            keys = [(s.user_id, s.id) for s in listed]
        return [
            await store.get_session(app_name=app_name, user_id=u, session_id=s) for u, s in keys
        ]
    finally:
        await store.close()


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NAME_CHARS = 100
"""The longest file name stem written: file systems allow 255 bytes, and a session id may be
longer (an id made of a URL, a tenant and a ticket)."""


def result_name(session_id: str) -> str:
    """The file name stem of a session's result: its id with unsafe characters replaced, and an
    id too long for a file name cut short and told apart by a digest of the whole id."""
    name = _UNSAFE.sub("_", session_id).strip("._") or "session"
    if len(name) <= _NAME_CHARS:
        return name
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{name[: _NAME_CHARS - 17]}-{digest}"


def write_result(out: Path, session: AnySession, result: SummaryResult) -> list[Path]:
    """``<session id>.json`` (the result, with its record or its problems) and, for a delivered
    record, ``<session id>.md`` (its digest) in ``out`` (see :func:`result_name`)."""
    name = result_name(_id(session))
    written = [out / f"{name}.json"]
    written[0].write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    if result.record is not None:
        events: Session | Sequence[Event] = (
            session.events if isinstance(session, ImportedSession) else session
        )
        digest = render_digest(result.record, events, title=f"Session {_id(session)}")
        written.append(out / f"{name}.md")
        written[1].write_text(digest, encoding="utf-8")
    return written


def evaluate(
    name: str, results: Sequence[SummaryResult], sessions: Sequence[AnySession], label: str
) -> EvalReport:
    """Score each result against its session's meta."""
    scores = [
        score_session(r, _meta(s), [(c.name, c.args) for e in s.events for c in e.function_calls()])
        for r, s in zip(results, sessions, strict=True)
    ]
    return aggregate(name, label, scores)


def load_jsonl(path: Path) -> list[ImportedSession]:
    """The sessions of a JSON Lines file, or a usage error saying which line is wrong."""
    try:
        return load_jsonl_sessions(path)
    except (ValueError, OSError) as exc:
        raise typer.BadParameter(f"{path}: {exc}") from None
