"""Scoring records against hand-written expectations: entity recall, write actions kept, pass
rate and size, per session and per set (:mod:`.scoring`).
"""
