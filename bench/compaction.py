"""Compaction over a long session: agentlog with and without it, and google-adk with its own.

Run from the repository root with the bench venv (``bash bench/setup.sh`` makes it)::

    .venv-bench/bin/python -m bench.compaction [--invocations 1000] [--no-adk]

One session of ``--invocations`` turns on an in-memory store, each turn the same script: the
user asks about an order, the model calls ``lookup_order``, the tool answers, the model
answers. Compaction every 5 invocations with an overlap of 1; the summariser is a scripted
model too, answering a summary of fixed size. Per block of 100 invocations it prints the mean
per turn of:

- events loaded: events returned by every ``get_session`` the framework made for the turn
  (for agentlog, the compaction's read of the overlap included);
- characters sent: system instruction plus every text, function call (name and JSON args) and
  function response (name and JSON body) in the turn's model requests;
- framework time: the turn's wall time (its stream read to the end, and its compaction) minus
  the time spent inside the scripted models.

Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import re
import statistics
import sys
import time
import warnings
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Final

INTERVAL: Final = 5
OVERLAP: Final = 1
INSTRUCTION: Final = "You answer questions about orders. Use lookup_order to find an order."
SUMMARY: Final = (
    "Conversation language: English. The user has been asking about the status of a series "
    "of orders, one at a time. For each, the agent called lookup_order and reported the "
    "status, carrier and estimated delivery; every order looked up so far has shipped with "
    "DHL and arrives within three days. No refunds, complaints or open questions."
)

_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, to stderr."""
    print(f"[{time.perf_counter() - _T0:7.1f}s] {message}", file=sys.stderr, flush=True)


# --- the script ----------------------------------------------------------------------------------


def question(n: int) -> str:
    return f"Where is order A-{10_000 + n}? I ordered it last week and need it soon."


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order by its id."""
    return {"order_id": order_id, "status": "shipped", "carrier": "DHL", "eta_days": 3}


def answer(order_id: str) -> str:
    return f"Order {order_id} has shipped with DHL and should arrive within three days."


def order_in(text: str) -> str:
    found = re.findall(r"A-\d+", text)
    return found[-1] if found else "A-0"


@dataclass
class Stats:
    """What one configuration measured, per turn."""

    name: str
    loaded: list[int] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    turn_loaded: int = 0
    turn_chars: int = 0
    model_seconds: float = 0.0
    summaries_in_prompt: int = 0
    """Summaries in the last model request."""
    compactions: int = 0
    """Compaction events stored by the end."""

    def start_turn(self) -> None:
        self.turn_loaded = self.turn_chars = 0
        self.model_seconds = 0.0

    def end_turn(self, wall: float) -> None:
        self.loaded.append(self.turn_loaded)
        self.chars.append(self.turn_chars)
        self.seconds.append(wall - self.model_seconds)


def _json_len(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


# --- agentlog ------------------------------------------------------------------------------------


class AgentlogScripted:
    """agentlog's ``BaseLlm``: the turn's script as a function of the request."""

    def __init__(self, stats: Stats, *, summarizer: bool = False) -> None:
        self.stats = stats
        self.summarizer = summarizer

    @property
    def model(self) -> str:
        return "scripted"

    async def generate(self, request: Any, *, stream: bool = False) -> AsyncIterator[Any]:
        from agentlog import Content, Part, Usage
        from agentlog.models.base import LlmResponse

        started = time.perf_counter()
        if not self.summarizer:
            self.stats.turn_chars += agentlog_chars(request)
            self.stats.summaries_in_prompt = sum(
                (p.text or "").startswith("[Summary of earlier conversation]")
                for c in request.contents
                for p in c.parts
            )
        last = request.contents[-1].parts[-1]
        if self.summarizer:
            content = Content.from_text(SUMMARY, role="model")
        elif last.function_response is not None:
            order = str(last.function_response.response.get("order_id"))
            content = Content.from_text(answer(order), role="model")
        else:
            order = order_in(last.text or "")
            content = Content(
                role="model",
                parts=(Part.from_function_call("lookup_order", {"order_id": order}, f"c-{order}"),),
            )
        response = LlmResponse(content=content, usage=Usage(input_tokens=1, output_tokens=1))
        self.stats.model_seconds += time.perf_counter() - started
        yield response


def agentlog_chars(request: Any) -> int:
    total = len(request.system_instruction)
    for content in request.contents:
        for part in content.parts:
            if part.text is not None:
                total += len(part.text)
            elif part.function_call is not None:
                call = part.function_call
                total += len(call.name) + _json_len(dict(call.args))
            elif part.function_response is not None:
                response = part.function_response
                total += len(response.name) + _json_len(dict(response.response))
    return total


async def run_agentlog(invocations: int, *, compaction: bool) -> Stats:
    from agentlog import Content, InMemorySessionService
    from agentlog.agents import LlmAgent
    from agentlog.compaction import EventsCompactionConfig, LlmEventSummarizer
    from agentlog.runner import Runner

    stats = Stats("agentlog, compaction" if compaction else "agentlog, no compaction")
    store = InMemorySessionService()
    real_get = store.get_session

    async def counting_get(**kwargs: Any) -> Any:
        session = await real_get(**kwargs)
        stats.turn_loaded += len(session.events)
        return session

    store.get_session = counting_get  # type: ignore[method-assign]
    config = None
    if compaction:
        summarizer = LlmEventSummarizer(AgentlogScripted(stats, summarizer=True))
        config = EventsCompactionConfig(INTERVAL, OVERLAP, summarizer)
    agent = LlmAgent(
        name="desk", model=AgentlogScripted(stats), instruction=INSTRUCTION, tools=[lookup_order]
    )
    runner = Runner(agent=agent, session_service=store, app_name="bench", compaction_config=config)
    session = await store.create_session(app_name="bench", user_id="u")
    for n in range(1, invocations + 1):
        stats.start_turn()
        message = Content.from_text(question(n))
        started = time.perf_counter()
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
        await runner.wait_for_compactions()
        stats.end_turn(time.perf_counter() - started)
        if n % 100 == 0:
            log(f"{stats.name}: {n} invocations")
    final = await real_get(app_name="bench", user_id="u", session_id=session.id)
    stats.compactions = sum(e.actions.compaction is not None for e in final.events)
    return stats


# --- google-adk ----------------------------------------------------------------------------------


def adk_chars(request: Any) -> int:
    config = request.config
    instruction = config.system_instruction if config is not None else None
    total = len(instruction) if isinstance(instruction, str) else 0
    if instruction is not None and not isinstance(instruction, str):
        total += sum(len(p.text or "") for p in instruction.parts or ())
    for content in request.contents:
        for part in content.parts or ():
            if part.text:
                total += len(part.text)
            if part.function_call:
                total += len(part.function_call.name or "") + _json_len(part.function_call.args)
            if part.function_response:
                fr = part.function_response
                total += len(fr.name or "") + _json_len(fr.response)
    return total


def adk_model(stats: Stats, *, summarizer: bool) -> Any:
    from google.adk.models import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.genai import types

    class AdkScripted(BaseLlm):  # type: ignore[misc]
        model: str = "scripted"

        async def generate_content_async(
            self, llm_request: Any, stream: bool = False
        ) -> AsyncIterator[Any]:
            started = time.perf_counter()
            if not summarizer:
                stats.turn_chars += adk_chars(llm_request)
                stats.summaries_in_prompt = sum(
                    p.text == SUMMARY for c in llm_request.contents for p in c.parts or ()
                )
            last = llm_request.contents[-1].parts[-1]
            if summarizer:
                parts = [types.Part(text=SUMMARY)]
            elif last.function_response is not None:
                order = str((last.function_response.response or {}).get("order_id"))
                parts = [types.Part(text=answer(order))]
            else:
                order = order_in(last.text or "")
                call = types.FunctionCall(
                    id=f"c-{order}", name="lookup_order", args={"order_id": order}
                )
                parts = [types.Part(function_call=call)]
            usage = types.GenerateContentResponseUsageMetadata(
                prompt_token_count=1, candidates_token_count=1
            )
            response = LlmResponse(
                content=types.Content(role="model", parts=parts), usage_metadata=usage
            )
            stats.model_seconds += time.perf_counter() - started
            yield response

    return AdkScripted()


async def run_adk(invocations: int) -> Stats:
    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.apps.app import EventsCompactionConfig
    from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]", category=UserWarning)
    stats = Stats("google-adk, compaction")
    store = InMemorySessionService()
    real_get = store.get_session

    async def counting_get(**kwargs: Any) -> Any:
        session = await real_get(**kwargs)
        if session is not None:
            stats.turn_loaded += len(session.events)
        return session

    store.get_session = counting_get  # type: ignore[method-assign]
    agent = LlmAgent(
        name="desk",
        model=adk_model(stats, summarizer=False),
        instruction=INSTRUCTION,
        tools=[lookup_order],
    )
    config = EventsCompactionConfig(
        compaction_interval=INTERVAL,
        overlap_size=OVERLAP,
        summarizer=LlmEventSummarizer(llm=adk_model(stats, summarizer=True)),
    )
    app = App(name="bench", root_agent=agent, events_compaction_config=config)
    runner = Runner(app=app, session_service=store)
    session = await store.create_session(app_name="bench", user_id="u")
    for n in range(1, invocations + 1):
        stats.start_turn()
        message = types.Content(role="user", parts=[types.Part(text=question(n))])
        started = time.perf_counter()
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
        stats.end_turn(time.perf_counter() - started)
        if n % 100 == 0:
            log(f"{stats.name}: {n} invocations")
    await runner.close()
    final = await real_get(app_name="bench", user_id="u", session_id=session.id)
    stats.compactions = sum(bool(e.actions and e.actions.compaction) for e in final.events)
    return stats


# --- report --------------------------------------------------------------------------------------


def block(values: list[Any], end: int, size: int) -> float:
    return statistics.fmean(values[max(0, end - size) : end])


def report(results: list[Stats], invocations: int, size: int) -> bool:
    """Print the table and the targets; whether every target was met."""
    head = f"{'invocations':>12}"
    for stats in results:
        head += f" | {stats.name:^34}"
    sub = " " * 12 + f" | {'loaded':>8} {'chars':>11} {'ms':>11}" * len(results)
    print(head)
    print(sub)
    print("-" * len(sub))
    for end in range(size, invocations + 1, size):
        line = f"{end - size + 1:>5}-{end:<6}"
        for stats in results:
            loaded = block(stats.loaded, end, size)
            chars = block(stats.chars, end, size)
            ms = block(stats.seconds, end, size) * 1000
            line += f" | {loaded:>8.1f} {chars:>11,.0f} {ms:>11.3f}"
        print(line)
    print()
    print("Each cell: the mean per turn over that block of invocations.")
    for stats in results:
        print(
            f"{stats.name}: {stats.compactions} compaction events stored; the last model "
            f"request held {stats.summaries_in_prompt} summaries"
        )
    ok = True
    compacted = next(s for s in results if s.name == "agentlog, compaction")
    last = (invocations // size) * size
    for what, values in (("events loaded", compacted.loaded), ("characters sent", compacted.chars)):
        first, final = block(values, size, size), block(values, last, size)
        change = abs(final - first) / first
        met = change <= 0.20
        ok &= met
        print(
            f"target: agentlog with compaction, {what} per turn flat: {first:,.1f} at "
            f"1-{size}, {final:,.1f} at {last - size + 1}-{last}, {change:.1%} apart "
            f"(within 20%): {'met' if met else 'MISSED'}"
        )
    ms = block(compacted.seconds, last, size) * 1000
    p50 = statistics.median(compacted.seconds[last - size : last]) * 1000
    met = ms <= 2.0
    ok &= met
    print(
        f"target: agentlog with compaction, framework time per turn at {last - size + 1}-{last}: "
        f"mean {ms:.3f} ms, median {p50:.3f} ms (at most 2 ms): {'met' if met else 'MISSED'}"
    )
    return ok


async def main_async(args: argparse.Namespace) -> int:
    results: list[Stats] = []
    runs: list[tuple[str, Callable[[], Any]]] = [
        ("agentlog, compaction", lambda: run_agentlog(args.invocations, compaction=True)),
        ("agentlog, no compaction", lambda: run_agentlog(args.invocations, compaction=False)),
    ]
    if not args.no_adk:
        runs.append(("google-adk, compaction", lambda: run_adk(args.invocations)))
    for name, make in runs:
        gc.collect()
        log(f"{name}: start")
        try:
            results.append(await make())
        except ImportError as exc:
            log(f"{name}: skipped, {exc} (run with .venv-bench/bin/python; see bench/README.md)")
    return 0 if report(results, args.invocations, args.block) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--invocations", type=int, default=1_000, help="turns in the session")
    parser.add_argument("--block", type=int, default=100, help="invocations per table row")
    parser.add_argument("--no-adk", action="store_true", help="skip google-adk")
    args = parser.parse_args()
    if args.invocations < args.block:
        parser.error("--invocations must be at least --block")
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
