"""Keeping API keys out of the error messages the model adapters raise.

SDKs and compatible servers sometimes echo a key back: in an error body, in a request URL, in
the message of a transport error wrapped inside another. Every adapter passes the message of
each :class:`~agentlog.errors.ModelError` it raises through :func:`redact_secrets`, which
applies these rules in order:

1. Every configured secret of at least :data:`MIN_SECRET_LENGTH` characters is replaced wherever
   it occurs, also inside a longer word, both as written and percent-encoded.
2. The value of a credential parameter in a query string (``key``, ``api_key``, ``apikey``,
   ``api-key``, ``access_token``) is replaced, whatever its length.
3. Well-known key shapes are replaced whoever configured them: Anthropic ``sk-ant-...``,
   OpenAI ``sk-...`` (with the truncated ``sk-abcd...wxyz`` and ``sk-****wxyz`` forms APIs show)
   and Google ``AIza...``. The prefix stays so the message still names the provider.

A secret shorter than :data:`MIN_SECRET_LENGTH` is not searched for as text (rule 2 still
catches it in a URL): such keys are placeholders for local servers that check none ("x",
"no"), matching them would garble ordinary words, and a key that short is guessable anyway.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import quote

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "redact_exception", "redact_secrets"]

REDACTED: Final = "[redacted]"
"""What a secret is replaced with."""

MIN_SECRET_LENGTH: Final = 4
"""The shortest configured secret that is masked wherever it appears."""

_QUERY_CREDENTIAL: Final = re.compile(
    r"(?P<name>[?&;](?:key|api_key|apikey|api-key|access_token)=)[^&#;\s'\"<>]+", re.IGNORECASE
)
# Dots and ellipses only between key characters, so the full stop ending a sentence survives.
_KEY_SHAPE: Final = re.compile(
    r"(?<!\w)(?P<prefix>sk-ant-|sk-|AIza)"
    r"(?P<body>[A-Za-z0-9_*-]+(?:(?:\.+|\u2026)[A-Za-z0-9_*-]+)*)"
)
# Fewer characters after a prefix is more likely prose ("sk-ip") than a key or a key's remnant.
_MIN_SHAPE_BODY: Final = 4


def redact_secrets(message: str, *secrets: str | None) -> str:
    """``message`` with ``secrets`` and anything shaped like a provider's API key masked."""
    message = _mask_exact(message, secrets)
    message = _QUERY_CREDENTIAL.sub(rf"\g<name>{REDACTED}", message)
    return _KEY_SHAPE.sub(_mask_shape, message)


def redact_exception(exc: BaseException, *secrets: str | None) -> None:
    """Mask ``secrets`` and key shapes in the text arguments of ``exc`` and of every exception
    chained to it, in place.

    The adapters chain the SDK's exception to the ``ModelError`` they raise, so that callers
    can still inspect it; a logged traceback prints every message in that chain, not only the
    ``ModelError``'s.
    """
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        current.args = tuple(
            redact_secrets(arg, *secrets) if isinstance(arg, str) else arg for arg in current.args
        )
        pending.extend((current.__cause__, current.__context__))


def _mask_exact(message: str, secrets: tuple[str | None, ...]) -> str:
    forms = {
        form
        for secret in secrets
        if secret and len(secret) >= MIN_SECRET_LENGTH
        for form in (secret, quote(secret, safe=""))
    }
    if not forms:
        return message
    # One pass, longest first: a secret inside another is not left half masked, and a secret
    # that happens to occur in REDACTED cannot match the replacement text of an earlier one.
    pattern = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.sub(pattern, REDACTED, message)


def _mask_shape(match: re.Match[str]) -> str:
    if len(match["body"]) < _MIN_SHAPE_BODY:
        return match[0]
    return f"{match['prefix']}{REDACTED}"
