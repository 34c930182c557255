"""Background summaries on the job queue, with real processes on one PostgreSQL schema:
``agentlog worker`` processes (one killed mid-job), ``agentlog serve`` processes that only
enqueue, and what a failing job leaves behind.

Every wait is a bounded loop; nothing asserts how long anything took.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _postgres import execute
from server_support import ANA_KEY, auth, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

TESTS = Path(__file__).parent
WAIT_S = 90.0
APP, USER = "agentlog", "ana"
CLI = [sys.executable, "-c", "from agentlog.cli import main; main()"]


def in_schema(dsn: str, schema: str) -> str:
    """``dsn`` with ``search_path`` set to ``schema``, as a process started by hand gets it."""
    return f"{dsn}{'&' if '?' in dsn else '?'}options=-csearch_path%3D{schema}"


class Processes:
    """The processes a test starts; every one is ended when the test is done."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[subprocess.Popen[bytes]] = []
        self.log = tmp_path / "calls.log"
        self.gate = tmp_path / "gate"

    def start(self, *args: str, name: str) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
            "AGENTLOG_TEST_JOBS_LOG": str(self.log),
            "AGENTLOG_TEST_JOBS_GATE": str(self.gate),
        }
        out = (self.tmp_path / f"{name}.out").open("wb")
        process = subprocess.Popen(
            [*CLI, *args], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=self.tmp_path
        )
        self.started.append(process)
        return process

    def worker(self, db: str, summarizer: str, name: str) -> subprocess.Popen[bytes]:
        return self.start(
            "worker", "--db", db, "--summarizer", summarizer, "--name", name,
            "--heartbeat", "0.2", "--stalled-after", "1.5", "--retry-backoff", "0",
            name=name,
        )  # fmt: skip

    def server(self, db: str, port: int, name: str) -> subprocess.Popen[bytes]:
        return self.start(
            "serve", "--db", db, "--port", str(port), "--api-key", f"{ANA_KEY}=ana",
            "--summarize-idle-after", "0",
            name=name,
        )  # fmt: skip

    def output(self, name: str) -> str:
        return (self.tmp_path / f"{name}.out").read_text(errors="replace")

    def stop(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)

    def calls(self, what: str = "start") -> list[tuple[str, int, int]]:
        """The summariser calls logged so far: (session id, version, pid)."""
        if not self.log.exists():
            return []
        rows = [line.split() for line in self.log.read_text().splitlines()]
        return [(sid, int(version), int(pid)) for kind, sid, version, pid in rows if kind == what]


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    yield started
    started.stop()


@pytest.fixture
async def schema(postgres_dsn: str, postgres_schema: str) -> str:
    # Made here: a process whose search_path names a missing schema cannot create its tables.
    from psycopg import sql

    await execute(
        postgres_dsn, "public", sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(postgres_schema))
    )
    return postgres_schema


async def until(check: Callable[[], Awaitable[bool]], what: str, *watch: Any) -> None:
    """Wait for ``check`` (bounded); fail saying ``what`` did not happen."""
    for _ in range(int(WAIT_S / 0.05)):
        if await check():
            return
        for process in watch:
            assert process.poll() is None, f"a process ended while waiting for {what}"
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} did not happen")


async def job_rows(dsn: str, schema: str) -> list[tuple[Any, ...]]:
    return await execute(
        dsn, schema, "SELECT status::text, attempts FROM procrastinate_jobs ORDER BY id"
    )


async def summary_rows(dsn: str, schema: str) -> list[tuple[Any, ...]]:
    return await execute(
        dsn, schema,
        "SELECT session_id, session_version, status FROM agentlog_summaries ORDER BY 1, 2",
    )  # fmt: skip


async def refund_session(dsn: str, schema: str) -> tuple[str, int]:
    from agentlog.sessions.postgres import PostgresSessionService
    from agentlog.summary.example import refund_session_events

    async with PostgresSessionService(dsn, schema=schema) as sessions:
        session = await sessions.create_session(app_name=APP, user_id=USER)
        for event in refund_session_events():
            session = await sessions.append_event(session, event)
        return session.id, session.version


async def test_a_worker_killed_mid_job_the_job_runs_again_and_stores_once(
    postgres_dsn: str, schema: str, procs: Processes
) -> None:
    from agentlog.jobs.queue import JobQueue

    sid, version = await refund_session(postgres_dsn, schema)
    db = in_schema(postgres_dsn, schema)
    first = procs.worker(db, "jobs_support:GatedSummarizer", "first")
    queue = JobQueue(postgres_dsn, schema=schema)
    try:
        for fresh in (True, False):  # the second waits already: refused
            assert (
                await queue.enqueue_summary(
                    app_name=APP, user_id=USER, session_id=sid, version=version
                )
                is fresh
            )

        async def first_started() -> bool:
            return procs.calls() == [(sid, version, first.pid)]

        await until(first_started, "the first worker taking the job", first)
        second = procs.worker(db, "jobs_support:GatedSummarizer", "second")
        first.send_signal(signal.SIGKILL)
        first.wait(15)

        async def second_started() -> bool:
            return len(procs.calls()) == 2

        await until(second_started, "the second worker taking the stalled job", second)
        assert procs.calls()[1] == (sid, version, second.pid)
        procs.gate.touch()

        async def succeeded() -> bool:
            return [s for s, _ in await job_rows(postgres_dsn, schema)] == ["succeeded"]

        await until(succeeded, "the job succeeding", second)
        # A server that saw the session unsummarised just before the job ended defers nothing.
        again = await queue.enqueue_summary(
            app_name=APP, user_id=USER, session_id=sid, version=version
        )
        assert again is False
        assert len(await job_rows(postgres_dsn, schema)) == 1
    finally:
        await queue.close()
    assert await summary_rows(postgres_dsn, schema) == [(sid, version, "ok")]
    assert procs.calls("done") == [(sid, version, second.pid)]
    [(_, attempts)] = await job_rows(postgres_dsn, schema)
    assert attempts == 2  # the killed run counts as an attempt


async def test_summaries_exactly_once_with_two_servers_and_two_workers(
    postgres_dsn: str, schema: str, procs: Processes
) -> None:
    db = in_schema(postgres_dsn, schema)
    ports = [free_port(), free_port()]
    servers = [procs.server(db, port, f"server{n}") for n, port in enumerate(ports)]
    workers = [procs.worker(db, "jobs_support:CountingSummarizer", f"w{n}") for n in range(2)]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    async with httpx.AsyncClient(headers=auth(ANA_KEY), timeout=30) as http:

        async def serving() -> bool:
            for url in urls:
                try:
                    if (await http.get(f"{url}/healthz")).status_code != 200:
                        return False
                except httpx.TransportError:
                    return False
            return True

        await until(serving, "both servers serving", *servers)
        sids: list[str] = []
        for n in range(6):
            created = await http.post(f"{urls[n % 2]}/sessions", json={})
            sid = created.json()["id"]
            turn = await http.post(
                f"{urls[(n + 1) % 2]}/sessions/{sid}/messages",
                json={"text": "Where is my order A-1001?"},
            )
            assert turn.status_code == 200, turn.text
            sids.append(sid)
        finals = {}
        for sid in sids:
            finals[sid] = (await http.get(f"{urls[0]}/sessions/{sid}")).json()["version"]

        async def all_summarised() -> bool:
            rows = await summary_rows(postgres_dsn, schema)
            latest = {sid: (v, status) for sid, v, status in rows}
            if any(latest.get(sid) != (finals[sid], "ok") for sid in sids):
                return False
            jobs = await job_rows(postgres_dsn, schema)
            return all(status == "succeeded" for status, _ in jobs)

        await until(all_summarised, "every session summarised", *servers, *workers)
        for n, sid in enumerate(sids):  # each server reads the shared store
            got = await http.get(f"{urls[n % 2]}/sessions/{sid}/summary")
            assert (got.json()["session_version"], got.json()["status"]) == (finals[sid], "ok")
    calls = [(sid, version) for sid, version, _ in procs.calls()]
    assert len(calls) == len(set(calls)), f"a session version summarised twice: {calls}"
    assert set(finals.items()) <= set(calls)
    assert {pid for _, _, pid in procs.calls()} <= {w.pid for w in workers}  # never a server


async def test_a_failing_job_retries_then_ends_failed_with_the_error_stored(
    postgres_dsn: str, schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentlog.jobs.queue import JobQueue, retry_strategy
    from agentlog.jobs.summaries import SummaryJobServices
    from agentlog.jobs.worker import run_worker
    from agentlog.sessions.postgres import PostgresSessionService
    from agentlog.summary.stores.postgres import PostgresSummaryStore
    from jobs_support import FailingSummarizer

    monkeypatch.setenv("AGENTLOG_TEST_JOBS_LOG", str(tmp_path / "calls.log"))
    sid, version = await refund_session(postgres_dsn, schema)
    queue = JobQueue(postgres_dsn, schema=schema, retry=retry_strategy(2, 0))
    sessions = PostgresSessionService(postgres_dsn, schema=schema)
    store = PostgresSummaryStore(postgres_dsn, schema=schema)
    services = SummaryJobServices(sessions=sessions, store=store, summarizer=FailingSummarizer())
    worker = asyncio.create_task(
        run_worker(queue, services, heartbeat_s=0.2, stalled_after_s=5,
                   install_signal_handlers=False)
    )  # fmt: skip
    try:
        await queue.enqueue_summary(app_name=APP, user_id=USER, session_id=sid, version=version)

        async def failed() -> bool:
            return [s for s, _ in await job_rows(postgres_dsn, schema)] == ["failed"]

        await until(failed, "the job ending failed")
        stored = await store.get(app_name=APP, user_id=USER, session_id=sid)
        assert stored is not None
        assert (stored.status, stored.session_version) == ("error", version)
        assert stored.error == "RuntimeError: model host unreachable"
        calls = (tmp_path / "calls.log").read_text().splitlines()
        assert len(calls) == 3  # the first run and two retries
    finally:
        worker.cancel()
        with pytest.raises(asyncio.CancelledError):
            await worker
        await queue.close()
        await sessions.close()
        await store.close()


async def test_queues_opening_together_apply_the_schema_once(
    postgres_dsn: str, postgres_schema: str
) -> None:
    from agentlog.jobs.queue import JobQueue
    from agentlog.jobs.schema import shipped_upgrades

    queues = [JobQueue(postgres_dsn, schema=postgres_schema) for _ in range(4)]
    try:
        await asyncio.gather(*(q.open() for q in queues))
        recorded = await execute(
            postgres_dsn, postgres_schema, "SELECT name FROM agentlog_job_schema ORDER BY name"
        )
        assert [name for (name,) in recorded] == [name for name, _ in shipped_upgrades()]
        assert await queues[3].enqueue_summary(
            app_name=APP, user_id=USER, session_id="s", version=1
        )
    finally:
        for q in queues:
            await q.close()
