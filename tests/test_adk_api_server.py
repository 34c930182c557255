"""``adk api_server``'s app, unchanged, on agentlog's SQLite store through ``services.py``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from google.adk.cli.fast_api import get_fast_api_app

from agentlog import SqliteSessionService

SERVICES = """\
from agentlog.adk import register_adk_services

register_adk_services()
"""

AGENT = """\
from google.adk.agents import LlmAgent

from adk_support import CannedLlm, says

root_agent = LlmAgent(name="desk", model=CannedLlm([says("Hello from the desk.")]))
"""

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture
def agents_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "agents"
    (folder / "desk").mkdir(parents=True)
    (folder / "services.py").write_text(SERVICES)
    (folder / "desk" / "__init__.py").write_text("from . import agent\n")
    (folder / "desk" / "agent.py").write_text(AGENT)
    yield folder
    # ADK imports these by their bare names; leave no trace for other tests.
    for name in [n for n in sys.modules if n in ("services", "desk") or n.startswith("desk.")]:
        del sys.modules[name]
    if str(folder) in sys.path:
        sys.path.remove(str(folder))


async def test_api_server_sessions_and_runs_are_agentlogs(agents_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    app = get_fast_api_app(
        agents_dir=str(agents_dir),
        session_service_uri=f"agentlog+sqlite:///{db}",
        use_local_storage=False,
        web=False,
    )
    base = "/apps/desk/users/ana/sessions"
    with TestClient(app) as client:
        made = client.post(base, json={"session_id": "s1", "state": {"user:lang": "fr"}})
        assert made.status_code == 200, made.text
        run = client.post(
            "/run",
            json={
                "app_name": "desk",
                "user_id": "ana",
                "session_id": "s1",
                "new_message": {"role": "user", "parts": [{"text": "Hi"}]},
            },
        )
        assert run.status_code == 200, run.text
        assert run.json()[-1]["content"]["parts"][0]["text"] == "Hello from the desk."
        got = client.get(f"{base}/s1").json()
        assert [e["author"] for e in got["events"]] == ["user", "desk"]
        assert got["state"] == {"user:lang": "fr"}
        assert [s["id"] for s in client.get(base).json()] == ["s1"]

    # What the server stored is an agentlog session any agentlog tool reads.
    store = SqliteSessionService(db)
    stored = await store.get_session(app_name="desk", user_id="ana", session_id="s1")
    assert [e.text() for e in stored.events] == ["Hi", "Hello from the desk."]
    await store.close()

    with TestClient(app) as client:
        assert client.delete(f"{base}/s1").status_code == 200
        assert client.get(f"{base}/s1").status_code == 404
