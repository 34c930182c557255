"""An append's bookkeeping: the history shared, not copied, and the checks it skips safe.

A SQLite store's event cache keeps the very tuple of events the caller gets back from an
append, so a session appended to again and again is not copied whole once more per append;
and the identifier checks an append skips for ids that passed before still refuse ids that
did not (a session or event changed without validation, ``model_copy``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentlog import Content, Event, InvalidEventError, SqliteSessionService

APP, USER = "sharing", "u1"


def said(text: str, invocation_id: str = "inv", author: str = "agent") -> Event:
    return Event(invocation_id=invocation_id, author=author, content=Content.from_text(text))


async def test_the_cache_keeps_the_tuple_the_caller_gets_back(tmp_path: Path) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    try:
        made = await store.create_session(app_name=APP, user_id=USER)
        session = await store.append_event(made, said("one"))
        loaded = await store.get_session(app_name=APP, user_id=USER, session_id=made.id)
        key = (APP, USER, made.id)
        assert store._cache is not None
        for text in ("two", "three", "four"):
            loaded = await store.append_event(loaded, said(text))
            cached = store._cache.peek(key)
            assert cached is not None
            assert cached.events is loaded.events  # one tuple for both: no second copy
        again = await store.get_session(app_name=APP, user_id=USER, session_id=made.id)
        assert [e.text() for e in again.events] == ["one", "two", "three", "four"]
        assert again.events is loaded.events
        assert session.version == 1  # the session appended to first is left as it was
    finally:
        await store.close()


async def test_ids_changed_without_validation_are_refused_after_good_ones(
    tmp_path: Path,
) -> None:
    store = SqliteSessionService(tmp_path / "s.db")
    try:
        session = await store.create_session(app_name=APP, user_id=USER)
        session = await store.append_event(session, said("fine", "inv-1", "agent"))
        with pytest.raises(InvalidEventError):
            await store.append_event(session.model_copy(update={"user_id": "u\x00"}), said("x"))
        for bad in ({"invocation_id": ""}, {"author": "a\x00"}, {"id": ""}):
            event = said("x", "inv-1", "agent").model_copy(update=bad)
            with pytest.raises(InvalidEventError):
                await store.append_event(session, event)
        stored = await store.get_session(app_name=APP, user_id=USER, session_id=session.id)
        assert [e.text() for e in stored.events] == ["fine"]
    finally:
        await store.close()
