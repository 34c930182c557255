"""What is made from a checked record: digests (:mod:`.digest`), handoffs (:mod:`.handoff`) and
memory entries with provenance (:mod:`.memory_entries`).
"""
