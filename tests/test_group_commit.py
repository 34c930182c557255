"""Group commit on SQLite: writes made together share one transaction, each fails alone, and
every caller is answered only once the batch is committed."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import ClassVar

import pytest

from agentlog import REMOVED, Content, Event, EventActions, SqliteSessionService
from agentlog._stores.batching import others_ready
from agentlog._stores.group_commit import GroupCommit
from agentlog._stores.sqlite import SqliteWorker
from agentlog.errors import StaleSessionError, StoreUnavailableError


def _schema(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS parent (id INTEGER PRIMARY KEY)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS rows (n INTEGER PRIMARY KEY, parent INTEGER"
        " REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
    )


def _worker(path: Path) -> SqliteWorker:
    return SqliteWorker(
        str(path),
        owner="test",
        timeout=5.0,
        thread_name="test-writer",
        setup=_schema,
        synchronous="FULL",
        foreign_keys=True,
    )


def _insert(n: int, parent: int | None = None) -> Callable[[sqlite3.Connection], int]:
    def write(conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO rows (n, parent) VALUES (?, ?)", (n, parent))
        return n

    return write


def _stored(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [n for (n,) in conn.execute("SELECT n FROM rows ORDER BY n")]


@pytest.fixture
async def commits(tmp_path: Path) -> AsyncIterator[GroupCommit]:
    worker = _worker(tmp_path / "g.db")
    inline = worker.connect(timeout=0.0, same_thread=False)
    group = GroupCommit(worker, inline)
    yield group
    await group.close()
    inline.close()
    await worker.close()


async def test_writes_made_together_share_one_transaction(
    commits: GroupCommit, tmp_path: Path
) -> None:
    results = await asyncio.gather(*(commits.write(_insert(n)) for n in range(50)))
    assert results == list(range(50))
    assert commits.batches == 1
    assert commits.writes == 50
    assert _stored(tmp_path / "g.db") == list(range(50))


async def test_a_write_that_raises_in_a_batch_fails_alone(
    commits: GroupCommit, tmp_path: Path
) -> None:
    def half_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO rows (n) VALUES (1000)")
        raise StaleSessionError("s", 1, 2)

    writes: list[Awaitable[object]] = [commits.write(_insert(n)) for n in range(5)]
    writes.insert(2, commits.write(half_then_fail))
    writes.append(commits.write(_insert(3)))  # a duplicate key
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(results[2], StaleSessionError)
    assert isinstance(results[6], StoreUnavailableError)  # the driver's error, translated
    assert isinstance(results[6].__cause__, sqlite3.IntegrityError)
    assert [r for i, r in enumerate(results) if i not in (2, 6)] == list(range(5))
    assert commits.batches == 1
    assert _stored(tmp_path / "g.db") == list(range(5))  # 1000 rolled back to its savepoint


async def test_many_writers_at_once_take_turns_in_two_halves(
    commits: GroupCommit, tmp_path: Path
) -> None:
    # 200 writers, each awaiting its write before the next: written all in one batch, every
    # writer would wait for every commit and the disk for every writer. Split in two halves
    # (the older first), each half prepares its next writes while the other is committed,
    # and no write ever waits for more than the batch before its own.
    batch_of: dict[int, list[int]] = {}

    def recorded(writer: int, n: int) -> Callable[[sqlite3.Connection], int]:
        def write(conn: sqlite3.Connection) -> int:
            conn.execute("INSERT INTO rows (n) VALUES (?)", (n,))
            batch_of.setdefault(writer, []).append(commits.batches)
            return n

        return write

    async def writer(w: int) -> None:
        for round_ in range(4):
            assert await commits.write(recorded(w, round_ * 1000 + w)) == round_ * 1000 + w

    await asyncio.gather(*(writer(w) for w in range(200)))
    assert commits.batches == 8
    assert commits.writes == 800
    assert [batch_of[w][0] for w in range(200)] == [0] * 100 + [1] * 100
    for w in range(200):
        first = batch_of[w][0]
        assert batch_of[w] == [first, first + 2, first + 4, first + 6]
    assert len(_stored(tmp_path / "g.db")) == 800


async def test_without_an_inline_connection_many_writers_share_one_batch(tmp_path: Path) -> None:
    # Halves taking turns would run one half's statements on the writer's thread beside the
    # other half's Python, both waiting for the GIL: without an inline connection, one batch.
    worker = _worker(tmp_path / "g.db")
    group = GroupCommit(worker)
    results = await asyncio.gather(*(group.write(_insert(n)) for n in range(200)))
    assert results == list(range(200))
    assert group.batches == 1
    await group.close()
    await worker.close()


async def test_callers_are_answered_only_once_the_batch_commits(
    commits: GroupCommit, tmp_path: Path
) -> None:
    # A deferred foreign key fails at COMMIT: no writer of that batch may hear "done".
    results = await asyncio.gather(
        commits.write(_insert(1)),
        commits.write(_insert(2, parent=99)),
        commits.write(_insert(3)),
        return_exceptions=True,
    )
    assert all(isinstance(r, StoreUnavailableError) for r in results), results
    assert _stored(tmp_path / "g.db") == []
    assert await commits.write(_insert(4)) == 4
    assert _stored(tmp_path / "g.db") == [4]


async def test_a_batch_is_written_inline_while_the_loop_is_busy_and_else_on_the_writer_thread(
    commits: GroupCommit,
) -> None:
    def where(conn: sqlite3.Connection) -> int:
        return threading.get_ident()

    commits_seen: list[int] = []
    inline = commits._inline
    assert inline is not None
    inline.set_trace_callback(
        lambda sql: commits_seen.append(threading.get_ident()) if sql == "COMMIT" else None
    )
    here = threading.get_ident()
    assert await commits.write(where) == here  # alone: written and committed here
    assert commits_seen == [here]
    # Nothing else to run meanwhile: the writer's thread writes the batch whole.
    idle = await asyncio.gather(commits.write(where), commits.write(where))
    assert idle[0] == idle[1] != here

    async def busy() -> None:
        for _ in range(50):
            await asyncio.sleep(0)

    # Other work ready: the statements here, the fsync on the writer's thread.
    spinning = asyncio.create_task(busy())
    together = await asyncio.gather(commits.write(where), commits.write(where))
    await spinning
    assert together == [here, here]
    assert len(commits_seen) == 2
    assert commits_seen[1] != here
    inline.set_trace_callback(None)


class _Row:
    """A write of one row that can also be written with others of its kind at once."""

    calls: ClassVar[list[int]] = []

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO rows (n) VALUES (?)", (self.n,))
        return self.n

    @staticmethod
    def many(conn: sqlite3.Connection, rows: list[_Row]) -> list[int]:
        _Row.calls.append(len(rows))
        conn.executemany("INSERT INTO rows (n) VALUES (?)", [(r.n,) for r in rows])
        return [r.n for r in rows]


async def test_writes_of_one_kind_are_written_together_and_alone_when_one_fails(
    commits: GroupCommit, tmp_path: Path
) -> None:
    _Row.calls = []
    assert await asyncio.gather(*(commits.write(_Row(n)) for n in range(10))) == list(range(10))
    assert _Row.calls == [10]
    # A duplicate among them: the run fails together, then each is written alone.
    results = await asyncio.gather(
        *(commits.write(_Row(n)) for n in (20, 21, 5, 22)), return_exceptions=True
    )
    assert results[:2] == [20, 21]
    assert results[3] == 22
    assert isinstance(results[2], StoreUnavailableError)
    assert _Row.calls == [10, 4]
    assert _stored(tmp_path / "g.db") == [*range(10), 20, 21, 22]


async def test_a_lone_write_waits_on_the_writer_thread_while_another_process_writes(
    commits: GroupCommit, tmp_path: Path
) -> None:
    holder = sqlite3.connect(tmp_path / "g.db", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    write = asyncio.create_task(commits.write(_insert(7)))
    for _ in range(20):  # the event loop keeps running while the write waits for the lock
        await asyncio.sleep(0.01)
    assert not write.done()
    holder.execute("COMMIT")
    assert await write == 7
    holder.close()


async def test_writes_after_close_are_refused(tmp_path: Path) -> None:
    worker = _worker(tmp_path / "c.db")
    group = GroupCommit(worker)
    pending = asyncio.gather(*(group.write(_insert(n)) for n in range(3)))
    await asyncio.sleep(0)
    await group.close()
    assert await pending == [0, 1, 2]  # submitted before the close: written
    with pytest.raises(StoreUnavailableError, match="closed"):
        await group.write(_insert(9))
    await worker.close()


async def test_appends_to_many_sessions_at_once_are_committed_together(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    sessions = [await store.create_session(app_name="a", user_id=f"u{i}") for i in range(40)]
    batches = store._writes.batches

    def event(i: int) -> Event:
        return Event(
            invocation_id="i",
            author="agent",
            content=Content.from_text(f"event {i}", role="model"),
            actions=EventActions(state_delta={"i": i}),
        )

    for _ in range(3):
        sessions = list(
            await asyncio.gather(*(store.append_event(s, event(i)) for i, s in enumerate(sessions)))
        )
    assert store._writes.batches - batches <= 6  # 120 appends, a batch or two per round
    for i, s in enumerate(sessions):
        loaded = await store.get_session(app_name="a", user_id=f"u{i}", session_id=s.id)
        assert loaded.version == 3
        assert loaded.events == s.events
        assert loaded.state == {"i": i}
    await store.close()


async def test_appends_made_together_write_every_scope_and_deletion(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    sessions = [await store.create_session(app_name="a", user_id=f"u{i}") for i in range(8)]

    def event(delta: dict[str, object]) -> Event:
        return Event(invocation_id="i", author="agent", actions=EventActions(state_delta=delta))

    rounds: list[Callable[[int], dict[str, object]]] = [
        lambda i: {"k": i, "gone": i, "app:a": i, "user:u": i, "temp:t": i},
        lambda i: {"k": i + 100, "gone": REMOVED, "user:u": REMOVED},  # deletions: one by one
        lambda i: {"k": i + 200},
    ]
    for delta in rounds:
        sessions = list(
            await asyncio.gather(
                *(store.append_event(s, event(delta(i))) for i, s in enumerate(sessions))
            )
        )
    for i, s in enumerate(sessions):
        loaded = await store.get_session(app_name="a", user_id=f"u{i}", session_id=s.id)
        assert {k: v for k, v in loaded.state.items() if k != "app:a"} == {"k": i + 200}
        assert loaded.state["app:a"] == 7  # the last write of it, in the order made
        assert loaded.events == s.events
    await store.close()


async def test_a_lone_writer_does_not_wait_for_a_cancelled_callback() -> None:
    loop = asyncio.get_running_loop()
    loop.call_soon(lambda: None).cancel()  # as psycopg leaves after every statement
    assert not others_ready(loop)
    loop.call_soon(lambda: None)
    assert others_ready(loop)
