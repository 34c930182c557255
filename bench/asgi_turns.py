"""The server's instructions per turn, counted the same whatever the machine's load.

``bench.server --callgrind`` counts a burst of 100 clients, whose count moves with the load: on
a busy machine the burst lasts minutes, and the work on timers grows with it (lease renewals,
pings, admission timers). This counts turns made one after another through the ASGI app in
this process (no HTTP server, no sockets: what ``agentlog.server`` itself costs): each turn
creates a session, sends a message and reads its stream to the end. Under callgrind it runs
twice, with ``--turns`` turns and with none (both after the same warm-up), and prints the
difference per turn::

    python -m bench.asgi_turns --callgrind                # SQLite
    python -m bench.asgi_turns --callgrind --postgres-dsn postgresql://...

Without ``--callgrind`` it makes the turns and prints what they streamed. With ``--lifespan``
the turns run inside the app's lifespan, as under ``agentlog serve``: on PostgreSQL the
server then also listens to the store's notifications (its own appends' among them) and
publishes its turns' drafts (:mod:`agentlog.server.fanout`), work a turn costs a server that
the bare app does not show.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any, Final

MESSAGE: Final = "Hi, my order A-1001 arrived late. Can I get the shipping fee back?"
WARMUP: Final = 3


async def _call(app: Any, method: str, path: str, body: bytes) -> bytes:
    """One request through ``app``; the body it answered (a stream's, to its end)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    answered = asyncio.Event()
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await answered.wait()  # the client stays until the answer is read
        return {"type": "http.disconnect"}

    chunks: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    answered.set()
    return b"".join(chunks)


async def turns(count: int, db: str, schema: str | None, lifespan: bool = False) -> int:
    """``count`` turns after the warm-up's (inside the app's lifespan with ``lifespan``); the
    frames they streamed."""
    from agentlog.runner import Runner
    from agentlog.server import create_app
    from agentlog.server.desk import refund_desk
    from agentlog.sessions.base import SessionService

    store: SessionService
    if db.startswith("postgresql://"):
        from agentlog.sessions.postgres import PostgresSessionService

        store = PostgresSessionService(db, schema=schema)
    else:
        from agentlog.sessions.sqlite import SqliteSessionService

        store = SqliteSessionService(db)
    app = create_app(Runner(agent=refund_desk(), session_service=store))
    frames = 0
    message = json.dumps({"text": MESSAGE}).encode()
    try:
        async with app.router.lifespan_context(app) if lifespan else contextlib.nullcontext():
            for _ in range(WARMUP + count):
                created = json.loads(await _call(app, "POST", "/sessions", b"{}"))
                path = f"/sessions/{created['id']}/messages"
                frames += (await _call(app, "POST", path, message)).count(b"\r\n\r\n")
    finally:
        await store.close()
    return frames


def _run(count: int, dsn: str | None, lifespan: bool = False) -> None:
    schema = None
    with tempfile.TemporaryDirectory() as folder:
        db = dsn or os.path.join(folder, "agentlog.db")
        if dsn:
            from bench.server import create_schema, drop_schema

            schema = f"bench_asgi_{uuid.uuid4().hex[:8]}"
            create_schema(dsn, schema)
        try:
            frames = asyncio.run(turns(count, db, schema, lifespan))
        finally:
            if dsn and schema:
                drop_schema(dsn, schema)
    print(f"turns {count} (after {WARMUP}), frames {frames}")


def _counting(
    count: int, dsn: str | None, out: Path, lifespan: bool = False
) -> subprocess.Popen[bytes]:
    """This module, making ``count`` turns under callgrind (started, not waited for)."""
    command = [sys.executable, "-m", "bench.asgi_turns", "--turns", str(count)]
    if dsn:
        command += ["--postgres-dsn", dsn]
    if lifespan:
        command.append("--lifespan")
    valgrind = ["valgrind", "--tool=callgrind", "--dump-instr=no", f"--callgrind-out-file={out}"]
    return subprocess.Popen(
        valgrind + command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent,
    )


def _total(process: subprocess.Popen[bytes], out: Path) -> int:
    if process.wait() != 0:
        raise RuntimeError(f"the counted run failed (exit {process.returncode})")
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=40, help="turns counted (40)")
    parser.add_argument("--postgres-dsn", help="PostgreSQL instead of SQLite")
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions per turn (two runs under valgrind)"
    )
    parser.add_argument(
        "--lifespan",
        action="store_true",
        help="run the turns inside the app's lifespan (listener and draft relay on PostgreSQL)",
    )
    args = parser.parse_args()
    if not args.callgrind:
        _run(args.turns, args.postgres_dsn, args.lifespan)
        return
    with tempfile.TemporaryDirectory() as folder:
        # Both at once: counts do not depend on what else runs.
        none, some = Path(folder) / "none.out", Path(folder) / "turns.out"
        runs = (
            _counting(0, args.postgres_dsn, none, args.lifespan),
            _counting(args.turns, args.postgres_dsn, some, args.lifespan),
        )
        base, total = _total(runs[0], none), _total(runs[1], some)
    backend = "PostgreSQL" if args.postgres_dsn else "SQLite"
    within = ", in its lifespan" if args.lifespan else ""
    print(
        f"{backend}: {(total - base) / args.turns:,.0f} instructions per turn "
        f"({args.turns} turns one after another, through the ASGI app{within}; callgrind)"
    )


if __name__ == "__main__":
    main()
