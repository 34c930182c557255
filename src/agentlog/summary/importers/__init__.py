"""Sessions written elsewhere, as agentlog events: the JSON Lines format (:mod:`.jsonl`) and
google-adk sessions (:mod:`.adk`).
"""
