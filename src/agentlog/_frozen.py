"""Read-only containers so that a frozen model is frozen all the way down.

Pydantic's ``frozen=True`` stops attribute assignment, but a ``dict`` field can still be edited
in place. Every mapping and list inside an event is therefore a ``FrozenDict`` or ``FrozenList``:
subclasses of ``dict`` and ``list`` (so they compare equal to plain ones and serialise as JSON)
whose mutating methods raise :class:`~agentlog.errors.ImmutableError`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Final, NoReturn, TypeVar, cast

from pydantic import AfterValidator, GetCoreSchemaHandler, JsonValue
from pydantic_core import core_schema

from agentlog.errors import ImmutableError

__all__ = ["FrozenDict", "FrozenList", "FrozenJson", "FrozenJsonDict", "freeze", "thaw"]

K = TypeVar("K")
V = TypeVar("V")


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise ImmutableError(
        f"{type(self).__name__} is read-only: state changes only through an event's state_delta"
    )


class FrozenDict(dict[K, V]):
    """A ``dict`` that refuses every in-place change."""

    __slots__ = ()
    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: repr(kv[0]))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # Lets pydantic write one as a default in a JSON schema; fields are annotated with
        # FrozenJsonDict instead, which is what validates.
        return core_schema.no_info_after_validator_function(freeze, core_schema.dict_schema())


class FrozenList(list[V]):
    """A ``list`` that refuses every in-place change."""

    __slots__ = ()
    __setitem__ = __delitem__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __repr__(self) -> str:
        return f"FrozenList({list.__repr__(self)})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(freeze, core_schema.list_schema())


def freeze(value: Any) -> Any:
    """Return ``value`` with every nested dict and list replaced by its read-only twin.

    Raises ``ValueError`` for NaN and infinities, which JSON cannot carry (they would come
    back from storage as something else).
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value} is not a JSON number")
    if isinstance(value, dict):
        if isinstance(value, FrozenDict) and all(
            not isinstance(v, (dict, list)) or isinstance(v, (FrozenDict, FrozenList))
            for v in value.values()
        ):
            return value
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple) and not isinstance(value, FrozenList):
        return FrozenList(freeze(v) for v in value)
    return value


_LEAVES: Final = frozenset({str, int, float, bool, type(None)})


def thaw(value: Any) -> Any:
    """Return a plain, mutable deep copy of a frozen value (for tools and SDKs)."""
    # Most values are JSON leaves: answered by one set lookup, before the ``Mapping`` check
    # (an ABC's ``isinstance``, several times the cost) that every leaf would otherwise pay.
    if type(value) in _LEAVES:
        return value
    if isinstance(value, dict | Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def _freeze_dict(value: dict[str, Any]) -> FrozenDict[str, Any]:
    return cast("FrozenDict[str, Any]", freeze(value))


# No serializer is attached: pydantic already writes a ``FrozenDict`` or ``FrozenList`` as a plain
# ``dict`` or ``list`` (a fresh, mutable copy in Python mode), in native code, which a
# Python-level ``thaw`` serializer made several times slower.
if TYPE_CHECKING:
    # Code reading events sees ``Any`` values rather than the JsonValue union it would have
    # to narrow at every access; validation still checks them as JSON.
    FrozenJson = Any
    FrozenJsonDict = dict[str, Any]
else:
    FrozenJson = Annotated[JsonValue, AfterValidator(freeze)]
    """Any JSON value, deep-frozen."""

    FrozenJsonDict = Annotated[dict[str, JsonValue], AfterValidator(_freeze_dict)]
    """A JSON object, deep-frozen."""
