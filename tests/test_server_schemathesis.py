"""The API does what its OpenAPI schema says: schemathesis with every check, over every route.

Every phase runs (the schema's examples, its coverage cases, random fuzzing, and stateful
sequences following the schema's links), against the app built in-process: route by route
over a SQLite store, each sequence over an empty store of its own. Every check runs, not only
"no 5xx": status codes, content types, headers and bodies conform to the schema; data the
schema allows is accepted and data it forbids is refused; undocumented methods get 405 with an
``Allow`` header listing the path's methods; a request without a key gets 401. The example
count is bounded so the module takes well under a minute.
"""

from __future__ import annotations

import asyncio
import atexit
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, settings

from agentlog import InMemorySessionService, SqliteSessionService
from agentlog.memory import InMemoryMemoryService
from agentlog.server.schemas import BLANK_PATTERN
from agentlog.sessions.base import SessionService
from agentlog.summary import ExtractiveSummarizer, InMemorySummaryStore
from server_support import ADMIN_KEY, ANA_KEY, auth, desk_app

schemathesis = pytest.importorskip("schemathesis")

MAX_EXAMPLES = 25
"""Random examples per route (the coverage phase adds its own, a bounded set)."""

# Hypothesis's explain phase re-runs a failure under a tracer, which multiplies the time a
# failing run takes; the shrunk failure and schemathesis's curl line say enough.
PHASES = [phase for phase in Phase if phase is not Phase.explain]

_DIR = Path(tempfile.mkdtemp(prefix="agentlog-schemathesis-"))
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)  # also when the tests are deselected


def _desk(store: SessionService) -> FastAPI:
    """The refund desk with every optional route: summaries and memory too."""
    return desk_app(
        store,
        summaries=InMemorySummaryStore(),
        summarizer=ExtractiveSummarizer(),
        memory=InMemoryMemoryService(),
    )


_STORE = SqliteSessionService(_DIR / "api.db")
_APP = _desk(_STORE)
# A body over the server's limit is refused with 413 (documented on every route with a body):
# a schema-violating request schemathesis makes that large (a text one character too long,
# written as escaped surrogate pairs) is refused, only by a status its defaults do not list.
_CONFIG = schemathesis.config.SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": [
                    *("400", "401", "403", "404", "405", "406", "409", "413", "415", "422"),
                    *("428", "429", "5xx"),
                ]
            }
        }
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP, config=_CONFIG)

_ADMIN_WRITES = {("PUT", "/state/app"), ("PATCH", "/state/app")}


@schema.auth()
class _Keys:
    """Ana's key on every route; the admin's where only an admin may write."""

    def get(self, case: Any, ctx: Any) -> str:
        return ADMIN_KEY if (case.method.upper(), case.path) in _ADMIN_WRITES else ANA_KEY

    def set(self, case: Any, data: str, ctx: Any) -> None:
        case.headers = {**(case.headers or {}), **auth(data)}


def _finite(case: Any) -> None:
    # A follow stream ends only when its client leaves, and the in-process client reads
    # whole bodies (test_server_follow.py covers following on a real server).
    if case.query and str(case.query.get("follow", "")).lower() in {"true", "1", "yes", "on"}:
        case.query["follow"] = "false"


REAL_SESSION = "s-1"
"""A session of ana's, the id the schema gives as its example: requests built from the
examples reach real data, not only 404s."""


@pytest.fixture(scope="module", autouse=True)
def _store() -> Iterator[None]:
    asyncio.run(_STORE.create_session(app_name="agentlog", user_id="ana", session_id=REAL_SESSION))
    yield
    asyncio.run(_STORE.close())


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    phases=PHASES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_route_keeps_its_contract(case: Any) -> None:
    _finite(case)
    case.call_and_validate()


class _Sequences(schema.as_state_machine()):  # type: ignore[misc]
    """Each sequence runs on an app of its own over an empty store: one replayed (to shrink
    it, or from Hypothesis's example database) meets the answers it met the first time, which
    the choice of its next steps depends on."""

    def setup(self) -> None:
        self.app = _desk(InMemorySessionService())

    def before_call(self, case: Any) -> None:
        _finite(case)

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        # Also what the checks that send again (without a key, say) send with.
        return {"app": self.app}


TestSequencesKeepTheContract = _Sequences.TestCase
TestSequencesKeepTheContract.settings = settings(
    max_examples=MAX_EXAMPLES,
    stateful_step_count=6,
    phases=PHASES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


# What schemathesis found once, pinned down on its own.


def test_options_and_405_list_every_method_of_the_path() -> None:
    client = TestClient(_APP)
    options = client.options("/state/app")
    assert options.status_code == 204
    assert options.headers["allow"] == "GET, OPTIONS, PATCH, PUT"
    refused = client.put("/sessions", headers=auth(ANA_KEY))
    assert refused.status_code == 405
    assert refused.headers["allow"] == "GET, OPTIONS, POST"
    # A mounted app keeps its own answer.
    assert client.post("/static/app.js").headers["allow"] == "GET, HEAD"


def test_a_body_that_is_not_utf8_is_malformed_json() -> None:
    response = TestClient(_APP).post(
        "/sessions",
        content=b'{"state": {"\xff": 1}}',
        headers={**auth(ANA_KEY), "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert problem["type"] == "json_invalid"
    assert problem["ctx"] == {"error": "the body is not UTF-8"}


def test_the_documented_blank_text_is_what_the_runner_refuses() -> None:
    blank = re.compile(BLANK_PATTERN)
    for code in range(0x110000):
        char = chr(code)
        assert (blank.match(char) is not None) == (not char.strip()), hex(code)


def test_a_blank_text_is_refused_before_a_turn_starts() -> None:
    response = TestClient(_APP).post(
        f"/sessions/{REAL_SESSION}/messages", json={"text": "\x1f\u3000"}, headers=auth(ANA_KEY)
    )
    assert response.status_code == 422  # the runner's InvalidMessageError
    assert response.json() == {"detail": "the message is empty"}
