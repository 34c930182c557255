"""Messages made of parts: text, inline data, and answers to requests.

``POST /sessions/{id}/messages`` takes either ``{"text": ...}`` (:class:`NewMessage`) or
``{"parts": [...]}``, told apart by which key the body holds. A parts message is one of two
kinds, as the runner takes them, told apart by its first part:

- **text, with files** (:class:`NewParts`): text parts (at least one) and inline data
  parts. Each inline data part (base64 bytes and a media type, within the server's body
  limit) is saved as an artifact of the session before the turn starts, named
  ``upload-<id>-<display name or index>``, and the stored message holds a reference to it
  (name, version, media type, size) in its place: the log keeps no bytes, tools load the
  file with ``ToolContext.load_artifact``, and a client downloads it at
  ``GET /sessions/{id}/artifacts/{name}``. Should the turn be refused (busy, say), the files
  saved for it are deleted again.
- **answers** (:class:`NewAnswers`): function responses answering confirmation or credential
  requests, as ``POST /sessions/{id}/approvals/{request_id}`` does one at a time; one
  message may answer every request a paused turn asked.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from fastapi import HTTPException, status
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails

from agentlog.approvals import REQUEST_CONFIRMATION, REQUEST_CREDENTIAL
from agentlog.artifacts.base import ArtifactService
from agentlog.errors import (
    ArtifactTooLargeError,
    InvalidArtifactNameError,
    RequestAlreadyAnsweredError,
)
from agentlog.events import ArtifactRef, Content, Part
from agentlog.ids import new_event_id
from agentlog.logs import get_logger
from agentlog.server.schemas import (
    _VALUES,
    BLANK_PATTERN,
    SESSION_KEYS,
    NewMessage,
    _no_app_keys,
)
from agentlog.sessions.base import GetSessionConfig, SessionService

__all__ = [
    "MAX_PARTS",
    "AnswerPart",
    "ConfirmationBody",
    "ConfirmationResponse",
    "CredentialBody",
    "CredentialResponse",
    "InlineData",
    "InlineDataPart",
    "MessageBody",
    "NewAnswers",
    "NewParts",
    "TextPart",
    "Uploads",
    "message_of",
]

logger = get_logger("agentlog.server")

MAX_PARTS: Final = 32
"""The most parts one message holds."""

MAX_TEXT: Final = 100_000
"""The longest text part, in characters (as ``NewMessage.text``)."""

MAX_DISPLAY_NAME: Final = 200
"""The longest display name: with the ``upload-<id>-`` prefix, within an artifact name's 255."""

_BASE64 = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"
"""Standard base64 with padding (RFC 4648, section 4), at least one byte."""

_TOKEN = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_MIME_TYPE = f"^{_TOKEN}/{_TOKEN}$"
"""A media type without parameters (RFC 6838's restricted names)."""


class _PartBody(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextPart(_PartBody):
    """A piece of text."""

    text: str = Field(
        min_length=1,
        max_length=MAX_TEXT,
        description="What the user says (not only whitespace).",
        json_schema_extra={"not": {"pattern": BLANK_PATTERN}},
    )

    @field_validator("text")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("a text part holds only whitespace")
        return text


class InlineData(_PartBody):
    """Bytes sent with the message (an image, a document), saved as an artifact."""

    mime_type: str = Field(
        pattern=_MIME_TYPE,
        max_length=255,
        description="The media type, e.g. 'image/png' (no parameters).",
        examples=["image/png"],
    )
    data: str = Field(
        pattern=_BASE64,
        description="The bytes, base64 with padding; the whole body stays within the "
        "server's limit (413 beyond it).",
        json_schema_extra={"contentEncoding": "base64"},
        examples=["iVBORw0KGgo="],
    )
    display_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_DISPLAY_NAME,
        pattern="^[^/\\\\\\u0000]*$",
        description="A file name to keep in the artifact's name (no '/', '\\\\' or NUL).",
        examples=["receipt.png"],
    )

    @field_validator("display_name")
    @classmethod
    def _encodable(cls, name: str | None) -> str | None:
        if name is not None and not name.isascii():
            try:
                name.encode()
            except UnicodeEncodeError:
                raise ValueError("the display name holds a lone surrogate") from None
        return name

    def decoded(self) -> bytes:
        """The bytes (the pattern was checked, so they decode)."""
        return base64.b64decode(self.data, validate=True)


class InlineDataPart(_PartBody):
    """A file sent inline."""

    inline_data: InlineData = Field(description="The file's bytes and media type.")


class ConfirmationBody(_PartBody):
    """A person's yes or no, as ``ConfirmationAnswer`` has it."""

    confirmed: bool = Field(description="Approve (true) or decline (false).")
    payload: JsonValue = Field(default=None, description="Data for the tool, if it asks for any.")


class CredentialBody(_PartBody):
    """A credential, as ``CredentialAnswer`` has it."""

    credential: dict[str, JsonValue] = Field(
        description="The credential (token, key, ...); never stored in the log."
    )


class ConfirmationResponse(_PartBody):
    """The answer to a confirmation request."""

    id: str = Field(min_length=1, max_length=512, description="The request's id (``request_id``).")
    name: Literal["agentlog_request_confirmation"] = Field(description="Answers a confirmation.")
    response: ConfirmationBody = Field(description="The person's yes or no.")


class CredentialResponse(_PartBody):
    """The answer to a credential request."""

    id: str = Field(min_length=1, max_length=512, description="The request's id (``request_id``).")
    name: Literal["agentlog_request_credential"] = Field(description="Answers a credential.")
    response: CredentialBody = Field(description="The credential.")


class AnswerPart(_PartBody):
    """A function response answering a pending request (``GET /sessions/{id}`` lists them)."""

    function_response: Annotated[
        ConfirmationResponse | CredentialResponse, Field(discriminator="name")
    ] = Field(description="The answer, named like the request it answers.")


class _PartsBody(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    state_delta: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="State changes stored with the message ('user:', 'temp:' or session keys; "
        f"null deletes). {_VALUES}",
        json_schema_extra={"propertyNames": SESSION_KEYS},
    )

    _check_delta = field_validator("state_delta")(_no_app_keys)


class NewParts(_PartsBody):
    """A user's message as parts: text, with files."""

    parts: list[TextPart | InlineDataPart] = Field(
        min_length=1,
        max_length=MAX_PARTS,
        description="Text parts (at least one) and inline data parts, in order.",
        json_schema_extra={"contains": {"required": ["text"]}},
    )

    @model_validator(mode="after")
    def _has_text(self) -> NewParts:
        if not any(isinstance(p, TextPart) for p in self.parts):
            raise ValueError("a message with files needs a text part too")
        return self


class NewAnswers(_PartsBody):
    """A message answering pending requests: function responses only."""

    parts: list[AnswerPart] = Field(
        min_length=1,
        max_length=MAX_PARTS,
        description="One function response per request answered, all of one paused turn.",
    )


def _shape(body: Any) -> str:
    if isinstance(body, NewParts | NewAnswers):
        return "answers" if isinstance(body, NewAnswers) else "parts"
    if not isinstance(body, dict) or "parts" not in body:
        return "text"
    parts = body["parts"]
    first = parts[0] if isinstance(parts, list) and parts else None
    return "answers" if isinstance(first, dict) and "function_response" in first else "parts"


def _untagged(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # A problem is placed as in the shape's own model ("text", not "text.text"): the shape
    # is plain from the body, and a text message's 422 stays what it was before parts.
    try:
        return handler(value)
    except ValidationError as exc:
        errors: list[InitErrorDetails] = [
            {"type": e["type"], "loc": e["loc"][1:], "input": e["input"], "ctx": e.get("ctx", {})}
            for e in exc.errors()
        ]
        raise ValidationError.from_exception_data(exc.title, errors) from None


MessageBody = Annotated[
    Annotated[NewMessage, Tag("text")]
    | Annotated[NewParts, Tag("parts")]
    | Annotated[NewAnswers, Tag("answers")],
    Discriminator(_shape),
    WrapValidator(_untagged),
]
"""The body of ``POST /sessions/{id}/messages``: ``text``; or ``parts``, text with files or
answers (told apart by the first part)."""


@dataclass
class Uploads:
    """The artifacts saved for one message, to delete again if its turn is refused."""

    artifacts: ArtifactService
    scope: dict[str, str]
    names: list[str] = field(default_factory=list)

    async def discard(self) -> None:
        """Delete what was saved (the turn that would have referred to it never started)."""
        for name in self.names:
            try:
                await self.artifacts.delete_artifact(**self.scope, filename=name)
            except Exception:
                logger.exception("deleting the upload %r of a refused message failed", name)
        self.names.clear()


async def message_of(
    body: NewParts | NewAnswers,
    store: SessionService,
    artifacts: ArtifactService,
    *,
    app_name: str,
    user_id: str,
    session_id: str,
) -> tuple[Content, Uploads]:
    """The message ``body`` stands for, its inline data saved as artifacts of the session.

    Raises ``SessionNotFoundError`` before saving anything for a session that is not the
    user's, ``RequestAlreadyAnsweredError`` for a request answered twice in the message, and
    HTTP 413 for a file over the artifact service's limit.
    """
    scope = {"app_name": app_name, "user_id": user_id, "session_id": session_id}
    uploads = Uploads(artifacts, scope)
    if isinstance(body, NewAnswers):
        return Content(role="user", parts=_answers(body.parts)), uploads
    if any(isinstance(p, InlineDataPart) for p in body.parts):
        # Never a file saved under a session that is not the caller's (nor a made-up one).
        await store.get_session(**scope, config=GetSessionConfig(num_recent_events=0))
    upload_id = new_event_id()
    parts: list[Part] = []
    try:
        for index, part in enumerate(body.parts):
            if isinstance(part, TextPart):
                parts.append(Part(text=part.text))
            elif isinstance(part, InlineDataPart):
                ref = await _save(uploads, part.inline_data, f"upload-{upload_id}-", index)
                parts.append(Part(artifact_ref=ref))
    except Exception:
        await uploads.discard()
        raise
    return Content(role="user", parts=tuple(parts)), uploads


async def _save(uploads: Uploads, inline: InlineData, prefix: str, index: int) -> ArtifactRef:
    name = prefix + (inline.display_name or str(index))
    data = inline.decoded()
    try:
        version = await uploads.artifacts.save_artifact(
            **uploads.scope, filename=name, data=data, mime_type=inline.mime_type
        )
    except ArtifactTooLargeError as exc:
        raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE, str(exc)) from None
    except InvalidArtifactNameError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    uploads.names.append(name)
    return ArtifactRef(name=name, version=version, mime_type=inline.mime_type, size=len(data))


def _answers(parts: Sequence[AnswerPart]) -> tuple[Part, ...]:
    out: list[Part] = []
    seen: set[str] = set()
    for part in parts:
        answer = part.function_response
        if answer.id in seen:
            raise RequestAlreadyAnsweredError(answer.id)
        seen.add(answer.id)
        if isinstance(answer, ConfirmationResponse):
            response: dict[str, Any] = {
                "confirmed": answer.response.confirmed,
                "payload": answer.response.payload,
            }
            out.append(Part.from_function_response(REQUEST_CONFIRMATION, response, answer.id))
        else:
            response = {"credential": answer.response.credential}
            out.append(Part.from_function_response(REQUEST_CREDENTIAL, response, answer.id))
    return tuple(out)
