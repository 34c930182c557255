"""The record and its checks: the schema, entities (patterns and those learned from the session),
provenance by evidence, instruction detection, validation, and compaction records.

Every module here imports only :mod:`agentlog.events`, :mod:`agentlog.transcript` and each other
(never a summariser, a store or the runner), so a reader can check a record with nothing else.
"""
