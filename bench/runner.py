"""Per-turn framework cost over one long session: agentlog's runner beside google-adk's.

Run from the repository root with the bench venv (``bash bench/setup.sh`` makes it)::

    .venv-bench/bin/python -m bench.runner [--turns 1000] [--no-adk]

One session of ``--turns`` turns, each the same script: the user asks about an order, the model
calls ``lookup_order``, the tool answers, the model answers (two model calls, four stored
events). The model is a canned one that builds its response and returns at once, no usage
estimation; the time spent inside it is measured and taken off. No compaction: every turn sends
the whole history, so the characters sent grow with the session and are printed beside the
times. Configurations, one after another in one process:

- agentlog ``Runner`` on ``InMemorySessionService``;
- agentlog ``Runner`` on ``SqliteSessionService`` (its durable default: WAL, ``synchronous=FULL``),
  on a fresh file under ``bench/.work/`` removed afterwards, with its decoded-event cache (the
  default) and without (``cache_events=0``: every turn decodes the whole session);
- google-adk's ``Runner`` on its ``InMemorySessionService`` with the same canned model
  (a google-adk ``BaseLlm``).

Framework time of a turn: the wall time of reading its ``run_async`` stream to the end, minus
the time spent inside the model. Reported at each checkpoint turn N as the median over turns
N-4..N (``--window``), so one garbage-collection pause does not stand for the turn.

Progress goes to stderr, the tables to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import statistics
import sys
import time
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bench.compaction import (
    INSTRUCTION,
    adk_chars,
    agentlog_chars,
    answer,
    log,
    lookup_order,
    order_in,
    question,
)

CHECKPOINTS: Final = (10, 100, 300, 500, 1_000)
TARGET_MS: Final = 2.0
WORKDIR: Final = Path(__file__).resolve().parent / ".work"


@dataclass
class Stats:
    """What one configuration measured."""

    name: str
    seconds: list[float] = field(default_factory=list)
    """Framework time of each turn."""
    chars: dict[int, int] = field(default_factory=dict)
    """Characters sent to the model in a turn (both calls), at the measured turns."""
    model_seconds: float = 0.0
    turn_chars: int = 0
    count_chars: bool = False

    def start_turn(self, count_chars: bool) -> None:
        self.model_seconds = 0.0
        self.turn_chars = 0
        self.count_chars = count_chars

    def end_turn(self, turn: int, wall: float) -> None:
        self.seconds.append(wall - self.model_seconds)
        if self.count_chars:
            self.chars[turn] = self.turn_chars

    def ms_at(self, turn: int, window: int) -> float:
        """Median framework time over the ``window`` turns ending at ``turn``, in ms."""
        return statistics.median(self.seconds[max(0, turn - window) : turn]) * 1000


# --- agentlog ------------------------------------------------------------------------------------


class AgentlogCanned:
    """agentlog's ``BaseLlm``: a call for a question, an answer for a tool result."""

    def __init__(self, stats: Stats) -> None:
        from agentlog import Usage

        self.stats = stats
        self.usage = Usage(input_tokens=1, output_tokens=1)
        self.calls = 0

    @property
    def model(self) -> str:
        return "canned"

    async def generate(self, request: Any, *, stream: bool = False) -> AsyncIterator[Any]:
        from agentlog import Content, Part
        from agentlog.models.base import LlmResponse

        started = time.perf_counter()
        if self.stats.count_chars:
            self.stats.turn_chars += agentlog_chars(request)
        last = request.contents[-1].parts[-1]
        if last.function_response is not None:
            order = str(last.function_response.response.get("order_id"))
            content = Content(role="model", parts=(Part(text=answer(order)),))
        else:
            self.calls += 1
            call = Part.from_function_call(
                "lookup_order", {"order_id": order_in(last.text or "")}, f"call-{self.calls}"
            )
            content = Content(role="model", parts=(call,))
        response = LlmResponse(content=content, usage=self.usage, model="canned")
        self.stats.model_seconds += time.perf_counter() - started
        yield response


async def run_agentlog(stats: Stats, store: Any, turns: int, measured: set[int]) -> Stats:
    from agentlog import Content
    from agentlog.agents import LlmAgent
    from agentlog.runner import Runner

    agent = LlmAgent(
        name="desk", model=AgentlogCanned(stats), instruction=INSTRUCTION, tools=[lookup_order]
    )
    runner = Runner(agent=agent, session_service=store, app_name="bench")
    session = await store.create_session(app_name="bench", user_id="u")
    events = 0
    for n in range(1, turns + 1):
        stats.start_turn(n in measured)
        message = Content.from_text(question(n))
        started = time.perf_counter()
        async for event in runner.run_async(
            user_id="u", session_id=session.id, new_message=message
        ):
            events += 1
            if event.error_code is not None:
                raise RuntimeError(f"turn {n} failed: {event.error_message}")
        stats.end_turn(n, time.perf_counter() - started)
        if n % 100 == 0:
            log(f"{stats.name}: {n} turns, last {stats.seconds[-1] * 1000:.2f} ms")
    if events != 4 * turns:
        raise RuntimeError(f"{stats.name}: {events} events for {turns} turns, expected 4 a turn")
    await store.close()
    return stats


# --- google-adk ----------------------------------------------------------------------------------


def adk_model(stats: Stats) -> Any:
    from google.adk.models import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.genai import types

    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=1, candidates_token_count=1
    )
    calls = [0]

    class AdkCanned(BaseLlm):  # type: ignore[misc]
        model: str = "canned"

        async def generate_content_async(
            self, llm_request: Any, stream: bool = False
        ) -> AsyncIterator[Any]:
            started = time.perf_counter()
            if stats.count_chars:
                stats.turn_chars += adk_chars(llm_request)
            last = llm_request.contents[-1].parts[-1]
            if last.function_response is not None:
                order = str((last.function_response.response or {}).get("order_id"))
                parts = [types.Part(text=answer(order))]
            else:
                calls[0] += 1
                call = types.FunctionCall(
                    id=f"call-{calls[0]}",
                    name="lookup_order",
                    args={"order_id": order_in(last.text or "")},
                )
                parts = [types.Part(function_call=call)]
            response = LlmResponse(
                content=types.Content(role="model", parts=parts), usage_metadata=usage
            )
            stats.model_seconds += time.perf_counter() - started
            yield response

    return AdkCanned()


async def run_adk(stats: Stats, turns: int, measured: set[int]) -> Stats:
    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]", category=UserWarning)
    store = InMemorySessionService()
    agent = LlmAgent(
        name="desk", model=adk_model(stats), instruction=INSTRUCTION, tools=[lookup_order]
    )
    runner = Runner(app=App(name="bench", root_agent=agent), session_service=store)
    session = await store.create_session(app_name="bench", user_id="u")
    events = 0
    for n in range(1, turns + 1):
        stats.start_turn(n in measured)
        message = types.Content(role="user", parts=[types.Part(text=question(n))])
        started = time.perf_counter()
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            events += 1
        stats.end_turn(n, time.perf_counter() - started)
        if n % 100 == 0:
            log(f"{stats.name}: {n} turns, last {stats.seconds[-1] * 1000:.2f} ms")
    await runner.close()
    # google-adk yields the three events after the user's message (which it stores unyielded).
    if events != 3 * turns:
        raise RuntimeError(f"{stats.name}: {events} events for {turns} turns, expected 3 a turn")
    return stats


# --- report --------------------------------------------------------------------------------------


def report(results: list[Stats], checkpoints: list[int], window: int) -> bool:
    """Print the tables and the target; whether the target was met."""
    width = 22
    head = f"{'turn':>6}" + "".join(f" | {s.name:^{width}}" for s in results)
    sub = " " * 6 + f" | {'ms':>9} {'chars sent':>12}" * len(results)
    print(head)
    print(sub)
    print("-" * len(sub))
    for turn in checkpoints:
        line = f"{turn:>6,}"
        for stats in results:
            if turn <= len(stats.seconds):
                line += f" | {stats.ms_at(turn, window):>9.3f} {stats.chars[turn]:>12,}"
            else:
                line += f" | {'-':>9} {'-':>12}"
        print(line)
    print()
    print(
        f"ms: framework time of a turn (its stream read to the end, minus the model's time), "
        f"median of turns N-{window - 1}..N. chars sent: instruction plus every text, function "
        "call and function response in the turn's two model requests (at turn N)."
    )
    print()
    first = checkpoints[0]
    print(f"Growth after turn {first}: extra ms per turn for each 100,000 extra characters sent")
    print(f"{'turn':>6}" + "".join(f" | {s.name:^{width}}" for s in results))
    for turn in checkpoints[1:]:
        line = f"{turn:>6,}"
        for stats in results:
            if turn <= len(stats.seconds):
                extra_ms = stats.ms_at(turn, window) - stats.ms_at(first, window)
                extra_chars = stats.chars[turn] - stats.chars[first]
                line += f" | {extra_ms / extra_chars * 100_000:>{width}.3f}"
            else:
                line += f" | {'-':>{width}}"
        print(line)
    print(
        "A flat column: the cost grows in proportion to the history sent; a rising one: "
        "faster than it."
    )
    print()
    ok = True
    memory = next((s for s in results if s.name == "agentlog memory"), None)
    last = checkpoints[-1]
    if memory is not None and last <= len(memory.seconds):
        window_values = memory.seconds[last - window : last]
        median_ms = statistics.median(window_values) * 1000
        mean_ms = statistics.fmean(window_values) * 1000
        ok = median_ms <= TARGET_MS
        print(
            f"target: agentlog memory, framework time at turn {last:,}: median {median_ms:.3f} ms "
            f"(mean {mean_ms:.3f}) over turns {last - window + 1:,}-{last:,} "
            f"(at most {TARGET_MS:g} ms): {'met' if ok else 'MISSED'}"
        )
    return ok


async def main_async(args: argparse.Namespace) -> int:
    from agentlog import InMemorySessionService, SqliteSessionService

    checkpoints = [c for c in CHECKPOINTS if c <= args.turns]
    if args.turns not in checkpoints:
        checkpoints.append(args.turns)
    measured = set(checkpoints)
    run_dir = WORKDIR / f"runner-{os.getpid()}"
    runs: list[tuple[str, Callable[[Stats], Awaitable[Stats]]]] = [
        (
            "agentlog memory",
            lambda s: run_agentlog(s, InMemorySessionService(), args.turns, measured),
        ),
        (
            "agentlog SQLite",
            lambda s: run_agentlog(
                s, SqliteSessionService(run_dir / "runner.db"), args.turns, measured
            ),
        ),
        (
            "agentlog SQLite uncached",
            lambda s: run_agentlog(
                s,
                SqliteSessionService(run_dir / "uncached.db", cache_events=0),
                args.turns,
                measured,
            ),
        ),
    ]
    if not args.no_adk:
        runs.append(("google-adk memory", lambda s: run_adk(s, args.adk_turns, measured)))
    if args.only:
        runs = [r for r in runs if any(o.lower() in r[0].lower() for o in args.only.split(","))]
    results: list[Stats] = []
    try:
        for name, run in runs:
            gc.collect()
            log(f"{name}: start")
            try:
                results.append(await run(Stats(name)))
            except ImportError as exc:
                log(
                    f"{name}: skipped, {exc} (run with .venv-bench/bin/python; see bench/README.md)"
                )
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    return 0 if report(results, checkpoints, args.window) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=1_000, help="turns in the session (1000)")
    parser.add_argument(
        "--adk-turns", type=int, default=None, help="turns for google-adk (default: --turns)"
    )
    parser.add_argument("--window", type=int, default=5, help="turns in each median (5)")
    parser.add_argument("--no-adk", action="store_true", help="skip google-adk")
    parser.add_argument("--only", help="only configurations whose name contains one of a,b")
    args = parser.parse_args()
    args.adk_turns = args.turns if args.adk_turns is None else args.adk_turns
    if args.turns < CHECKPOINTS[0] or args.window < 1 or args.window > CHECKPOINTS[0]:
        parser.error(f"--turns must be at least {CHECKPOINTS[0]}, --window 1..{CHECKPOINTS[0]}")
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
