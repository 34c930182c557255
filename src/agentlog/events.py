"""The event contract: ``Event``, ``EventActions`` and the content they carry.

An event is an immutable, validated value. Every model here is frozen, rejects unknown fields,
and holds only read-only containers, so a stored event can never be edited in place: a change
to the world is a new event whose ``actions`` say what it does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Final, Literal, Self, TypeVar, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    JsonValue,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from agentlog._frozen import FrozenDict, FrozenJson, FrozenJsonDict, freeze
from agentlog.ids import new_event_id
from agentlog.limits import (
    check_identifier,
    check_state,
    check_text,
    check_value,
    contract_error,
    where_key,
)

__all__ = [
    "REMOVED",
    "STORED",
    "ArtifactRef",
    "CheckedDelta",
    "CodeExecutionResult",
    "Content",
    "CredentialRequest",
    "ErrorCode",
    "Event",
    "EventActions",
    "EventCompaction",
    "FunctionCall",
    "FunctionResponse",
    "Part",
    "Removed",
    "StateDelta",
    "ToolConfirmation",
    "Usage",
]


STORED: Final[Mapping[str, bool]] = FrozenDict({"stored": True})
"""The validation context of a payload read back from a store. The input contract
(:mod:`agentlog.limits`) was checked when it was written, so reading skips it: loading stays
fast, and a record written by an earlier release loads even where a later one is stricter."""


def _checking(info: ValidationInfo) -> bool:
    return info.context is not STORED


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False)

    def __init__(self, /, **data: Any) -> None:
        try:
            # What ``BaseModel.__init__`` does, without its frame: every event made runs this.
            self.__pydantic_validator__.validate_python(data, self_instance=self)
        except ValidationError as exc:
            # A value outside the input contract raises its own typed error, not pydantic's.
            typed = contract_error(exc)
            if typed is None:
                raise
            raise typed from None
        # Models given whole were checked when they were made (``revalidate_instances`` is
        # pydantic's "never" too); those built here from plain data are checked now.
        _check_strings(self, "", data)

    # Marked as pydantic's own (as pydantic's RootModel does), so only a call like ``Event(...)``
    # runs it, never pydantic: a payload read back from a store costs no string checks.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    _id_fields: ClassVar[tuple[str, ...]] = ()
    """The fields that are identifiers (:func:`agentlog.limits.check_identifier`)."""
    _text_fields: ClassVar[tuple[str, ...]] = ()
    """The fields whose type holds strings, JSON-valued ones aside (those are checked whole,
    before pydantic walks them: ``_json_in``)."""
    _model_fields: ClassVar[tuple[str, ...]] = ()
    """The fields whose type holds models of this module."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        fields = cls.model_fields.items()
        cls._text_fields = tuple(
            name for name, f in fields if name not in _JSON_FIELDS and _holds(f.annotation, _is_str)
        )
        cls._model_fields = tuple(name for name, f in fields if _holds(f.annotation, _is_model))
        cls._template = {name: f.default for name, f in fields}
        cls._factories = tuple(
            (name, f.default_factory)  # type: ignore[misc]
            for name, f in fields
            if f.default_factory is not None
        )

    _template: ClassVar[dict[str, Any]] = {}
    """Every field, in order, at its default (a factory's field at pydantic's placeholder)."""
    _factories: ClassVar[tuple[tuple[str, Callable[[], Any]], ...]] = ()


_FrozenT = TypeVar("_FrozenT", bound=_Frozen)
_set_attribute = object.__setattr__


def unchecked(cls: type[_FrozenT], /, **fields: Any) -> _FrozenT:
    """A ``cls`` of values that are already of their fields' types and already checked, made
    without validating them again: for drafts (a partial response, a partial event), which
    are never stored, and are made a dozen times a turn. The value equals, and dumps as, the
    one ``cls(**fields)`` makes; anything stored is made by ``cls(...)``, validated."""
    model = cls.__new__(cls)
    values = dict(cls._template)  # every field, in pydantic's order
    values.update(fields)
    for name, factory in cls._factories:
        if name not in fields:
            values[name] = factory()
    _set_attribute(model, "__dict__", values)
    _set_attribute(model, "__pydantic_fields_set__", set(fields))
    _set_attribute(model, "__pydantic_extra__", None)
    _set_attribute(model, "__pydantic_private__", None)
    return model


def _check_strings(model: _Frozen, prefix: str, given: Mapping[str, Any] | None = None) -> None:
    """Check the identifiers and strings of ``model`` and of the models it holds, but those
    that ``given`` (the data it was made from) held as models already."""
    fields = model.__dict__
    for name in model._id_fields:
        check_identifier(fields[name], prefix + name)
    for name in model._text_fields:
        value = fields[name]
        if value.__class__ is str:
            check_text(value, prefix + name)
        elif value:  # a tuple or set of strings, or a mapping keyed by them
            for item in value:
                if item.__class__ is str and not item.isascii():
                    check_text(item, where_key(prefix + name, item))
    for name in model._model_fields:
        value = fields[name]
        if not value:
            continue
        source = given.get(name) if given is not None else None
        if isinstance(value, _Frozen):
            if value is not source:
                _check_strings(value, f"{prefix}{name}.")
            continue
        # A tuple of models, or a mapping to them.
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in pairs:
            if isinstance(source, dict | list | tuple):
                try:
                    if source[key] is item:
                        continue
                except (KeyError, IndexError):
                    pass
            where = (
                where_key(prefix + name, key) if isinstance(key, str) else f"{prefix}{name}[{key}]"
            )
            _check_strings(item, where + ".")


_JSON_FIELDS: Final = frozenset(
    ("state_delta", "args", "response", "params", "payload", "provider_metadata")
)


def _holds(annotation: Any, kind: Callable[[Any], bool]) -> bool:
    """Whether a field's type is, or is made of, one that ``kind`` picks (``str | None``,
    ``tuple[Part, ...]``)."""
    return kind(annotation) or any(_holds(arg, kind) for arg in get_args(annotation))


def _is_str(annotation: Any) -> bool:
    return annotation is str  # not a str enum: its values are the enum's own


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, _Frozen)


def _json_in(value: Any, info: ValidationInfo) -> Any:
    """Check a JSON-valued field against the input contract, before pydantic walks it."""
    if _checking(info):
        check_value(value, info.field_name or "value")
    return value


# --- the REMOVED sentinel -----------------------------------------------------------------------


class Removed:
    """Type of :data:`REMOVED`; there is exactly one instance."""

    _instance: Removed | None = None

    def __new__(cls) -> Removed:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "REMOVED"

    def __reduce__(self) -> str:
        return "REMOVED"

    def __bool__(self) -> bool:
        return False

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # Written as JSON null (and ``None`` in Python mode), which reads back as REMOVED.
        return core_schema.is_instance_schema(
            cls, serialization=core_schema.plain_serializer_function_ser_schema(_as_none)
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "null", "description": "deletes the key"}


def _as_none(_: Removed) -> None:
    return None


REMOVED: Final = Removed()
"""A ``state_delta`` value that deletes its key. JSON ``null`` in a delta reads as ``REMOVED``."""


_BARE_PREFIXES: Final = frozenset(("app:", "user:", "temp:"))


class CheckedDelta(FrozenDict[str, Any]):
    """A ``state_delta`` that met the input contract (:func:`agentlog.limits.check_state`)
    when its event was validated, so a store need not check it again; read back from a store
    (:data:`STORED`), a delta is a plain ``FrozenDict``. Its contents are frozen, so it still
    holds what was checked."""

    __slots__ = ()


def _freeze_delta(value: dict[str, Any], info: ValidationInfo) -> FrozenDict[str, Any]:
    # One pass, and nested values frozen only where there are any: this runs for every event
    # read from a store, so it is on the load path.
    plain = True
    for key, item in value.items():
        if not key or key in _BARE_PREFIXES:
            raise ValueError(f"state key {key!r} is empty")
        if item is None or isinstance(item, dict | list):
            plain = False
    # ``_delta_in`` checked the delta unless it was read back from a store.
    frozen = CheckedDelta if _checking(info) else FrozenDict
    if plain:
        return frozen(value)
    return frozen(
        {k: REMOVED if v is None else v if v is REMOVED else freeze(v) for k, v in value.items()}
    )


def _delta_in(value: Any, info: ValidationInfo) -> Any:
    if _checking(info) and isinstance(value, Mapping):
        check_state(value, "state_delta")
    return value


StateDelta = Annotated[
    dict[str, JsonValue | Removed],
    BeforeValidator(_delta_in),
    AfterValidator(_freeze_delta),
]
"""Key to new value; ``REMOVED`` (or JSON ``null``) deletes the key."""


_EMPTY: Final[FrozenDict[str, Any]] = FrozenDict()
# One shared empty mapping as the default: it cannot change, and being hashable, pydantic uses
# it as is instead of calling a factory for every missing field of every event it reads.


def _freeze_map(value: dict[str, Any]) -> FrozenDict[str, Any]:
    return FrozenDict(value)


# --- content ------------------------------------------------------------------------------------


class FunctionCall(_Frozen):
    """A model's request to run a tool."""

    id: str = Field(min_length=1, description="Unique within the session; answers cite it.")
    name: str = Field(min_length=1, description="The tool's name.")
    args: FrozenJsonDict = Field(default=_EMPTY, description="Arguments.")

    _check_args = field_validator("args", mode="before")(_json_in)


class FunctionResponse(_Frozen):
    """A tool's result, answering the function call with the same ``id``."""

    id: str = Field(min_length=1, description="The id of the call this answers.")
    name: str = Field(min_length=1, description="The tool's name.")
    response: FrozenJsonDict = Field(default=_EMPTY, description="The result.")

    _check_response = field_validator("response", mode="before")(_json_in)


class CodeExecutionResult(_Frozen):
    """The outcome of code a model asked to run."""

    outcome: Literal["ok", "failed", "deadline_exceeded"] = Field(description="How it ended.")
    output: str = Field(default="", description="What it printed, or the error.")


class ArtifactRef(_Frozen):
    """A pointer to a stored artifact version, in place of its bytes."""

    name: str = Field(min_length=1, description="Artifact name.")
    version: int = Field(ge=0, description="The version saved.")
    mime_type: str | None = Field(default=None, description="Media type, if known.")
    size: int | None = Field(default=None, ge=0, description="Size in bytes, if known.")


class Part(_Frozen):
    """One piece of content: exactly one payload field is set.

    ``provider_metadata`` is not a payload: it rides along with whichever payload the part
    holds.
    """

    text: str | None = Field(default=None, description="Plain text.")
    function_call: FunctionCall | None = Field(default=None, description="A tool call.")
    function_response: FunctionResponse | None = Field(default=None, description="A tool result.")
    code_execution_result: CodeExecutionResult | None = Field(
        default=None, description="Output of executed code."
    )
    artifact_ref: ArtifactRef | None = Field(default=None, description="An artifact pointer.")
    provider_metadata: FrozenJsonDict | None = Field(
        default=None,
        description=(
            "Opaque data a provider needs back with this part, e.g. Gemini's thought "
            "signature; stored with the event."
        ),
    )

    _check_metadata = field_validator("provider_metadata", mode="before")(_json_in)

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        # provider_metadata is deliberately not counted: it is not a payload.
        count = (
            (self.text is not None)
            + (self.function_call is not None)
            + (self.function_response is not None)
            + (self.code_execution_result is not None)
            + (self.artifact_ref is not None)
        )
        if count != 1:
            raise ValueError(f"a part holds exactly one kind of payload, this one holds {count}")
        return self

    @classmethod
    def from_text(cls, text: str) -> Part:
        """A text part."""
        return cls(text=text)

    @classmethod
    def from_function_call(cls, name: str, args: Mapping[str, Any], call_id: str) -> Part:
        """A function-call part."""
        return cls(function_call=FunctionCall(id=call_id, name=name, args=dict(args)))

    @classmethod
    def from_function_response(cls, name: str, response: Mapping[str, Any], call_id: str) -> Part:
        """A function-response part."""
        return cls(
            function_response=FunctionResponse(id=call_id, name=name, response=dict(response))
        )


class Content(_Frozen):
    """What was said: a role and an ordered list of parts."""

    role: Literal["user", "model"] = Field(description="Who is speaking to the model.")
    parts: tuple[Part, ...] = Field(min_length=1, description="The parts, in order.")

    @classmethod
    def from_text(cls, text: str, role: Literal["user", "model"] = "user") -> Content:
        """Content holding one text part."""
        return cls(role=role, parts=(Part(text=text),))


# --- actions ------------------------------------------------------------------------------------


class ToolConfirmation(_Frozen):
    """A request for a human yes/no before a tool runs, and later its answer."""

    hint: str = Field(default="", description="What the human is asked to approve.")
    payload: FrozenJson = Field(default=None, description="Data shown with the request.")
    confirmed: bool | None = Field(default=None, description="The answer; None while pending.")

    _check_payload = field_validator("payload", mode="before")(_json_in)


class CredentialRequest(_Frozen):
    """A tool's request for credentials it does not have."""

    auth_type: str = Field(min_length=1, description="E.g. 'api_key', 'oauth2', 'http_bearer'.")
    hint: str = Field(default="", description="What the credential is for.")
    params: FrozenJsonDict = Field(
        default=_EMPTY, description="Scheme details (scopes, URLs, ...)."
    )

    _check_params = field_validator("params", mode="before")(_json_in)


class EventCompaction(_Frozen):
    """A summary that stands in for a range of earlier events in model history."""

    start_timestamp: float = Field(description="Timestamp of the first covered event.")
    end_timestamp: float = Field(description="Timestamp of the last covered event.")
    event_ids: tuple[str, ...] = Field(description="Ids of the covered events, in order.")
    summary: Content = Field(description="The summary, given to the model in their place.")

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.end_timestamp < self.start_timestamp:
            raise ValueError("compaction end_timestamp is before start_timestamp")
        return self


_ConfirmationMap = Annotated[dict[str, ToolConfirmation], AfterValidator(_freeze_map)]
_CredentialMap = Annotated[dict[str, CredentialRequest], AfterValidator(_freeze_map)]
_VersionMap = Annotated[dict[str, Annotated[int, Field(ge=0)]], AfterValidator(_freeze_map)]


class EventActions(_Frozen):
    """What an event does, beyond what it says."""

    state_delta: StateDelta = Field(default=_EMPTY, description="State changes; REMOVED deletes.")
    artifact_delta: _VersionMap = Field(
        default=_EMPTY, description="Artifact name to version saved."
    )
    transfer_to_agent: str | None = Field(default=None, description="Agent to hand control to.")
    escalate: bool = Field(default=False, description="Ask an enclosing loop to stop.")
    skip_summarization: bool = Field(
        default=False, description="The tool result is the answer; do not send it to the model."
    )
    requested_auth_configs: _CredentialMap = Field(
        default=_EMPTY, description="Credential requests by call id."
    )
    requested_tool_confirmations: _ConfirmationMap = Field(
        default=_EMPTY, description="Confirmation requests by call id."
    )
    compaction: EventCompaction | None = Field(
        default=None, description="Set on a compaction event."
    )

    def is_empty(self) -> bool:
        """True when the actions do nothing."""
        return self == _EMPTY_ACTIONS


_EMPTY_ACTIONS: Final = EventActions()


# --- the event ----------------------------------------------------------------------------------


class ErrorCode(StrEnum):
    """Why a model call or a turn stopped short. Map each to a user message; never show it raw."""

    SAFETY = "safety"
    """The provider stopped output on safety grounds."""
    RECITATION = "recitation"
    """The provider stopped output that repeated protected text."""
    REFUSAL = "refusal"
    """The model declined to answer."""
    MAX_TOKENS = "max_tokens"
    """The output hit its token limit."""
    CONTEXT_TOO_LONG = "context_too_long"
    """The prompt exceeded the model's context window."""
    RATE_LIMITED = "rate_limited"
    """The provider asked us to slow down."""
    TIMEOUT = "timeout"
    """The provider did not answer in time."""
    AUTHENTICATION = "authentication"
    """The provider rejected the credentials."""
    PROVIDER_ERROR = "provider_error"
    """The provider failed or was unreachable."""
    MALFORMED_OUTPUT = "malformed_output"
    """The model's output did not parse or failed its schema, after a retry."""
    MAX_LLM_CALLS = "max_llm_calls"
    """The run reached its limit of model calls."""
    TOOL_NOT_FOUND = "tool_not_found"
    """The model called a tool that does not exist."""
    AGENT_NOT_FOUND = "agent_not_found"
    """A transfer named an agent that does not exist or may not be reached."""
    INTERRUPTED = "interrupted"
    """The turn's process stopped (crashed or was killed) before the turn ended; the next
    turn on the session closed it."""
    INTERNAL = "internal"
    """A bug or an unexpected failure inside the framework or an agent."""


class Usage(_Frozen):
    """Tokens used by one model call."""

    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens.")
    output_tokens: int = Field(default=0, ge=0, description="Generated tokens.")

    @property
    def total_tokens(self) -> int:
        """Input plus output."""
        return self.input_tokens + self.output_tokens


class Event(_Frozen):
    """One immutable record of a turn: what was said (``content``) and done (``actions``)."""

    _id_fields: ClassVar[tuple[str, ...]] = ("id", "invocation_id", "author")

    id: str = Field(default_factory=new_event_id, min_length=1, description="Unique; sorts.")
    invocation_id: str = Field(min_length=1, description="The turn that produced it.")
    author: str = Field(min_length=1, description="'user' or the producing agent's name.")
    timestamp: float = Field(
        default_factory=time.time,
        ge=0,
        allow_inf_nan=False,
        description="Seconds since the epoch.",
    )
    content: Content | None = Field(default=None, description="What was said, if anything.")
    partial: bool | None = Field(default=None, description="A streamed draft; never stored.")
    turn_complete: bool | None = Field(default=None, description="Live mode: the turn ended.")
    interrupted: bool | None = Field(default=None, description="Live mode: output was cut off.")
    error_code: ErrorCode | None = Field(default=None, description="Typed finish reason.")
    error_message: str | None = Field(default=None, description="Detail for logs, not users.")
    long_running_tool_ids: frozenset[str] = Field(
        default=frozenset(), description="Calls that finish later (approvals, jobs)."
    )
    branch: str | None = Field(default=None, description="Dotted agent path, e.g. 'root.refunds'.")
    usage: Usage | None = Field(default=None, description="Tokens used by the model call.")
    model: str | None = Field(default=None, description="The model that produced it.")
    actions: EventActions = Field(default=_EMPTY_ACTIONS, description="What the event does.")

    @field_validator("long_running_tool_ids", mode="before")
    @classmethod
    def _ids_as_set(cls, value: Any) -> Any:
        return frozenset(value) if isinstance(value, list | tuple | set) else value

    # --- helpers ----------------------------------------------------------------------------

    def _parts(self) -> tuple[Part, ...]:
        return self.content.parts if self.content is not None else ()

    def function_calls(self) -> list[FunctionCall]:
        """The function calls in this event's content, in order."""
        return [p.function_call for p in self._parts() if p.function_call is not None]

    def function_responses(self) -> list[FunctionResponse]:
        """The function responses in this event's content, in order."""
        return [p.function_response for p in self._parts() if p.function_response is not None]

    def text(self) -> str:
        """The text parts joined together; empty when there are none."""
        return "".join(p.text for p in self._parts() if p.text is not None)

    def has_trailing_code_execution_result(self) -> bool:
        """True when the last part is a code-execution result."""
        parts = self._parts()
        return bool(parts) and parts[-1].code_execution_result is not None

    def is_final_response(self) -> bool:
        """Whether this event is an answer to show the user (a property of one event, not a turn).

        True when ``skip_summarization`` is set or a long-running call is pending; otherwise true
        only with no function calls, no function responses, not partial, and not ending with a
        code-execution result.
        """
        if self.actions.skip_summarization or self.long_running_tool_ids:
            return True
        return (
            not self.function_calls()
            and not self.function_responses()
            and not self.partial
            and not self.has_trailing_code_execution_result()
        )

    def is_error(self) -> bool:
        """True when the event reports an error."""
        return self.error_code is not None
