"""The API fuzzed from its own OpenAPI schema: no 5xx for a bounded number of requests."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from agentlog import SessionExistsError, SqliteSessionService
from agentlog.memory import InMemoryMemoryService
from agentlog.summary import ExtractiveSummarizer, InMemorySummaryStore
from server_support import ADMIN_KEY, ANA_KEY, auth, desk_app

schemathesis = pytest.importorskip("schemathesis")

pytestmark = pytest.mark.slow

REAL_SESSION = "s-1"
"""A session of ana's that exists, so generated requests also reach real data."""

_DIR = Path(tempfile.mkdtemp(prefix="agentlog-fuzz-"))
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)  # also when the test is deselected
_STORE = SqliteSessionService(_DIR / "fuzz.db")
_APP = desk_app(
    _STORE,
    summaries=InMemorySummaryStore(),
    summarizer=ExtractiveSummarizer(),
    memory=InMemoryMemoryService(),
)
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP)
_CALLS = itertools.count()


@pytest.fixture(scope="module", autouse=True)
def _cleanup() -> Iterator[None]:
    yield
    asyncio.run(_STORE.close())


def _ensure_real_session() -> None:
    async def create() -> None:
        with contextlib.suppress(SessionExistsError):
            await _STORE.create_session(app_name="agentlog", user_id="ana", session_id=REAL_SESSION)

    asyncio.run(create())


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: Any) -> None:
    params = case.path_parameters or {}
    if "session_id" in params and next(_CALLS) % 2:
        _ensure_real_session()
        params["session_id"] = REAL_SESSION
    if case.query:
        # A follow stream never ends, and this client reads whole bodies: it would wait forever
        # (test_server_follow.py covers follow streams on a real server).
        case.query.pop("follow", None)
    admin = case.path == "/state/app" and case.method in ("PUT", "PATCH")
    response = case.call(headers=auth(ADMIN_KEY if admin else ANA_KEY))
    assert response.status_code < 500, (case, response.status_code, response.text[:500])
