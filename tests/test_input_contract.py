"""The input contract (``agentlog.limits``, SPEC 9) through the library, on every store.

The same hostile input (NaN, infinities, ``1e999``, huge integers, lone surrogates, NUL, keys,
ids and values over their limits, deep nesting) gives the same typed error from the in-memory,
SQLite and PostgreSQL stores, writes nothing, and leaves every session, user and app state
loadable. And by property: whatever an append or a create accepts loads back equal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from agentlog import (
    Content,
    Event,
    EventActions,
    InMemorySessionService,
    Part,
    Session,
    SqliteSessionService,
)
from agentlog._frozen import FrozenDict
from agentlog.errors import (
    InvalidUnicodeError,
    InvalidValueError,
    NonFiniteNumberError,
    NulCharacterError,
    ValueTooDeepError,
    ValueTooLargeError,
)
from agentlog.events import CredentialRequest, FunctionCall, ToolConfirmation
from agentlog.limits import MAX_DEPTH, MAX_EVENT_BYTES, MAX_ID_BYTES, MAX_KEY_BYTES, MAX_VALUE_BYTES
from agentlog.sessions.base import SessionService
from agentlog.sessions.codec import encode_value

APP = "contract"
ANA, BEN = "ana", "ben"

STORES = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionService]:
    service: SessionService
    if request.param == "memory":
        service = InMemorySessionService()
    elif request.param == "sqlite":
        service = SqliteSessionService(tmp_path / "contract.db")
    else:
        from agentlog.sessions.postgres import PostgresSessionService

        dsn = request.getfixturevalue("postgres_dsn")
        service = PostgresSessionService(dsn, schema=request.getfixturevalue("postgres_schema"))
    yield service
    await service.close()


def nest(depth: int) -> Any:
    """A value of ``depth`` nested arrays around a number."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def said(text: str = "hello", **actions: Any) -> Event:
    return Event(
        invocation_id="inv-1",
        author="agent",
        content=Content.from_text(text, role="model"),
        actions=EventActions(**actions),
    )


def unchecked(event: Event, **changes: Any) -> Event:
    """``event`` changed without validation (``model_copy``), as a careless caller might: what
    the store itself must refuse."""
    actions = changes.pop("actions", None)
    if actions is not None:
        changes["actions"] = event.actions.model_copy(update=actions)
    return event.model_copy(update=changes)


# --- the hostile inputs -----------------------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    """An input outside the contract, and what every store must answer it with."""

    name: str
    value: Any
    error: type[InvalidValueError]
    where: str = ""
    """Where the error says it is, after the key or field it was given as."""

    def __repr__(self) -> str:
        return self.name


BAD_VALUES = [
    Bad("nan", float("nan"), NonFiniteNumberError),
    Bad("infinity", float("inf"), NonFiniteNumberError),
    Bad("-infinity", float("-inf"), NonFiniteNumberError),
    Bad("1e999", json.loads("1e999"), NonFiniteNumberError),  # how Python parses it
    Bad("an integer over 1.8e308", 10**400, NonFiniteNumberError),
    Bad("nested nan", {"a": [1, {"b": float("nan")}]}, NonFiniteNumberError, "['a'][1]['b']"),
    Bad("a lone surrogate", "caf\ud800", InvalidUnicodeError),
    Bad(
        "a lone surrogate in a nested key",
        {"ok": {"\udfff": 1}},
        InvalidUnicodeError,
        "['ok']['\\udfff']",  # the key itself, ASCII-safe
    ),
    Bad(f"{MAX_DEPTH + 1} deep", nest(MAX_DEPTH + 1), ValueTooDeepError, "[0]" * 8 + "..."),
    Bad("100,000 deep", nest(100_000), ValueTooDeepError, "[0]" * 8 + "..."),
    Bad("a string of 1 MiB", "x" * MAX_VALUE_BYTES, ValueTooLargeError),  # + 2 quotes
    # Short enough counted in characters; each one is written as six bytes (\u0001).
    Bad("escapes over 1 MiB", "\x01" * (MAX_VALUE_BYTES // 6 + 1), ValueTooLargeError),
]

BAD_KEYS = [
    Bad("a NUL", "a\x00b", NulCharacterError),
    Bad("a user key with a NUL", "user:\x00", NulCharacterError),
    Bad("a lone surrogate", "k\ud800", InvalidUnicodeError),
    # 513 characters, but 1,026 bytes of UTF-8.
    Bad("a key over the limit", "é" * (MAX_KEY_BYTES // 2 + 1), ValueTooLargeError),
    Bad("an app key over the limit", "app:" + "k" * (MAX_KEY_BYTES - 3), ValueTooLargeError),
]

BAD_IDS = [
    Bad("a NUL", "s\x00", NulCharacterError),
    Bad("a lone surrogate", "s\udc00", InvalidUnicodeError),
    Bad("an id over the limit", "é" * (MAX_ID_BYTES // 2 + 1), ValueTooLargeError),
]


def shown(key: str) -> str:
    """A key as errors show it: ASCII-safe, cut at 40 characters."""
    return f"[{key[:40]!a}...]" if len(key) > 40 else f"[{key!a}]"


# --- the world every case runs in, and what must still load after it ---------------------------


async def populate(store: SessionService) -> tuple[Session, Session]:
    """Two users' sessions with app, user and session state and a few events."""
    first = await store.create_session(
        app_name=APP, user_id=ANA, session_id="s1", state={"k": 1, "user:tier": "gold"}
    )
    first = await store.append_event(first, said(state_delta={"app:limit": 50, "n": [1, 2.5]}))
    other = await store.create_session(app_name=APP, user_id=BEN, session_id="s2")
    await store.append_event(other, said("hi ben", state_delta={"user:tier": "silver"}))
    return first, other


async def everything(store: SessionService) -> dict[str, Any]:
    """Every session (state and events), user and app state of the app, loaded."""
    sessions = await store.list_sessions(app_name=APP)
    loaded = {
        s.id: await store.get_session(app_name=APP, user_id=s.user_id, session_id=s.id)
        for s in sessions
    }
    return {
        "sessions": {sid: (s.state, s.events, s.version) for sid, s in loaded.items()},
        "listed": sorted((s.user_id, s.id, s.version) for s in sessions),
        "app": await store.get_app_state(app_name=APP),
        "users": {u: await store.get_user_state(app_name=APP, user_id=u) for u in (ANA, BEN)},
    }


Op = Callable[[SessionService, Session], Awaitable[Any]]


async def refused(
    store: SessionService, op: Op, error: type[InvalidValueError], where: str
) -> InvalidValueError:
    """Run ``op`` on a populated store: it raises exactly ``error`` naming ``where``, and every
    record reads back as it was."""
    if not await store.list_sessions(app_name=APP):
        await populate(store)
    session = await store.get_session(app_name=APP, user_id=ANA, session_id="s1")
    before = await everything(store)
    with pytest.raises(InvalidValueError) as caught:
        await op(store, session)
    assert type(caught.value) is error, caught.value
    assert caught.value.where == where
    assert str(caught.value).isascii()  # a message can always be sent
    assert await everything(store) == before
    return caught.value


# --- appends ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_VALUES, ids=repr)
async def test_a_bad_state_value_is_refused_alike_and_writes_nothing(
    store: SessionService, bad: Bad
) -> None:
    for key in ("k", "user:k", "app:k"):  # each scope's table

        async def append(store: SessionService, session: Session, key: str = key) -> Any:
            bypass = unchecked(said(), actions={"state_delta": FrozenDict({key: bad.value})})
            return await store.append_event(session, bypass)

        await refused(store, append, bad.error, f"state_delta{shown(key)}{bad.where}")


@pytest.mark.parametrize("bad", BAD_KEYS, ids=repr)
async def test_a_bad_state_key_is_refused_alike_and_writes_nothing(
    store: SessionService, bad: Bad
) -> None:
    async def append(store: SessionService, session: Session) -> Any:
        bypass = unchecked(said(), actions={"state_delta": FrozenDict({bad.value: 1})})
        return await store.append_event(session, bypass)

    await refused(store, append, bad.error, f"state_delta{shown(bad.value)}")


@pytest.mark.parametrize("field", ["id", "invocation_id", "author"])
@pytest.mark.parametrize("bad", BAD_IDS, ids=repr)
async def test_a_bad_event_id_is_refused_alike_and_writes_nothing(
    store: SessionService, bad: Bad, field: str
) -> None:
    async def append(store: SessionService, session: Session) -> Any:
        return await store.append_event(session, unchecked(said(), **{field: bad.value}))

    await refused(store, append, bad.error, field)


@pytest.mark.parametrize("field", ["id", "invocation_id", "author"])
@pytest.mark.parametrize(
    "value", ["", 7, None, "\u00e9t\u00e9"], ids=["empty", "an int", "None", "non-ASCII"]
)
async def test_an_event_id_that_is_empty_or_not_a_string_is_refused_and_non_ascii_is_not(
    store: SessionService, field: str, value: Any
) -> None:
    # An append checks its six identifiers joined first: what fails that check must still
    # be judged one by one (an empty or non-string id refused, naming its field; valid
    # non-ASCII accepted).
    async def append(store: SessionService, session: Session) -> Any:
        return await store.append_event(session, unchecked(said(), **{field: value}))

    if value == "\u00e9t\u00e9":
        await populate(store)
        session = await store.get_session(app_name=APP, user_id=ANA, session_id="s1")
        after = await append(store, session)
        assert after.events[-1].__dict__[field] == value
        return
    await refused(store, append, InvalidValueError, field)


async def test_ids_within_their_limit_are_accepted_though_together_past_it(
    store: SessionService,
) -> None:
    await populate(store)
    session = await store.get_session(app_name=APP, user_id=ANA, session_id="s1")
    long = "i" * MAX_ID_BYTES
    after = await store.append_event(
        session, unchecked(said(), id=long, invocation_id=long, author=long)
    )
    assert [after.events[-1].id, after.events[-1].author] == [long, long]


async def test_text_that_cannot_be_encoded_is_refused_alike(store: SessionService) -> None:
    async def append(store: SessionService, session: Session) -> Any:
        content = Content.model_construct(
            role="model", parts=(Part.model_construct(text="\ud800"),)
        )
        return await store.append_event(session, unchecked(said(), content=content))

    await refused(store, append, InvalidUnicodeError, "the event")


async def test_an_event_over_the_size_limit_is_refused_alike(store: SessionService) -> None:
    # Each part is a valid value; together they are over the limit for one stored event.
    text = "x" * (MAX_EVENT_BYTES // 4)
    event = Event(
        invocation_id="inv-1",
        author="agent",
        content=Content(role="model", parts=tuple(Part.from_text(text) for _ in range(5))),
    )

    async def append(store: SessionService, session: Session) -> Any:
        return await store.append_event(session, event)

    error = await refused(store, append, ValueTooLargeError, "the event")
    assert isinstance(error, ValueTooLargeError)
    assert error.limit == MAX_EVENT_BYTES


async def test_a_session_with_bad_ids_refuses_an_append(store: SessionService) -> None:
    async def append(store: SessionService, session: Session) -> Any:
        forged = session.model_copy(update={"user_id": "ana\x00"})
        return await store.append_event(forged, said())

    await refused(store, append, NulCharacterError, "user_id")


# --- creates and reads ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_VALUES, ids=repr)
async def test_a_bad_initial_value_is_refused_alike_and_creates_nothing(
    store: SessionService, bad: Bad
) -> None:
    async def create(store: SessionService, session: Session) -> Any:
        state = {"fine": 1, "user:k": bad.value}
        return await store.create_session(app_name=APP, user_id=ANA, session_id="new", state=state)

    await refused(store, create, bad.error, f"state['user:k']{bad.where}")


@pytest.mark.parametrize("bad", BAD_KEYS, ids=repr)
async def test_a_bad_initial_key_is_refused_alike_and_creates_nothing(
    store: SessionService, bad: Bad
) -> None:
    async def create(store: SessionService, session: Session) -> Any:
        return await store.create_session(app_name=APP, user_id=ANA, state={bad.value: 1})

    await refused(store, create, bad.error, f"state{shown(bad.value)}")


@pytest.mark.parametrize("field", ["app_name", "user_id", "session_id"])
@pytest.mark.parametrize("bad", BAD_IDS, ids=repr)
async def test_bad_ids_are_refused_alike_on_create(
    store: SessionService, bad: Bad, field: str
) -> None:
    async def create(store: SessionService, session: Session) -> Any:
        ids = {"app_name": APP, "user_id": ANA, "session_id": "new", field: bad.value}
        return await store.create_session(**ids)

    await refused(store, create, bad.error, field)


READS: dict[str, Callable[[SessionService, str], Awaitable[Any]]] = {
    "get_session": lambda s, bad: s.get_session(app_name=APP, user_id=ANA, session_id=bad),
    "get_session of a user": lambda s, bad: s.get_session(
        app_name=APP, user_id=bad, session_id="s1"
    ),
    "delete_session": lambda s, bad: s.delete_session(app_name=APP, user_id=ANA, session_id=bad),
    "list_sessions": lambda s, bad: s.list_sessions(app_name=APP, user_id=bad),
    "get_app_state": lambda s, bad: s.get_app_state(app_name=bad),
    "get_user_state": lambda s, bad: s.get_user_state(app_name=APP, user_id=bad),
}


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("bad", BAD_IDS, ids=repr)
async def test_bad_ids_are_refused_alike_on_reads(
    store: SessionService, bad: Bad, read: str
) -> None:
    # No store could hold such an id; PostgreSQL cannot even be asked about one.
    where = {
        "get_app_state": "app_name",
        "get_session": "session_id",
        "delete_session": "session_id",
    }
    await refused(
        store, lambda s, _: READS[read](s, bad.value), bad.error, where.get(read, "user_id")
    )


# --- events refuse bad values when they are made ----------------------------------------------


EVENT_FIELDS: dict[str, Callable[[Any], Any]] = {
    "state_delta": lambda v: EventActions(state_delta={"k": v}),
    "args": lambda v: FunctionCall(id="c1", name="lookup", args={"k": v}),
    "response": lambda v: Part.from_function_response("lookup", {"k": v}, "c1"),
    "payload": lambda v: ToolConfirmation(hint="ok?", payload={"k": v}),
    "params": lambda v: CredentialRequest(auth_type="api_key", params={"k": v}),
    "provider_metadata": lambda v: Part(text="hi", provider_metadata={"k": v}),
    "nested in an event": lambda v: Event(
        invocation_id="i", author="a", actions={"state_delta": {"k": v}}
    ),
}


@pytest.mark.parametrize("field", EVENT_FIELDS)
@pytest.mark.parametrize(
    "bad", [b for b in BAD_VALUES if b.error is not ValueTooLargeError], ids=repr
)
def test_every_json_field_refuses_a_bad_value_with_its_typed_error(bad: Bad, field: str) -> None:
    with pytest.raises(bad.error):
        EVENT_FIELDS[field](bad.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Part(text="caf\ud800"),
        lambda: Event(invocation_id="i", author="a\udc00"),
        lambda: Event(invocation_id="i", author="a", error_message="\ud800"),
        lambda: Event(invocation_id="i", author="a", long_running_tool_ids=["c\ud800"]),
        lambda: FunctionCall(id="c\ud800", name="lookup"),
        lambda: EventActions(transfer_to_agent="b\ud800"),
        lambda: EventActions(artifact_delta={"f\ud800": 1}),
        lambda: Event(
            invocation_id="i", author="a", content={"role": "user", "parts": [{"text": "\udfff"}]}
        ),
    ],
)
def test_every_string_field_refuses_a_lone_surrogate(make: Callable[[], Any]) -> None:
    with pytest.raises(InvalidUnicodeError):
        make()


@pytest.mark.parametrize("field", ["invocation_id", "author", "id"])
def test_event_ids_refuse_nul_and_oversize(field: str) -> None:
    with pytest.raises(NulCharacterError):
        Event(**{"invocation_id": "i", "author": "a", field: "x\x00"})
    with pytest.raises(ValueTooLargeError):
        Event(**{"invocation_id": "i", "author": "a", field: "x" * (MAX_ID_BYTES + 1)})
    Event(**{"invocation_id": "i", "author": "a", field: "x" * MAX_ID_BYTES})


def test_nul_is_fine_inside_values_and_texts() -> None:
    event = said("nul \x00 here", state_delta={"k": {"z": "\x00", "\x00": 1}})
    assert event.text() == "nul \x00 here"


def test_values_at_the_limits_are_accepted() -> None:
    EventActions(state_delta={"k": nest(MAX_DEPTH), "é" * (MAX_KEY_BYTES // 2): 1})
    EventActions(state_delta={"k": "x" * (MAX_VALUE_BYTES - 2)})  # exactly the limit, quoted
    EventActions(state_delta={"k": int(sys.float_info.max), "m": -sys.float_info.max})


def test_the_state_encoder_refuses_what_its_reader_refuses() -> None:
    # The last line of defence: a state row is never written as NaN for the loader to refuse.
    with pytest.raises(NonFiniteNumberError):
        encode_value({"k": float("nan")})


# --- by property: what is accepted loads back equal --------------------------------------------


def acceptable(key: str, value: Any) -> bool:
    """The contract for one state entry, spelled independently of ``agentlog.limits``."""

    def depth(v: Any) -> int:
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        return 0

    def numbers(v: Any) -> list[int | float]:
        if isinstance(v, dict):
            return [n for x in v.values() for n in numbers(x)]
        if isinstance(v, list):
            return [n for x in v for n in numbers(x)]
        return [v] if isinstance(v, int | float) and not isinstance(v, bool) else []

    try:
        key_bytes = key.encode()
        encoded = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        value_bytes = encoded.encode()
    except (ValueError, UnicodeEncodeError):
        return False
    return (
        "\x00" not in key
        and len(key_bytes) <= MAX_KEY_BYTES
        and len(value_bytes) <= MAX_VALUE_BYTES
        and depth(value) <= MAX_DEPTH
        and all(abs(n) <= sys.float_info.max for n in numbers(value))
    )


_odd_chars = st.sampled_from(["a", "é", "\x00", "\ud800", "\udfff", "😀", "\n"])
_odd_text = st.lists(_odd_chars, max_size=6).map("".join)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**400, -(10**309), int(sys.float_info.max), 2**63])
    | st.floats()  # NaN and infinities included
    | st.text(max_size=8)
    | _odd_text
)
hostile_values = (
    st.recursive(
        _scalars,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.text(max_size=3) | _odd_text, inner, max_size=3)
        ),
        max_leaves=8,
    )
    | st.integers(MAX_DEPTH - 1, MAX_DEPTH + 1).map(nest)
    | st.sampled_from([MAX_VALUE_BYTES - 2, MAX_VALUE_BYTES - 1]).map(lambda n: "x" * n)
)
hostile_keys = (
    st.sampled_from(["", "user:", "app:"]).flatmap(
        lambda prefix: (
            st.text(min_size=1, max_size=6)
            | st.lists(_odd_chars, min_size=1, max_size=6).map("".join)
        ).map(lambda k: prefix + k)
    )
    | st.sampled_from(["é" * (MAX_KEY_BYTES // 2), "é" * (MAX_KEY_BYTES // 2 + 1)])
).filter(lambda k: k not in ("user:", "app:", "temp:") and not k.startswith("temp:"))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(entries=st.lists(st.tuples(hostile_keys, hostile_values), min_size=1, max_size=3))
async def test_any_accepted_append_loads_back_equal(
    store: SessionService, entries: list[tuple[str, Any]]
) -> None:
    session = await store.create_session(app_name=APP, user_id=ANA)
    delta = dict(entries)
    ok = all(acceptable(k, v) for k, v in delta.items())
    try:
        made = said(state_delta=delta)
    except InvalidValueError:
        event("refused")
        assert not ok, delta
        # The store refuses the same delta given without validation, and writes nothing.
        bypass = unchecked(said(), actions={"state_delta": FrozenDict(delta)})
        with pytest.raises(InvalidValueError):
            await store.append_event(session, bypass)
        reloaded = await store.get_session(app_name=APP, user_id=ANA, session_id=session.id)
        assert reloaded.version == 0
        return
    event("accepted")
    assert ok, delta
    after = await store.append_event(session, made)
    loaded = await store.get_session(app_name=APP, user_id=ANA, session_id=session.id)
    assert loaded.events == after.events
    assert loaded.state == after.state
    assert await store.get_user_state(app_name=APP, user_id=ANA) == {
        k.removeprefix("user:"): v for k, v in after.state.items() if k.startswith("user:")
    }
    assert await store.get_app_state(app_name=APP) == {
        k.removeprefix("app:"): v for k, v in after.state.items() if k.startswith("app:")
    }


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(entries=st.lists(st.tuples(hostile_keys, hostile_values), min_size=1, max_size=3))
async def test_any_accepted_create_loads_back_equal(
    store: SessionService, entries: list[tuple[str, Any]]
) -> None:
    state = dict(entries)
    ok = all(acceptable(k, v) for k, v in state.items())
    try:
        created = await store.create_session(app_name=APP, user_id=BEN, state=state)
    except InvalidValueError:
        event("refused")
        assert not ok, state
        assert await store.list_sessions(app_name=APP, user_id=BEN) == []
        return
    event("accepted")
    assert ok, state
    loaded = await store.get_session(app_name=APP, user_id=BEN, session_id=created.id)
    assert loaded.state == created.state
    await store.delete_session(app_name=APP, user_id=BEN, session_id=created.id)
