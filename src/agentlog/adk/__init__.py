"""google-adk apps on agentlog's stores (extra ``adk``: ``pip install 'agentlog[adk]'``).

- :class:`AgentlogSessionService`: google-adk's ``BaseSessionService`` over any agentlog
  ``SessionService``; swap it in for ``DatabaseSessionService`` with one line.
- :func:`from_adk_event`, :func:`to_adk_event`: the exact mapping between ADK events and
  agentlog's.
- :func:`store_from_url`, :func:`register_adk_services`: stores from URLs, and the
  ``agentlog+sqlite://`` (and ``+memory``, ``+postgresql``) schemes for ``adk web`` and
  ``adk api_server``.
"""

from __future__ import annotations

from agentlog.adk.codec import from_adk_event, to_adk_event
from agentlog.adk.service import AgentlogSessionService
from agentlog.adk.urls import ADK_SCHEMES, register_adk_services, store_from_url

__all__ = [
    "ADK_SCHEMES",
    "AgentlogSessionService",
    "from_adk_event",
    "register_adk_services",
    "store_from_url",
    "to_adk_event",
]
