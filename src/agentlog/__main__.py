"""``python -m agentlog``."""

from agentlog.cli import main

main()
