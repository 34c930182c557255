"""API keys, key files, the local mode and ``agentlog serve``'s refusal to expose it."""

from __future__ import annotations

import asyncio
import builtins
import hashlib
import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from agentlog.cli.loading import load_agent
from agentlog.cli.serve import register
from agentlog.server.auth import Caller, KeyRing, is_loopback, parse_key_spec, read_keys_file


def test_keys_are_kept_hashed_and_map_to_users() -> None:
    ring = KeyRing({"secret-ana": "ana"}, {"secret-root": "root"})
    assert ring.identify("secret-ana") == Caller("ana")
    assert ring.identify("secret-root") == Caller("root", admin=True)
    assert ring.identify("secret-an") is None
    assert ring.identify("") is None
    assert not ring.local
    assert ring.users == {"ana", "root"}
    assert "secret-ana" not in repr(vars(ring))


def test_a_hashed_key_in_the_config_matches_its_plain_key() -> None:
    hashed = "sha256:" + hashlib.sha256(b"secret-ben").hexdigest()
    assert KeyRing({hashed: "ben"}).identify("secret-ben") == Caller("ben")


def test_one_key_for_two_users_is_refused() -> None:
    with pytest.raises(ValueError, match="two different"):
        KeyRing({"k": "ana"}, {"k": "root"})


def test_key_specs() -> None:
    assert parse_key_spec("abc==:x=ana") == ("abc==:x", "ana")
    assert parse_key_spec("abc==", default_user="admin") == ("abc==", "admin")
    bad = {"=ana": "is empty", "abc": "no user", "abc=an a": "user id", "abc=agentlog:x": "user id"}
    for spec, problem in bad.items():
        with pytest.raises(ValueError, match=problem) as info:
            parse_key_spec(spec)
        assert "abc" not in str(info.value)  # never echoes the key


def test_keys_file(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    hashed = "sha256:" + "ab" * 32
    path.write_text(f"# keys\n\nk1=ana\n{hashed}=ben\nadmin k2=root\n", encoding="utf-8")
    assert read_keys_file(path) == ({"k1": "ana", hashed: "ben"}, {"k2": "root"})
    path.write_text("k1=ana\nbroken\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_keys_file(path)


def test_loopback_addresses() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.8.8", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "10.0.0.1", "example.com", None))


def cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command, so typer keeps "serve" as a subcommand
        pass

    return app


async def close(server: Any) -> None:
    await server.store.close()
    await server.summaries.close()
    await server.memory.close()


def test_serve_refuses_another_address_without_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: ran.append(k))
    result = CliRunner().invoke(cli(), ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "no API keys" in result.output
    assert ran == []


def test_serve_defaults_to_the_offline_desk_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    ran: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **k: ran.append((app, k)))
    db = tmp_path / "served.db"
    result = CliRunner().invoke(cli(), ["serve", "--db", str(db), "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "one local user" in result.output
    [(app, options)] = ran
    assert options == {"host": "127.0.0.1", "port": 8123, "log_level": "info"}
    server = app.state.agentlog
    assert server.runner.agent.name == "desk"
    assert server.keys.local
    assert db.exists()
    assert server.summarizer is not None
    assert server.memory is not None
    asyncio.run(close(server))


def test_serve_with_keys_may_listen_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **k: ran.append(app))
    keys = tmp_path / "keys"
    keys.write_text("admin k0=root\n", encoding="utf-8")
    args = ["serve", "--db", str(tmp_path / "k.db"), "--host", "0.0.0.0"]
    args += ["--api-key", "k1=ana", "--api-keys-file", str(keys), "--admin-key", "k2"]
    result = CliRunner().invoke(cli(), args)
    assert result.exit_code == 0, result.output
    asyncio.run(close(ran[0].state.agentlog))
    ring = ran[0].state.agentlog.keys
    assert (ring.identify("k1"), ring.identify("k0"), ring.identify("k2")) == (
        Caller("ana"),
        Caller("root", admin=True),
        Caller("admin", admin=True),
    )


def test_serve_reports_a_bad_agent(tmp_path: Path) -> None:
    for args in (["--agent", "no_such_module:x"], ["--model", "nope:model"]):
        result = CliRunner().invoke(cli(), ["serve", "--db", str(tmp_path / "x.db"), *args])
        assert result.exit_code == 2, result.output


def test_load_agent() -> None:
    agent = load_agent("agentlog.server.desk:refund_desk")
    assert agent.name == "desk"
    with pytest.raises(ValueError, match="module:object"):
        load_agent("agentlog.server.desk")
    with pytest.raises(ValueError, match="not an agent"):
        load_agent("agentlog.server.desk:GREETING")


def test_importing_without_fastapi_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_fastapi(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "fastapi" or name.startswith("fastapi."):
            raise ImportError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    for module in [
        m for m in sys.modules if m == "agentlog.server" or m.startswith("agentlog.server.")
    ]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setattr(builtins, "__import__", no_fastapi)
    with pytest.raises(ImportError, match=r"pip install 'agentlog\[server\]'"):
        importlib.import_module("agentlog.server")


def test_the_public_surface_and_frozen_bodies() -> None:
    import inspect

    import agentlog.server
    from agentlog.server import schemas

    assert agentlog.server.__all__ == ["RunnerFactory", "create_app"]
    models = [
        obj
        for _, obj in inspect.getmembers(schemas, inspect.isclass)
        if obj.__module__ == schemas.__name__ and hasattr(obj, "model_config")
    ]
    assert len(models) > 10
    for model in models:
        assert model.model_config.get("frozen"), model.__name__
        assert model.model_config.get("extra") == "forbid", model.__name__
