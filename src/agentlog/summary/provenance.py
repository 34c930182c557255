"""Provenance: whose word an item rests on, decided by code from the authors of its sources.

An item whose cited events are all user-authored is a ``user_claim``: the customer said it and
nothing else in the session backs it. An item citing at least one event by an agent or a tool
is ``verified``. A label the model wrote is never consulted. Sources that are not events of the
session back nothing (such a record fails validation anyway), so an item citing only unknown or
user events is a ``user_claim``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from agentlog.events import Event
from agentlog.summary.schema import SECTIONS, Provenance, SummaryItem, SummaryRecord

__all__ = ["USER_AUTHOR", "item_provenance", "label_provenance"]

USER_AUTHOR = "user"
"""The author of the user's own events."""


def item_provenance(item: SummaryItem, authors: Mapping[str, str]) -> Provenance:
    """``verified`` if any cited event is known and not the user's, else ``user_claim``."""
    for source in item.sources:
        author = authors.get(source)
        if author is not None and author != USER_AUTHOR:
            return "verified"
    return "user_claim"


def label_provenance(record: SummaryRecord, events: Iterable[Event]) -> SummaryRecord:
    """``record`` with every item's provenance set from the authors of its cited events."""
    authors = {e.id: e.author for e in events}
    update: dict[str, tuple[SummaryItem, ...]] = {
        section: tuple(
            item.model_copy(update={"provenance": item_provenance(item, authors)})
            for item in record.section(section)
        )
        for section in SECTIONS
    }
    return record.model_copy(update=update)
