"""Where summaries are kept: the :class:`~agentlog.summary.stores.base.SummaryStore` protocol, in
memory, in SQLite (:mod:`.sqlite`) and in PostgreSQL (:mod:`.postgres`, the ``postgres`` extra).
"""
