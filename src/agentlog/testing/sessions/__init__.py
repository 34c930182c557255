"""The conformance suite every ``SessionService`` passes.

Subclass :class:`SessionServiceConformance` in a test module and implement ``make_service``;
pytest collects every test of the suite for that backend. Backends that several processes can
share also implement ``service_spec``; backends with a serialised form implement
``corrupt_event``.

The tests live in private modules by concern: ``_contract`` (creating, reading, appending,
listing, deleting, failures), ``_loading`` (filters and loading from the latest compaction) and
``_concurrency`` (racing writers, several processes, a crash mid-append), ``_leases`` (one
turn at a time: exclusion, fencing tokens, expiry, turn ends) and ``_lease_appends`` (the lease
and a turn's first event in one write).
"""

from __future__ import annotations

from agentlog.testing._workers import ServiceSpec
from agentlog.testing.sessions._base import rich_event
from agentlog.testing.sessions._concurrency import ConcurrencyTests
from agentlog.testing.sessions._contract import ContractTests
from agentlog.testing.sessions._lease_appends import LeaseAppendTests
from agentlog.testing.sessions._leases import LeaseTests
from agentlog.testing.sessions._loading import LoadingTests

__all__ = ["ServiceSpec", "SessionServiceConformance", "rich_event"]


# pytest collects a base class's tests before those of the classes ahead of it in the MRO, so
# the bases are listed last-first: the contract runs first, the slow multi-process tests last.
class SessionServiceConformance(
    ConcurrencyTests, LeaseAppendTests, LeaseTests, LoadingTests, ContractTests
):
    """The contract of SPEC 3, as tests. Subclasses implement ``make_service``."""
