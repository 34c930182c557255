"""What writes a record: a model through an ordinary runner (:mod:`.service`, :mod:`.agent`), the
extractive summariser with no model (:mod:`.extractive`), and the background summariser that
takes summaries as sessions go idle (:mod:`.background`).
"""
