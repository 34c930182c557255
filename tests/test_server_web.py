"""The web page's files as the server serves them (no browser needed; see test_web_page.py
for the page in Chromium)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from agentlog import SqliteSessionService
from agentlog.server.web import STATIC_DIR
from server_support import ANA_KEY, auth, desk_app, sqlite


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteSessionService]:
    service = sqlite(tmp_path)
    yield service
    await service.close()


@pytest.fixture
async def http(store: SqliteSessionService) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a server with keys, holding none."""
    transport = httpx.ASGITransport(app=desk_app(store))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def test_the_page_needs_no_key_and_allows_only_its_own_origin(
    http: httpx.AsyncClient,
) -> None:
    page = await http.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    assert "script-src 'self'" in policy
    assert "connect-src 'self'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert '<script type="module" src="/static/app.js"></script>' in page.text
    # The API itself still wants a key.
    assert (await http.get("/sessions")).status_code == 401
    assert (await http.get("/sessions", headers=auth(ANA_KEY))).status_code == 200


async def test_every_file_the_page_loads_is_served(http: httpx.AsyncClient) -> None:
    page = (await http.get("/")).text
    wanted = set(re.findall(r'(?:src|href)="/static/([^"]+)"', page))
    assert {"app.js", "app.css"} <= wanted
    # Modules import each other by relative path.
    for path in sorted(STATIC_DIR.glob("*.js")):
        wanted |= set(re.findall(r'from "\./([^"]+)"', path.read_text(encoding="utf-8")))
    for name in sorted(wanted):
        asset = await http.get(f"/static/{name}")
        assert asset.status_code == 200, name
        assert asset.headers["cache-control"] == "no-cache"
        kind = "text/css" if name.endswith(".css") else "javascript"
        assert kind in asset.headers["content-type"], name
    on_disk = {p.name for p in STATIC_DIR.iterdir()}
    assert on_disk == wanted | {"index.html"}  # nothing shipped that the page does not use


async def test_nothing_outside_the_static_folder_is_served(http: httpx.AsyncClient) -> None:
    assert (await http.get("/static/missing.js")).status_code == 404
    assert (await http.get("/static/../web.py")).status_code == 404
    assert (await http.get("/static/%2e%2e/web.py")).status_code == 404


async def test_the_page_is_not_part_of_the_api_schema(http: httpx.AsyncClient) -> None:
    paths = (await http.get("/openapi.json")).json()["paths"]
    assert "/" not in paths
    assert not any(p.startswith("/static") for p in paths)
