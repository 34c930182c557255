"""``agentlog demo``: the refund desk end to end in the terminal.

The customer's messages, the routed stream (drafts replaced in place, tool calls and results,
the approval request), the approval, the resumed turn, the state and log as stored, and the
checked handoff record (the desk and its scripted models are :mod:`agentlog.demo`'s).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from agentlog.compaction import EventsCompactionConfig, LlmEventSummarizer
from agentlog.demo.handoff import CLOSING_QUESTION, scripted_compactor, scripted_summarizer
from agentlog.demo.refund_desk import CUSTOMER_TURNS, build_desk, scripted_model
from agentlog.events import Content, Event
from agentlog.ids import new_invocation_id
from agentlog.models.base import BaseLlm
from agentlog.models.scripted import ScriptedLlm
from agentlog.router import RoutedMessage, route
from agentlog.run_config import RunConfig, StreamingMode
from agentlog.runner import Runner, confirmation_answer
from agentlog.sessions.sqlite import SqliteSessionService
from agentlog.summary import SummaryService, render_digest

__all__ = ["run_demo"]

APP = "refund_desk"
USER = "customer-42"

Approver = Callable[[RoutedMessage], bool]


class StreamView:
    """Prints routed messages; keeps the current draft in one live line that is replaced."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live: Live | None = None

    def _draft(self, message: RoutedMessage) -> None:
        line = Text.assemble((f"{message.author} (draft) ", "dim"), (message.text, "italic"))
        if self.live is None:
            self.live = Live(line, console=self.console, transient=True, auto_refresh=False)
            self.live.start()
        self.live.update(line, refresh=True)

    def _close_draft(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def show(self, message: RoutedMessage) -> None:
        """Show one routed message."""
        if message.kind == "draft":
            self._draft(message)
            return
        self._close_draft()
        c = self.console
        if message.kind == "tool_call":
            c.print(Text.assemble(("  → ", "cyan"), (message.text, "cyan")))
        elif message.kind == "tool_result":
            c.print(Text.assemble(("  ← ", "green"), (message.text, "green")))
        elif message.kind == "handoff":
            c.print(Text(f"  ⇢ {message.author} hands over to {message.data['to']}", "magenta"))
        elif message.kind == "needs_approval":
            c.print(
                Panel(
                    Text(message.text),
                    title=f"approval needed · request {message.data['request_id']}",
                    border_style="yellow",
                )
            )
        elif message.kind == "answer":
            c.print(Text.assemble((f"{message.author}: ", "bold blue"), message.text))
        elif message.kind == "error":
            c.print(Text(f"  ✗ {message.text}", "bold red"))

    def finish(self) -> None:
        """Close any open draft line."""
        self._close_draft()


async def _turn(
    runner: Runner,
    session_id: str,
    message: Content,
    view: StreamView,
) -> list[RoutedMessage]:
    approvals: list[RoutedMessage] = []
    events: AsyncIterator[Event] = runner.run_async(
        user_id=USER,
        session_id=session_id,
        new_message=message,
        run_config=RunConfig(streaming_mode=StreamingMode.SSE),
    )
    async for event in events:
        if event.author == "user":
            continue
        for routed in route(event):
            view.show(routed)
            if routed.kind == "needs_approval":
                approvals.append(routed)
    view.finish()
    view.console.print(Text("  ── end of turn", "dim"))
    return approvals


async def run_demo(
    db: Path,
    *,
    model: BaseLlm | None = None,
    console: Console | None = None,
    approve: Approver | None = None,
) -> str:
    """Run the refund desk on a SQLite file; return the session id."""
    console = console or Console()
    llm = model or scripted_model()
    compactor = model or scripted_compactor()
    store = SqliteSessionService(db)
    runner = Runner(
        agent=build_desk(llm),
        session_service=store,
        app_name=APP,
        compaction_config=EventsCompactionConfig(
            compaction_interval=2, overlap_size=0, summarizer=LlmEventSummarizer(compactor)
        ),
    )
    try:
        session = await store.create_session(app_name=APP, user_id=USER)
        console.print(
            Panel(
                Text.assemble(
                    "The refund desk: desk → refund_flow (policy_check, refunds)\n",
                    (f"model: {llm.model} · store: {db} · session {session.id}", "dim"),
                ),
                title="agentlog demo",
                border_style="blue",
            )
        )
        view = StreamView(console)
        for text in CUSTOMER_TURNS:
            console.print(Text.assemble(("\ncustomer: ", "bold"), text))
            pending = await _turn(runner, session.id, Content.from_text(text), view)
            while pending:
                request = pending.pop(0)
                yes = approve(request) if approve is not None else True
                verdict = "approves" if yes else "declines"
                console.print(
                    Text(
                        f"\noperator {verdict} request {request.data['request_id']}", "bold yellow"
                    )
                )
                answer = confirmation_answer(str(request.data["request_id"]), yes)
                pending.extend(await _turn(runner, session.id, answer, view))
            await runner.wait_for_compactions()
        stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
        show_compaction(console, stored.events)

        # The seed's ending: one more question arrives as the chat closes, so no turn runs.
        console.print(
            Text.assemble(
                ("\ncustomer: ", "bold"),
                CLOSING_QUESTION,
                (" (the chat closes before the desk answers)", "dim"),
            )
        )
        closing = Event(
            invocation_id=new_invocation_id(),
            author="user",
            content=Content.from_text(CLOSING_QUESTION),
        )
        stored = await store.append_event(stored, closing)
        console.print(_state_table(stored.state))
        console.print(_log_table(stored.events))
        await show_handoff(console, stored.events, session.id, model)
        for scripted in (llm, compactor):
            if isinstance(scripted, ScriptedLlm):
                scripted.verify()
        return session.id
    finally:
        await store.close()


def _state_table(state: Any) -> Table:
    table = Table(title="session state, as stored", title_justify="left")
    table.add_column("key", style="bold")
    table.add_column("value")
    for key, value in state.items():
        table.add_row(key, json.dumps(value, ensure_ascii=False))
    return table


def _log_table(events: tuple[Event, ...]) -> Group:
    table = Table(title=f"the log: {len(events)} stored events", title_justify="left")
    for column in ("event id", "invocation", "author", "what"):
        table.add_column(column, overflow="fold")
    for event in events:
        what: list[str] = ["message"] if event.author == "user" else [m.kind for m in route(event)]
        if event.actions.state_delta:
            what.append("state: " + ", ".join(event.actions.state_delta))
        table.add_row(event.id, event.invocation_id[-8:], event.author, "; ".join(what))
    return Group(table)


def show_compaction(console: Console, events: tuple[Event, ...]) -> None:
    """Print the compaction events among ``events``."""
    for event in events:
        compaction = event.actions.compaction
        if compaction is None:
            continue
        summary = "".join(p.text or "" for p in compaction.summary.parts)
        console.print(
            Panel(
                Text(summary),
                title=f"compaction {event.id}: {len(compaction.event_ids)} events summarised",
                subtitle="later model calls see this summary, then the events after it",
                border_style="magenta",
            )
        )


async def show_handoff(
    console: Console, events: tuple[Event, ...], session_id: str, model: BaseLlm | None
) -> None:
    """Summarise the session with the checked summary agent and print each attempt."""
    summarizer = model or scripted_summarizer()
    service = SummaryService(summarizer)
    result = await service.summarize(events)
    for attempt, problems in enumerate(result.problems, start=1):
        if problems:
            listed = "\n".join(f"✗ {p}" for p in problems)
            console.print(
                Panel(
                    Text(listed, "red"),
                    title=f"summary attempt {attempt}: rejected",
                    border_style="red",
                )
            )
        else:
            console.print(Text(f"summary attempt {attempt}: every check passed", "bold green"))
    if result.record is None:
        console.print(Text("No summary delivered: a human reads the transcript instead.", "red"))
        return
    digest = render_digest(result.record, events, title=f"Handoff for session {session_id}")
    console.print(Panel(Markdown(digest), title="the checked handoff record", border_style="green"))
    if isinstance(summarizer, ScriptedLlm):
        summarizer.verify()
