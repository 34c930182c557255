"""Summarisers for the worker processes of ``test_jobs.py``, loaded by ``agentlog worker
--summarizer jobs_support:...`` (the tests put this folder on ``PYTHONPATH``).

Each call appends ``start <session> <version> <pid>`` to the file named by
``AGENTLOG_TEST_JOBS_LOG`` and ``done ...`` when it returns, so a test counts the calls of every
process. ``GatedSummarizer`` also waits, between the two, for the file named by
``AGENTLOG_TEST_JOBS_GATE`` to exist: a job the test holds open, to kill its worker mid-job.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from agentlog.summary import ExtractiveSummarizer, SummaryInput, SummaryResult
from agentlog.summary.record.result import events_of

GATE_WAIT_S = 120.0
"""The longest a gated call waits; a test that never opens the gate fails, it does not hang."""


def _log(what: str, session: SummaryInput) -> None:
    events, session_id = events_of(session)
    line = f"{what} {session_id} {len(events)} {os.getpid()}\n"
    # One short O_APPEND write per line: lines from several processes never interleave.
    fd = os.open(os.environ["AGENTLOG_TEST_JOBS_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


class CountingSummarizer:
    """The extractive summariser, logging each call."""

    def __init__(self) -> None:
        self.inner = ExtractiveSummarizer()

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        _log("start", session)
        result = await self.inner.summarize(session)
        _log("done", session)
        return result


class GatedSummarizer(CountingSummarizer):
    """Logs its start, then waits for the gate file before summarising."""

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        _log("start", session)
        gate = Path(os.environ["AGENTLOG_TEST_JOBS_GATE"])
        for _ in range(int(GATE_WAIT_S / 0.05)):
            if await asyncio.to_thread(gate.exists):
                break
            await asyncio.sleep(0.05)
        else:
            raise TimeoutError(f"the gate {gate} never opened")
        result = await self.inner.summarize(session)
        _log("done", session)
        return result


class FailingSummarizer:
    """Always raises, logging each attempt."""

    async def summarize(self, session: SummaryInput) -> SummaryResult:
        _log("start", session)
        raise RuntimeError("model host unreachable")
