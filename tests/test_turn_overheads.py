"""What a server turn no longer pays for: thawing JSON leaves one by one, and the desk's
in-memory tools hopping to a worker thread. Each keeps the turn's behaviour."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from agentlog._frozen import FrozenDict, FrozenList, freeze, thaw
from agentlog.events import Content, FunctionResponse
from agentlog.runner import Runner
from agentlog.server.desk import refund_desk
from agentlog.sessions.memory import InMemorySessionService


class _Pairs(Mapping[str, Any]):
    """A mapping that is no dict: thawed as a mapping still."""

    def __init__(self, items: dict[str, Any]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def test_thaw_copies_every_container_and_keeps_leaves() -> None:
    frozen = freeze({"a": [1, {"b": (2.5, None)}], "c": "x", "d": True, "e": {}})
    thawed = thaw(frozen)
    assert thawed == {"a": [1, {"b": [2.5, None]}], "c": "x", "d": True, "e": {}}
    containers = [thawed, thawed["a"], thawed["a"][1], thawed["a"][1]["b"], thawed["e"]]
    assert [type(c) for c in containers] == [dict, list, dict, list, dict]
    assert not any(isinstance(c, FrozenDict | FrozenList) for c in containers)
    assert thaw(_Pairs({"k": FrozenList([1])})) == {"k": [1]}
    assert type(thaw(_Pairs({"k": 1}))) is dict


def test_a_tool_result_is_measured_as_its_json() -> None:
    # The runner sizes a function response by json.dumps of the frozen value itself.
    response = FunctionResponse(
        id="c1", name="t", response={"a": [1, {"b": [2, 3]}], "s": 'é\n"', "n": None}
    )
    as_stored = json.dumps(response.response, ensure_ascii=False)
    assert as_stored == json.dumps(thaw(response.response), ensure_ascii=False)


def test_the_desk_tools_run_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A desk turn looks the order up without a worker thread (and still answers)."""

    async def no_thread(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a desk tool ran in a worker thread")

    monkeypatch.setattr(asyncio, "to_thread", no_thread)

    async def turn() -> list[dict[str, Any]]:
        store = InMemorySessionService()
        runner = Runner(agent=refund_desk(), session_service=store)
        session = await store.create_session(app_name=runner.app_name, user_id="u")
        events = runner.run_async(
            user_id="u",
            session_id=session.id,
            new_message=Content.from_text("Where is my order A-1001?"),
        )
        return [thaw(r.response) for e in [e async for e in events] for r in e.function_responses()]

    # (A tool that raises answers its error as its result: the result says where it ran.)
    (result,) = asyncio.run(turn())
    assert "error" not in result
    assert result["order_id"] == "A-1001"
