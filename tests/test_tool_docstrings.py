"""A function tool's schema reads its docstring in Google, NumPy and Sphinx style alike."""

from __future__ import annotations

from typing import Any

import pytest

from agentlog.context import ToolContext
from agentlog.tools import FunctionTool
from agentlog.tools.docstrings import ToolDoc, parse_docstring


def google(order_id: str, amount: float, *, reason: str = "late") -> dict[str, Any]:
    """Refund an order to the customer's card.

    Only for orders that shipped late.

    Args:
        order_id (str): The order number,
            e.g. A-1001.
        amount: Dollars to refund.
        reason: Why.

    Returns:
        The refund record.
    """
    return {}


def numpy(order_id: str, amount: float, *, reason: str = "late") -> dict[str, Any]:
    """Refund an order to the customer's card.

    Only for orders that shipped late.

    Parameters
    ----------
    order_id : str
        The order number,
        e.g. A-1001.
    amount : float
        Dollars to refund.
    reason : str, optional
        Why.

    Returns
    -------
    dict
        The refund record.
    """
    return {}


def sphinx(order_id: str, amount: float, *, reason: str = "late") -> dict[str, Any]:
    """Refund an order to the customer's card.

    Only for orders that shipped late.

    :param order_id: The order number,
        e.g. A-1001.
    :type order_id: str
    :param amount: Dollars to refund.
    :param reason: Why.
    :returns: The refund record.
    :rtype: dict
    """
    return {}


@pytest.mark.parametrize("func", [google, numpy, sphinx], ids=lambda f: f.__name__)
def test_each_style_gives_the_description_and_every_argument(func: Any) -> None:
    declaration = FunctionTool(func).declaration()
    assert declaration.description == (
        "Refund an order to the customer's card. Only for orders that shipped late."
    )
    props = declaration.parameters["properties"]
    assert {name: p.get("description") for name, p in props.items()} == {
        "order_id": "The order number, e.g. A-1001.",
        "amount": "Dollars to refund.",
        "reason": "Why.",
    }


def test_an_undocumented_argument_has_no_description_and_the_context_stays_hidden() -> None:
    def lookup(order_id: str, verbose: bool, tool_context: ToolContext) -> str:
        """Look up an order.

        :param order_id: The order number.
        """
        return order_id

    props = FunctionTool(lookup).declaration().parameters["properties"]
    assert props["order_id"]["description"] == "The order number."
    assert "description" not in props["verbose"]
    assert "tool_context" not in props


def test_a_docstring_with_only_text_or_none() -> None:
    assert parse_docstring("Say hello.") == ToolDoc("Say hello.", {})
    assert parse_docstring(None) == ToolDoc()
    assert parse_docstring("   ") == ToolDoc()


def test_keyword_arguments_sections_and_stars_are_read() -> None:
    doc = parse_docstring(
        """Search orders.

        Args:
            query: Words to look for.

        Keyword Args:
            limit: At most this many.
        """
    )
    assert doc.params == {"query": "Words to look for.", "limit": "At most this many."}
