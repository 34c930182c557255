"""The API's routes, one module per resource."""

from agentlog.server.routes import approvals, sessions, state, turns

__all__ = ["approvals", "sessions", "state", "turns"]
