"""A function tool's declaration is made once, not on every model request."""

from __future__ import annotations

from agentlog.tools.function import FunctionTool


def lookup(order_id: str) -> dict[str, str]:
    """Look an order up.

    Args:
        order_id: The order, such as A-1001.
    """
    return {"order_id": order_id}


def test_the_declaration_is_made_once_and_again_when_renamed() -> None:
    tool = FunctionTool(lookup)
    first = tool.declaration()
    assert tool.declaration() is first
    assert first.parameters["properties"]["order_id"]["description"] == "The order, such as A-1001."
    tool.description = "Find an order."
    renamed = tool.declaration()
    assert renamed is not first
    assert (renamed.name, renamed.description) == ("lookup", "Find an order.")
    assert renamed.parameters == first.parameters
