"""Plumbing the SQL-backed stores share: migration files, SQLite's worker thread, PostgreSQL's
pool. Private: the session, memory and summary stores build on it; nothing else should.

``agentlog._stores.postgres`` needs the ``postgres`` extra; the other modules need nothing.
"""
