"""Artifacts: versioned binary blobs saved alongside a session.

``ArtifactService`` is the contract; ``InMemoryArtifactService`` and ``FileArtifactService`` are
its backends, and ``PostgresArtifactService`` in :mod:`agentlog.artifacts.postgres` (the
``postgres`` extra). Names starting with ``user:`` are shared by all of a user's sessions.
"""

from agentlog.artifacts.base import Artifact, ArtifactService
from agentlog.artifacts.files import FileArtifactService
from agentlog.artifacts.memory import InMemoryArtifactService

__all__ = [
    "Artifact",
    "ArtifactService",
    "FileArtifactService",
    "InMemoryArtifactService",
]
