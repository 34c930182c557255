"""The refund desk demo (``agentlog demo``)."""
