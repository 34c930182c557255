"""The HTTP API under load: 100 clients streaming a turn each, on SQLite and on PostgreSQL.

Run from the repository root with the dev venv (it has httpx, uvicorn and psycopg)::

    .venv/bin/python -m bench.server [--clients 100] [--no-postgres]

For each backend it starts a server in a child process, the app ``agentlog serve`` builds
(``create_app`` over a ``Runner`` on the offline refund desk, streaming drafts; no API keys, so
one local user on 127.0.0.1), on a fresh SQLite file under ``bench/.work/`` or a fresh
PostgreSQL schema, both removed afterwards. Then, from this process: a warm-up of
``--warmup`` clients one at a time (reported as the unloaded case), and one round of
``--clients`` concurrent clients, each creating a session and sending "my order A-1001 still
hasn't arrived", which makes the desk look the order up and stream its answer. The clients are
``bench.wire_client`` connections (plain asyncio streams; ``--client httpx`` for an
``httpx.AsyncClient`` each, as before), the burst's spread over ``--client-procs`` processes
(2; 0 runs them in this process) that all start at one moment, so the clients' own CPU does
not queue their requests behind one another. Per client:

- time to first event: from the message's request bytes written to the socket to the first
  server-sent event read;
- events per second: server-sent events read (stored events, drafts, the end) over the time
  from sending the message to the ``end`` event.

Everything goes to 127.0.0.1; one round per backend, and ``--timeout`` bounds each round.
Progress goes to stderr, the table to stdout. With ``AGENTLOG_BENCH_PROFILE=PREFIX`` each of
agentlog's servers runs under cProfile and writes ``PREFIX-sqlite.prof`` or
``PREFIX-pg.prof`` when stopped (its CPU figures are then the profiler's, not the server's).
With ``--timeline`` each of agentlog's servers also records, per turn, when its request
arrived, its store calls began and ended and its first frame was written (the clocks of
both processes are the machine's monotonic clock), and the bench prints, for the burst,
the median moment of each from the client's sending of the message: where a first event's
time goes, between the client, the server's event loop and the store.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from bench.wire_client import WireConnection

if TYPE_CHECKING:
    import httpx

DEFAULT_DSN: Final = "postgresql://postgres@127.0.0.1:5432/test"
MESSAGE: Final = "Hi, my order A-1001 still hasn't arrived. What's going on?"
WORKDIR: Final = Path(__file__).resolve().parent / ".work"
BENCH_VENV_PYTHON: Final = Path(__file__).resolve().parent.parent / ".venv-bench" / "bin" / "python"
HOST: Final = "127.0.0.1"

_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, to stderr."""
    print(f"[{time.perf_counter() - _T0:7.1f}s] {message}", file=sys.stderr, flush=True)


# --- the server (child process) ------------------------------------------------------------------


def serve(db: str, schema: str | None, port: int) -> None:
    """Serve the refund desk on ``db`` at 127.0.0.1:``port`` until terminated."""
    import uvicorn

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
    runner = Runner(agent=refund_desk(), session_service=store)
    app: Any = create_app(runner, close_store_on_shutdown=True)
    profile = os.environ.get("AGENTLOG_BENCH_PROFILE")
    timeline = os.environ.get(TIMELINE_ENV)
    if not profile and not timeline:
        uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False)
        return
    import signal

    def stopped(signum: int, frame: object) -> None:
        raise SystemExit(0)

    # uvicorn raises the SIGTERM it stopped on again once it has shut down: end with it.
    signal.signal(signal.SIGTERM, stopped)
    if timeline:
        marks: list[tuple[str, str, float, float]] = []
        app = _recording(app, store, marks)
        if not profile:
            try:
                uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False)
            finally:
                Path(timeline).write_text(json.dumps(marks))
            return
    import cProfile

    # A profile of the whole server's life (warm-up and burst), written when it is stopped.
    # The main thread's CPU time, not the wall clock: on a loaded machine a wall-clock profile
    # charges a call for the time the process waited to be scheduled.
    profiler = cProfile.Profile(time.thread_time)
    profiler.enable()
    try:
        uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False)
    finally:
        profiler.disable()
        profiler.dump_stats(f"{profile}-{'pg' if schema else 'sqlite'}.prof")


TIMELINE_ENV: Final = "AGENTLOG_BENCH_TIMELINE"
"""Where a server writes its marks (``--timeline``): set by the bench for its child."""

_STORE_CALLS: Final = ("acquire_lease", "acquire_lease_and_append", "get_session", "append_event")


def _recording(app: Any, store: Any, marks: list[tuple[str, str, float, float]]) -> Any:
    """``app`` and ``store`` recording (what, session id, began, ended) into ``marks``: each
    lease, load and append, each request (``request``, keyed by path) and the first body
    write of each response (``written``)."""
    clock = time.perf_counter

    def timed(name: str, call: Any, session_of: Any) -> Any:
        async def recorded(*args: Any, **kwargs: Any) -> Any:
            began = clock()
            try:
                return await call(*args, **kwargs)
            finally:
                marks.append((name, session_of(args, kwargs), began, clock()))

        return recorded

    for name in _STORE_CALLS:
        if not hasattr(store, name):
            continue
        session_of = (
            (lambda a, k: a[0].id) if name == "append_event" else (lambda a, k: k["session_id"])
        )
        # On the instance: the store's class, and what isinstance finds in it, stay as they are.
        setattr(store, name, timed(name, getattr(store, name), session_of))

    async def recorded_app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        path, began, first = scope["path"], clock(), [True]

        async def sending(message: Any) -> None:
            await send(message)
            if first[0] and message["type"] == "http.response.body" and message.get("body"):
                first[0] = False
                marks.append(("written", path, began, clock()))

        try:
            await app(scope, receive, sending)
        finally:
            marks.append(("request", path, began, clock()))

    return recorded_app


def timeline(marks: list[tuple[str, str, float, float]], clients: list[Client]) -> list[str]:
    """The median moment (ms after the client sent its message) of each step of a burst's
    turns before their first event, from a server's ``marks`` and the clients' clocks."""
    turns: dict[str, dict[str, tuple[float, float]]] = {}
    for name, key, began, ended in marks:
        if name in ("request", "written"):
            if not key.endswith("/messages"):
                continue
            key = key.split("/")[2]
        steps = turns.setdefault(key, {})
        steps.setdefault(name, (began, ended))  # the first of each: a turn's first append
    steps_of = [
        ("request arrives", "request", 0),
        ("lease begins", "acquire_lease", 0),
        ("lease and user's message begin", "acquire_lease_and_append", 0),
        ("load begins", "get_session", 0),
        ("lease done", "acquire_lease", 1),
        ("lease and user's message done", "acquire_lease_and_append", 1),
        ("load done", "get_session", 1),
        ("user's append begins", "append_event", 0),
        ("user's append done", "append_event", 1),
        ("first frame written", "written", 1),
    ]
    # A turn shows one of the two ways to its first event: lease, then append; or both in
    # one write (``acquire_lease_and_append``), when its append is not among its steps.
    moments: dict[str, list[float]] = {"request written": []}
    moments |= {label: [] for label, _, _ in steps_of}
    moments["first event read"] = []
    for client in clients:
        steps = turns.get(client.session_id, {})
        if client.error is not None or "request" not in steps or "written" not in steps:
            continue
        if "acquire_lease_and_append" in steps:
            steps = {k: v for k, v in steps.items() if k != "append_event"}
        if client.written_at:
            moments["request written"].append((client.written_at - client.sent_at) * 1000)
        for label, step, end in steps_of:
            if step in steps:
                moments[label].append((steps[step][end] - client.sent_at) * 1000)
        moments["first event read"].append(
            (client.written_at - client.sent_at + client.first_s) * 1000
        )
    if not moments["first event read"]:
        return []
    return [f"{label} {percentile(values, 50):.1f}" for label, values in moments.items() if values]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """A server child process, started and stopped by this process only: agentlog's, or
    with ``adk_agents`` google-adk's api_server (run by ``python``) on that agents folder."""

    def __init__(
        self,
        db: str,
        schema: str | None,
        logfile: Path,
        adk_agents: Path | None = None,
        python: str = sys.executable,
        timeline: Path | None = None,
        callgrind: Path | None = None,
    ) -> None:
        self.port = free_port()
        self.callgrind = callgrind
        self.url = f"http://{HOST}:{self.port}"
        self.logfile = logfile
        self.adk_agents = adk_agents
        serve_as = ["--serve", db] if adk_agents is None else ["--serve-adk", str(adk_agents), db]
        command = [python, "-m", "bench.server", *serve_as, "--port", str(self.port)]
        if schema:
            command += ["--schema", schema]
        if callgrind is not None:
            # Counted only between callgrind_control's zeroing and dump (see ``instructions``).
            command = [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={callgrind}",
                "--dump-instr=no",
                *command,
            ]
        env = None
        if timeline is not None and adk_agents is None:
            env = {**os.environ, TIMELINE_ENV: str(timeline)}
        with logfile.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=WORKDIR.parent.parent,
                env=env,
            )

    async def ready(self, wait_s: float) -> None:
        health = "/healthz" if self.adk_agents is None else "/health"  # google-adk's
        await wait_ready(self.url, self.process, self.logfile, wait_s, health)

    def stop(self) -> None:
        stop_process(self.process)

    def zero_counts(self) -> None:
        """Under callgrind: start counting instructions from now."""
        if self.callgrind is not None:
            subprocess.run(
                ["callgrind_control", "-z", str(self.process.pid)], check=True, capture_output=True
            )

    def instructions(self) -> int | None:
        """Under callgrind: the instructions the server ran since ``zero_counts``."""
        if self.callgrind is None:
            return None
        subprocess.run(
            ["callgrind_control", "-d", str(self.process.pid)], check=True, capture_output=True
        )
        dumps = sorted(self.callgrind.parent.glob(f"{self.callgrind.name}.*"))
        for line in dumps[-1].read_text().splitlines() if dumps else []:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
        return None


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop a child: SIGTERM, then SIGKILL if it has not exited within 15 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


async def wait_ready(
    url: str,
    process: subprocess.Popen[bytes],
    logfile: Path,
    wait_s: float,
    health: str = "/healthz",
) -> None:
    """Wait until the server at ``url`` answers ``health`` (agentlog's ``/healthz``); raise
    with its log's tail if it exits or ``wait_s`` passes first."""
    import httpx

    deadline = time.monotonic() + wait_s
    async with httpx.AsyncClient(base_url=url, trust_env=False) as client:
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if (await client.get(health)).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    tail = (await asyncio.to_thread(logfile.read_text, errors="replace"))[-2000:]
    raise RuntimeError(f"the server did not start on {url}:\n{tail}")


# --- the clients ---------------------------------------------------------------------------------


@dataclass
class Client:
    """What one client saw."""

    first_s: float = 0.0
    """From the message's request written to the socket to the first server-sent event."""
    total_s: float = 0.0
    """From the message's request written to the ``end`` event."""
    events: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    answered: bool = False
    error: str | None = None
    session_id: str = ""
    sent_at: float = 0.0
    """When the message was sent (``time.perf_counter``)."""
    written_at: float = 0.0
    """When the message's request bytes had been written to the socket."""

    @property
    def rate(self) -> float:
        return self.events / self.total_s if self.total_s else 0.0


async def one_client(http: Any, start: asyncio.Event, system: str) -> Client:
    """One client's turn over ``http``: an ``httpx.AsyncClient`` or a ``WireConnection``."""
    seen = Client()
    await start.wait()
    wire = not hasattr(http, "stream")
    if system == "google-adk":
        from bench.adk_api_server import adk_turn, adk_turn_wire

        try:
            await (adk_turn_wire if wire else adk_turn)(http, MESSAGE, seen)
        except Exception as exc:
            seen.error = f"{type(exc).__name__}: {exc}"
        return seen
    try:
        if wire:
            await _agentlog_turn_wire(http, seen)
        else:
            await _agentlog_turn_httpx(http, seen)
        if not seen.total_s:
            seen.error = "the stream closed without an end event"
        elif not seen.answered:
            seen.error = "no answer in the turn"
    except Exception as exc:
        seen.error = f"{type(exc).__name__}: {exc}"
    return seen


def _frame_read(seen: Client, name: str, data: str) -> None:
    """Count one server-sent event of agentlog's stream into ``seen``."""
    now = time.perf_counter()
    if not seen.written_at:
        seen.written_at = seen.sent_at  # a client that could not tell: from the sending
    if seen.events == 0:
        seen.first_s = now - seen.written_at
    seen.events += 1
    seen.kinds[name] = seen.kinds.get(name, 0) + 1
    if name == "event" and '"kind":"answer"' in data.replace(" ", ""):
        seen.answered = True
    if name == "end":
        seen.total_s = now - seen.written_at


async def _agentlog_turn_wire(conn: WireConnection, seen: Client) -> None:
    status, created = await conn.request("POST", "/sessions", {})
    if status != 201 and status != 200:
        raise RuntimeError(f"POST /sessions: HTTP {status}")
    session_id = seen.session_id = created["id"]
    seen.sent_at = time.perf_counter()
    stream = conn.events("POST", f"/sessions/{session_id}/messages", {"text": MESSAGE})
    async for name, data in stream:
        if not seen.written_at:
            seen.written_at = conn.written_at
        _frame_read(seen, name, data)


async def _agentlog_turn_httpx(http: httpx.AsyncClient, seen: Client) -> None:
    created = await http.post("/sessions", json={})
    created.raise_for_status()
    session_id = seen.session_id = created.json()["id"]
    seen.sent_at = time.perf_counter()
    url = f"/sessions/{session_id}/messages"

    async def trace(event: str, info: object) -> None:
        # httpcore's trace extension: the moment the request's bytes have been written.
        if event == "http11.send_request_body.complete":
            seen.written_at = time.perf_counter()

    extensions = {"trace": trace}
    async with http.stream("POST", url, json={"text": MESSAGE}, extensions=extensions) as response:
        response.raise_for_status()
        name, data = "message", ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data += line
            elif line == "" and data:
                _frame_read(seen, name, data)
                name, data = "message", ""


DEFAULT_CLIENT_PROCS: Final = 2
"""Client processes for a burst: on 2 cores shared with the server (and PostgreSQL), two
cheap clients' processes keep the clients from queueing behind one another without taking
the server's core for long."""

CLIENT_KINDS: Final = ("wire", "httpx")
"""``wire``: :mod:`bench.wire_client` (asyncio streams); ``httpx``: an ``httpx.AsyncClient``
each, as the bench did before."""


async def round_of(
    url: str, clients: int, limit_s: float, system: str = "agentlog", kind: str = "wire"
) -> tuple[list[Client], float]:
    """``clients`` clients at once in this process; their results and the round's wall time.

    With httpx each client has its own ``httpx.AsyncClient`` (one connection): httpcore's
    pool scans every connection of the pool for each request, which with a hundred
    connections in one pool costs the client more CPU than the server spends.
    """
    clients_of, start = await _connections(url, clients, limit_s, kind)
    async with clients_of as https:
        tasks = [asyncio.create_task(one_client(http, start, system)) for http in https]
        await asyncio.sleep(0.05)
        began = time.perf_counter()
        start.set()
        results = await _gather(tasks, limit_s, clients)
        return results, time.perf_counter() - began


async def _gather(tasks: list[asyncio.Task[Client]], limit_s: float, clients: int) -> list[Client]:
    try:
        return list(await asyncio.wait_for(asyncio.gather(*tasks), limit_s))
    except TimeoutError:
        for task in tasks:
            task.cancel()
        raise RuntimeError(f"the round of {clients} clients took over {limit_s:g} s") from None


async def _connections(
    url: str, clients: int, limit_s: float, kind: str
) -> tuple[Any, asyncio.Event]:
    """An async context of ``clients`` connections of ``kind`` (a list), and a start event."""
    from contextlib import AsyncExitStack, asynccontextmanager

    @asynccontextmanager
    async def opened() -> Any:
        async with AsyncExitStack() as stack:
            if kind == "wire":
                host, port = url.removeprefix("http://").rsplit(":", 1)
                conns = [WireConnection(host, int(port)) for _ in range(clients)]
                for conn in conns:
                    stack.push_async_callback(conn.close)
                yield conns
                return
            import ssl

            import httpx

            tls = ssl.create_default_context()  # made once; never used over http://
            yield [
                await stack.enter_async_context(
                    httpx.AsyncClient(base_url=url, timeout=limit_s, trust_env=False, verify=tls)
                )
                for _ in range(clients)
            ]

    return opened(), asyncio.Event()


async def spread_round(
    url: str,
    clients: int,
    procs: int,
    limit_s: float,
    system: str,
    kind: str,
    on_start: Callable[[], None] = lambda: None,
) -> tuple[list[Client], float, float]:
    """``clients`` clients at once spread over ``procs`` child processes, all started at one
    moment: every child reports ready (imports done, clients made), then this process sends
    each the same start time (the machine's monotonic clock, which ``time.perf_counter``
    reads in every process). Their results, the round's wall time (the start to the last
    client's end) and the children's CPU seconds over the round. ``on_start`` is called just
    before the start time is sent."""
    shares = [clients // procs + (i < clients % procs) for i in range(procs)]
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.server",
            "--client-child",
            url,
            str(share),
            system,
            kind,
            str(limit_s),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=WORKDIR.parent.parent,
        )
        for share in shares
        if share
    ]
    try:
        for child in children:
            assert child.stdout is not None
            ready = await asyncio.wait_for(child.stdout.readline(), 60)
            if ready.strip() != b"ready":
                raise RuntimeError(f"a client process did not start: {ready!r}")
        on_start()
        began = time.perf_counter() + 0.05
        for child in children:
            assert child.stdin is not None
            child.stdin.write(f"{began!r}\n".encode())
            await child.stdin.drain()
        outputs = await asyncio.wait_for(
            asyncio.gather(*(child.communicate() for child in children)), limit_s + 30
        )
    finally:
        for child in children:
            if child.returncode is None:
                child.kill()
                await child.wait()
    results: list[Client] = []
    ended, cpu = began, 0.0
    for out, _ in outputs:
        report_ = json.loads(out.decode().splitlines()[-1])
        results += [Client(**c) for c in report_["clients"]]
        ended, cpu = max(ended, report_["ended"]), cpu + report_["cpu_s"]
    return results, ended - began, cpu


def client_child(url: str, clients: int, system: str, kind: str, limit_s: float) -> None:
    """A client process of :func:`spread_round`: make the clients, say ``ready``, wait for
    the start time on stdin, run them, print their results as one JSON line."""
    from dataclasses import asdict

    async def run() -> None:
        clients_of, start = await _connections(url, clients, limit_s, kind)
        async with clients_of as https:
            tasks = [asyncio.create_task(one_client(http, start, system)) for http in https]
            print("ready", flush=True)
            line = await asyncio.to_thread(sys.stdin.readline)
            cpu = time.process_time()
            await asyncio.sleep(max(0.0, float(line) - time.perf_counter()))
            start.set()
            results = await _gather(tasks, limit_s, clients)
            ended = time.perf_counter()
        print(
            json.dumps(
                {
                    "clients": [asdict(c) for c in results],
                    "ended": ended,
                    "cpu_s": time.process_time() - cpu,
                }
            ),
            flush=True,
        )

    asyncio.run(run())


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a process so far (Linux), else ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the run -------------------------------------------------------------------------------------


@dataclass
class Result:
    backend: str
    load: str
    clients: list[Client]
    wall_s: float
    server_cpu_s: float | None = None
    client_cpu_s: float | None = None
    system: str = "agentlog"
    instructions: int | None = None
    """With ``--callgrind``: the server's instructions over the burst (callgrind)."""
    timeline: list[str] = field(default_factory=list)
    """With ``--timeline``: the median moment of each step before a first event."""

    @property
    def ok(self) -> list[Client]:
        return [c for c in self.clients if c.error is None]

    @property
    def turns_per_s(self) -> float:
        return len(self.ok) / self.wall_s if self.wall_s else 0.0

    @property
    def cpu_ms_per_turn(self) -> float | None:
        if self.server_cpu_s is None or not self.ok:
            return None
        return self.server_cpu_s / len(self.ok) * 1000


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100), linear between the closest ranks."""
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


async def bench_backend(
    backend: str,
    db: str,
    schema: str | None,
    args: argparse.Namespace,
    run_dir: Path,
    system: str = "agentlog",
) -> list[Result]:
    adk_agents = None
    if system == "google-adk":
        from bench.adk_api_server import write_agents

        adk_agents = write_agents(run_dir / "adk-agents")
    python = args.adk_python if system == "google-adk" else sys.executable
    marks = run_dir / f"{system}-{backend}-timeline.json" if args.timeline else None
    counted = run_dir / f"callgrind-{backend}" if args.callgrind and adk_agents is None else None
    server = Server(
        db, schema, run_dir / f"{system}-{backend}.log", adk_agents, python, marks, counted
    )
    name = f"{system} {backend}"
    try:
        await server.ready(60 if counted is None else 900)
        log(f"{name}: serving on {server.url} (pid {server.process.pid})")
        alone: list[Client] = []
        began = time.perf_counter()
        for _ in range(args.warmup):  # the warm-up, one client at a time
            clients, _ = await round_of(server.url, 1, args.timeout, system, args.client)
            alone += clients
        failed = [c.error for c in alone if c.error]
        if failed:
            raise RuntimeError(f"warm-up failed: {failed[0]}")
        results = [Result(backend, "1 at a time", alone, time.perf_counter() - began)]
        results[0].system = system
        log(f"{name}: {args.clients} clients at once")
        if args.client_procs:
            server_cpus: list[float | None] = []

            def started() -> None:
                server.zero_counts()
                server_cpus.append(cpu_seconds(server.process.pid))

            clients, wall, children_cpu = await spread_round(
                server.url,
                args.clients,
                args.client_procs,
                args.timeout,
                system,
                args.client,
                started,
            )
            server_cpu = server_cpus[0]
        else:
            server.zero_counts()
            server_cpu, client_cpu = cpu_seconds(server.process.pid), time.process_time()
            clients, wall = await round_of(
                server.url, args.clients, args.timeout, system, args.client
            )
            children_cpu = time.process_time() - client_cpu
        result = Result(backend, f"{args.clients} at once", clients, wall, system=system)
        result.client_cpu_s = children_cpu
        server_cpu_after = cpu_seconds(server.process.pid)
        result.instructions = server.instructions()
        if server_cpu is not None and server_cpu_after is not None:
            result.server_cpu_s = server_cpu_after - server_cpu
        log(f"{name}: {result.turns_per_s:,.0f} turns/s")
    finally:
        server.stop()  # a server with a timeline writes its marks as it stops
    if marks is not None and marks.exists():
        result.timeline = timeline(json.loads(marks.read_text()), result.clients)
    return [*results, result]


def create_schema(dsn: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))


def drop_schema(dsn: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def report(results: list[Result], notes: list[str]) -> bool:
    """Print the table, the CPU lines, the targets and the notes; whether every target
    measured was met."""
    print(
        f"{'server':<22} | {'clients':<12} | {'ok':>7} | {'turns/s':>7} | {'first event ms':^15} | "
        f"{'turn ms':^15} | {'events':>7} | {'CPU ms':>6}"
    )
    print(
        f"{'':<22} | {'':<12} | {'':>7} | {'':>7} | {'p50':>7} {'p99':>7} | "
        f"{'p50':>7} {'p99':>7} | {'/client':>7} | {'/turn':>6}"
    )
    print("-" * 107)
    for result in results:
        ok = result.ok
        name = f"{result.system} {result.backend}"
        line = f"{name:<22} | {result.load:<12} | {len(ok):>3}/{len(result.clients):<3} |"
        if ok:
            first = [c.first_s * 1000 for c in ok]
            total = [c.total_s * 1000 for c in ok]
            events = sum(c.events for c in ok)
            cpu = result.cpu_ms_per_turn
            line += (
                f" {result.turns_per_s:>7.1f} |"
                f" {percentile(first, 50):>7.1f} {percentile(first, 99):>7.1f} |"
                f" {percentile(total, 50):>7.1f} {percentile(total, 99):>7.1f} |"
                f" {events / len(ok):>7.1f} | {'' if cpu is None else f'{cpu:.2f}':>6}"
            )
        print(line)
    print()
    print(
        "Each client: create a session, send one message, read the turn's server-sent events "
        "to the end. turns/s: clients served over the round's wall time (for '1 at a time', "
        "over the warm-up's, session creation included). first event: from the message's "
        "request written to the socket to the first event read (agentlog's is the stored "
        "user message; google-adk's /run_sse does not send it, so its first is the model's "
        "tool call). turn: from the request written to "
        "the last event. events: stored events, drafts (a client that falls behind skips "
        "drafts a later one superseded) and agentlog's end. CPU ms/turn: the server "
        "process's CPU over the round, per client (session creation included)."
    )
    for result in results:
        if result.server_cpu_s is None and result.client_cpu_s is None:
            continue
        kinds: dict[str, int] = {}
        for client in result.ok:
            for kind, count in client.kinds.items():
                kinds[kind] = kinds.get(kind, 0) + count
        errors = sorted({c.error for c in result.clients if c.error})
        cpu_text = ", ".join(
            f"{who} CPU {seconds:.2f} s ({seconds / result.wall_s:.0%})"
            for who, seconds in (("server", result.server_cpu_s), ("clients", result.client_cpu_s))
            if seconds is not None
        )
        print(
            f"{result.system} {result.backend}, {result.load}: round {result.wall_s:.2f} s, "
            f"{cpu_text}; SSE events {json.dumps(kinds, sort_keys=True)}"
            + (f"; errors: {errors[:3]}" if errors else "")
        )
        if result.instructions is not None and result.ok:
            print(
                f"  callgrind: {result.instructions:,} server instructions over the burst, "
                f"{result.instructions / len(result.ok):,.0f} per turn"
            )
        if result.timeline:
            print(
                f"  timeline, median ms after sending: {', '.join(result.timeline)}",
            )
    met = True
    print("Targets (issue 15):")
    for label, value, ok_ in targets(results):
        verdict = "n/a " if ok_ is None else ("MET " if ok_ else "MISS")
        met = met and ok_ is not False
        print(f"  [{verdict}] {label}: {value}")
    print("Notes:")
    for note in notes:
        print(f"  - {note}")
    return met


BASELINE_CPU_MS: Final = 11.0
"""The server CPU per turn of a 100-client burst when issue 15 was written."""


def targets(results: list[Result]) -> list[tuple[str, str, bool | None]]:
    """(target, measured, met) for the server targets of issue 15."""
    out: list[tuple[str, str, bool | None]] = []
    burst = [r for r in results if r.load.endswith("at once")]
    for backend in ("SQLite", "PostgreSQL"):
        ours = next((r for r in burst if r.backend == backend and r.system == "agentlog"), None)
        theirs = next((r for r in burst if r.backend == backend and r.system != "agentlog"), None)
        label = f"{backend}, {burst[0].load if burst else 'a burst'}: first event p50 < 100 ms"
        if ours is None or not ours.ok:
            out.append((label, "not measured", None))
            continue
        first = percentile([c.first_s * 1000 for c in ours.ok], 50)
        out.append((label, f"{first:.1f} ms", first < 100.0))
        cpu = ours.cpu_ms_per_turn
        limit = BASELINE_CPU_MS / 3
        label = f"{backend}: server CPU per turn <= a third of {BASELINE_CPU_MS:g} ms"
        if cpu is None:
            out.append((label, "not measured", None))
        else:
            out.append((label, f"{cpu:.2f} ms (limit {limit:.2f})", cpu <= limit))
        label = f"{backend}: turns/s >= 5x google-adk's api_server"
        if theirs is None or not theirs.ok:
            out.append((label, "not measured", None))
        else:
            ratio = ours.turns_per_s / theirs.turns_per_s
            text = f"{ratio:.1f}x ({ours.turns_per_s:,.0f} vs {theirs.turns_per_s:,.0f} turns/s)"
            out.append((label, text, ratio >= 5.0))
    return out


def adk_python(requested: str | None) -> tuple[str, str] | None:
    """The interpreter that runs google-adk's server, and its google-adk version:
    ``requested``, else the bench venv's, else this one; ``None`` if none imports it."""
    candidates = [requested] if requested else [str(BENCH_VENV_PYTHON), sys.executable]
    probe = "import importlib.metadata as m, uvicorn, agentlog; print(m.version('google-adk'))"
    for python in candidates:
        if python and Path(python).exists():
            found = subprocess.run(
                [python, "-c", probe], capture_output=True, text=True, check=False
            )
            if found.returncode == 0:
                return python, found.stdout.strip()
    return None


async def main_async(args: argparse.Namespace) -> int:
    from bench.stores import disk_sync_ms

    run_dir = WORKDIR / f"server-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    results: list[Result] = []
    systems = ["agentlog"]
    notes = [
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs shared by the servers, "
        "the clients and PostgreSQL.",
        f"Clients: {args.client} ("
        + ("bench.wire_client, asyncio streams" if args.client == "wire" else "httpx")
        + "), "
        + (
            f"the burst spread over {args.client_procs} processes started at one moment"
            if args.client_procs
            else "all in the bench's own process"
        )
        + ".",
    ]
    if not args.no_adk:
        found = adk_python(args.adk_python)
        if found is None:
            notes.append("google-adk rows skipped: no interpreter here imports google.adk")
        else:
            args.adk_python, version = found
            systems.append("google-adk")
            notes.append(f"google-adk {version}'s api_server, run by {args.adk_python}.")
    load, sync = os.getloadavg()[0], disk_sync_ms(run_dir)
    try:
        for system in [] if args.no_sqlite else systems:
            log(f"{system} SQLite: start")
            db = str(run_dir / f"{system}.db")
            try:
                results += await bench_backend("SQLite", db, None, args, run_dir, system)
            except Exception as exc:
                if system == "agentlog":
                    raise
                log(f"{system} SQLite: skipped, {type(exc).__name__}: {exc}")
        if not args.no_postgres:
            for system in systems:
                schema = f"bench_server_{os.getpid()}_{uuid.uuid4().hex[:8]}"
                try:
                    log(f"{system} PostgreSQL: start")
                    if system != "agentlog":
                        create_schema(args.postgres_dsn, schema)
                    results += await bench_backend(
                        "PostgreSQL", args.postgres_dsn, schema, args, run_dir, system
                    )
                except Exception as exc:
                    log(f"{system} PostgreSQL: skipped, {type(exc).__name__}: {exc}")
                finally:
                    try:
                        drop_schema(args.postgres_dsn, schema)
                    except Exception as exc:
                        log(f"could not drop schema {schema}: {exc}")
    finally:
        load_after, sync_after = os.getloadavg()[0], disk_sync_ms(run_dir)
        if not args.keep:
            shutil.rmtree(run_dir, ignore_errors=True)
    notes.append(
        f"Load average (1 min) {load:.2f} at the start, {load_after:.2f} at the end; a 4 KiB "
        f"write and fdatasync in {WORKDIR}: median {sync:.2f} ms at the start, "
        f"{sync_after:.2f} ms at the end."
    )
    met = report(results, notes)
    complete = all(len(r.ok) == len(r.clients) for r in results)
    return 0 if complete and (met or not args.check) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=100, help="concurrent clients (100)")
    parser.add_argument("--warmup", type=int, default=5, help="warm-up clients, one at a time (5)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a round may take")
    parser.add_argument(
        "--postgres-dsn",
        default=os.environ.get("AGENTLOG_BENCH_POSTGRES_DSN", DEFAULT_DSN),
        help="PostgreSQL (env AGENTLOG_BENCH_POSTGRES_DSN)",
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--keep", action="store_true", help="keep bench/.work/server-PID")
    parser.add_argument("--no-adk", action="store_true", help="skip google-adk's api_server")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="print where agentlog's first events' time goes (the server records each turn)",
    )
    parser.add_argument(
        "--adk-python",
        help="the interpreter that runs google-adk's api_server (default: .venv-bench's, "
        "else this one)",
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when a measured target is missed"
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="run agentlog's servers under valgrind's callgrind and print their instructions "
        "per turn of the burst (deterministic whatever the load; slow: use --timeout 900)",
    )
    parser.add_argument(
        "--client",
        choices=CLIENT_KINDS,
        default="wire",
        help="the bench's HTTP client: wire (asyncio streams, bench.wire_client; the default) "
        "or httpx (an httpx.AsyncClient each, as before)",
    )
    parser.add_argument(
        "--client-procs",
        type=int,
        default=DEFAULT_CLIENT_PROCS,
        help=f"processes the burst's clients are spread over, started at one moment "
        f"({DEFAULT_CLIENT_PROCS}); 0: in this process, as before",
    )
    parser.add_argument("--client-child", nargs=5, help=argparse.SUPPRESS)
    parser.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--serve-adk", nargs=2, metavar=("AGENTS", "DB"), help=argparse.SUPPRESS)
    parser.add_argument("--schema", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_child:
        url, count, system, kind, limit = args.client_child
        client_child(url, int(count), system, kind, float(limit))
        return
    if args.serve:
        serve(args.serve, args.schema, args.port)
        return
    if args.serve_adk:
        from bench.adk_api_server import serve as serve_adk

        serve_adk(args.serve_adk[0], args.serve_adk[1], args.schema, HOST, args.port)
        return
    if not 1 <= args.clients <= 1000 or not 1 <= args.warmup <= 100:
        parser.error("--clients must be 1..1000 and --warmup 1..100")
    sys.exit(asyncio.run(asyncio.wait_for(main_async(args), 4 * args.timeout + 120)))


if __name__ == "__main__":
    main()
