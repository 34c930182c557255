"""Two ``agentlog serve`` processes and an ``agentlog worker`` on one PostgreSQL database, as
the README's "Running several servers" describes, driven over HTTP:

    python examples/several_servers.py --db postgresql://app@db.internal/app

A client follows a new session on server B while another sends a message through server A: B
streams A's turn as its events are stored (LISTEN/NOTIFY), and once the session is idle a
worker summarises it, so both servers serve the same checked record. The servers are the
refund desk on its offline model, so no API key or network is needed; they listen on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def request(method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """One JSON request; the decoded answer."""
    data = json.dumps(body).encode() if body is not None else None
    sent = urllib.request.Request(url, data=data, method=method)
    sent.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(sent, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def sse(method: str, url: str, body: dict[str, Any] | None = None) -> Iterator[tuple[str, Any]]:
    """The (event, data) frames of a server-sent event stream, until it ends."""
    data = json.dumps(body).encode() if body is not None else None
    sent = urllib.request.Request(url, data=data, method=method)
    sent.add_header("Content-Type", "application/json")
    sent.add_header("Accept", "text/event-stream")
    with urllib.request.urlopen(sent, timeout=60) as stream:
        event, lines = "message", []
        for raw in stream:
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                lines.append(line[5:].strip())
            elif not line and lines:
                yield event, json.loads("\n".join(lines))
                event, lines = "message", []


@contextmanager
def processes(db: str, ports: list[int]) -> Iterator[list[str]]:
    """The servers and the worker, running; their base URLs. Stopped on exit."""
    agentlog = [sys.executable, "-m", "agentlog"]
    commands = [
        *([*agentlog, "serve", "--db", db, "--port", str(port), "--summarize-idle-after", "1"]
          for port in ports),
        [*agentlog, "worker", "--db", db, "--heartbeat", "1"],
    ]  # fmt: skip
    # Their logs (each request, each job) go to stderr, this program's story to stdout.
    started = [subprocess.Popen(command, stdout=sys.stderr) for command in commands]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for url in urls:
            _wait_ready(url, started)
        yield urls
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_ready(url: str, started: list[subprocess.Popen[bytes]]) -> None:
    for _ in range(600):
        if any(p.poll() is not None for p in started):
            raise SystemExit("a server or the worker stopped: see its output above")
        try:
            request("GET", f"{url}/readyz")
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise SystemExit(f"{url} did not get ready")


def main(args: argparse.Namespace) -> None:
    with processes(args.db, args.ports) as (a, b):
        session = request("POST", f"{a}/sessions", {})
        sid = session["id"]
        print(f"session {sid} made on server A")

        seen_on_b: list[str] = []

        def follow() -> None:
            # follow=true sends an end for the idle session it opens on, then every later turn,
            # each closed by its end; this client leaves after the first answer's turn.
            for frame, data in sse("GET", f"{b}/sessions/{sid}/stream?follow=true"):
                if frame == "end" and any(seen.endswith(" answer") for seen in seen_on_b):
                    return
                for message in data.get("messages", []) if frame == "event" else []:
                    seen_on_b.append(f"{data['event']['id']} {message['kind']}")

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()

        time.sleep(0.5)  # let B's stream open first, so it sees the turn as it runs
        for frame, data in sse("POST", f"{a}/sessions/{sid}/messages", {"text": args.message}):
            for message in data.get("messages", []) if frame == "event" else []:
                if message["kind"] == "answer":
                    print(f"server A answered: {message['text']}")
        follower.join(60)
        print("server B streamed the same turn:", *seen_on_b, sep="\n  ")

        for _ in range(600):  # the session goes idle, a server enqueues it, the worker runs it
            try:
                summary = request("GET", f"{b}/sessions/{sid}/summary")
                break
            except urllib.error.HTTPError as exc:
                if exc.code != 404:
                    raise
                time.sleep(0.1)
        else:
            raise SystemExit("no summary arrived from the worker")
        same = request("GET", f"{a}/sessions/{sid}/summary")
        print(f"the worker's summary, read from B: {summary['record']['goal']}")
        print(f"and from A: the same record of version {same['session_version']}")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a postgresql:// DSN both servers share")
    parser.add_argument("--ports", type=int, nargs=2, default=[8001, 8002])
    parser.add_argument("--message", default="Where is my order A-1001?")
    return parser.parse_args()


if __name__ == "__main__":
    main(_parse())
