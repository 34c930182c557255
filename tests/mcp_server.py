"""A small MCP server for the tests, written with the MCP SDK's FastMCP: an order desk.

``python tests/mcp_server.py`` serves it over stdio; :func:`build` makes a fresh one (for the
streamable HTTP app, whose session manager runs once per server).
"""

from __future__ import annotations

import os
from typing import Any

import anyio
from mcp.server.fastmcp import FastMCP, Image

ORDERS = {"A-1001": {"status": "delivered", "total": 12.5}}

# A one-pixel PNG: what the receipt tool sends back as an image.
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082"
)


def build() -> FastMCP:
    """The order desk: lookups, refunds (and the list of refunds made), a receipt image."""
    server = FastMCP("orders", log_level="WARNING")
    refunds: list[dict[str, Any]] = []

    @server.tool()
    def lookup_order(order_id: str) -> dict[str, Any]:
        """Look up an order by its id, such as A-1001."""
        if order_id not in ORDERS:
            raise ValueError(f"no order {order_id}")
        return {"order_id": order_id, **ORDERS[order_id]}

    @server.tool()
    def refund(order_id: str, amount: float) -> str:
        """Refund an amount on an order."""
        refunds.append({"order_id": order_id, "amount": amount})
        return f"Refunded ${amount:.2f} for {order_id}."

    @server.tool()
    def refunds_made() -> list[dict[str, Any]]:
        """Every refund made since the server started."""
        return list(refunds)

    @server.tool(name="order-notes")
    def order_notes(order_id: str) -> str:
        """Free-text notes on an order (a name the model cannot use as is)."""
        return f"{order_id}: left at the door"

    @server.tool(structured_output=False)
    def receipt(order_id: str) -> Image:
        """The receipt of an order, as an image."""
        return Image(data=PIXEL, format="png")

    @server.tool()
    async def slow(seconds: float) -> str:
        """Answer after ``seconds``."""
        await anyio.sleep(seconds)
        return "done"

    @server.tool()
    def server_pid() -> int:
        """The server process's id."""
        return os.getpid()

    return server


if __name__ == "__main__":
    build().run("stdio")
