"""Test support shipped with agentlog: the conformance suites every backend passes.

Importing this package needs pytest and hypothesis (the ``dev`` extra).
"""
