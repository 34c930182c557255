"""Background work on a PostgreSQL job queue (procrastinate): summaries of idle sessions.

Needs the ``jobs`` extra (``pip install 'agentlog[jobs]'``). Servers on PostgreSQL enqueue a
summary job when a session goes idle or ends (:class:`agentlog.jobs.queue.JobQueue`, keyed on
the session version, so however many servers see it the job waits once); ``agentlog worker``
processes (:func:`agentlog.jobs.worker.run_worker`) take the jobs. One summary per session
version, whatever the number of servers and workers: :mod:`agentlog.jobs.summaries` says why a
second run stores nothing, :mod:`agentlog.jobs.worker` how a dead worker's job runs again, and
:mod:`agentlog.jobs.schema` how procrastinate's tables are made. On SQLite there is no queue:
the server summarises in its own process.

The modules are imported by name (this package imports nothing), so the ``agentlog`` command
line can offer ``agentlog worker`` without loading procrastinate.
"""
