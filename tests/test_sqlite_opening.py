"""Several processes opening one new SQLite file at once: every one of them opens it.

SQLite refuses one of several connections switching a new file to WAL at the same moment
("database is locked") without waiting for its busy timeout; the store tries again.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agentlog._stores.sqlite import execute_when_free

PROCESSES = 6
ROUNDS = 8


def _open(path: str, barrier: Any) -> str:
    from agentlog.sessions.sqlite import SqliteSessionService

    barrier.wait()
    try:
        service = SqliteSessionService(path)
    except Exception as exc:  # the test reports what each process met
        return repr(exc)
    asyncio.run(service.close())
    return "ok"


@pytest.mark.slow
def test_processes_opening_a_new_file_at_once_all_open_it(tmp_path: Path) -> None:
    # Each round is a new file opened by six processes released together; before the retry,
    # about one round in three had a process refused.
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(PROCESSES) as pool:
        for round_ in range(ROUNDS):
            barrier = manager.Barrier(PROCESSES)
            path = str(tmp_path / f"round-{round_}.db")
            outcomes = pool.starmap(_open, [(path, barrier)] * PROCESSES, chunksize=1)
            assert outcomes == ["ok"] * PROCESSES


class _Refusing:
    """A connection refusing ``refusals`` times as SQLite does when the file is busy."""

    def __init__(self, refusals: int, code: int = sqlite3.SQLITE_BUSY) -> None:
        self.refusals, self.code, self.calls = refusals, code, 0

    def execute(self, statement: str) -> None:
        self.calls += 1
        if self.calls <= self.refusals:
            exc = sqlite3.OperationalError("database is locked")
            exc.sqlite_errorcode = self.code
            raise exc


def test_a_busy_statement_is_tried_again_until_it_runs() -> None:
    conn = _Refusing(refusals=3)
    execute_when_free(conn, "PRAGMA journal_mode=WAL", timeout=5.0)  # type: ignore[arg-type]
    assert conn.calls == 4


def test_a_file_busy_past_the_timeout_raises_and_other_errors_raise_at_once() -> None:
    with pytest.raises(sqlite3.OperationalError):
        execute_when_free(_Refusing(refusals=10**6), "PRAGMA x", timeout=0.05)  # type: ignore[arg-type]
    other = _Refusing(refusals=1, code=sqlite3.SQLITE_CORRUPT)
    with pytest.raises(sqlite3.OperationalError):
        execute_when_free(other, "PRAGMA x", timeout=5.0)  # type: ignore[arg-type]
    assert other.calls == 1
