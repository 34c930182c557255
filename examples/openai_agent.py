"""An agent on any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp, ...) whose refund
tool waits for a person's yes.

    OPENAI_API_KEY=sk-... python examples/openai_agent.py
    OPENAI_API_KEY=unused python examples/openai_agent.py --base-url http://127.0.0.1:11434/v1 \\
        --model llama3.1

The turn stops when the model asks to refund; the request is stored, so the answer could come
from another process (or after a restart): here it is asked at the terminal, or given with
--approve / --decline. The session lives in a SQLite file; run it twice and the second run
starts a new session in the same file.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from agentlog import (
    Content,
    Runner,
    SqliteSessionService,
    confirmation_answer,
    pending_requests,
)
from agentlog.agents import LlmAgent
from agentlog.models.openai import OpenAIChatLlm
from agentlog.tools import FunctionTool

ORDERS = {"A-1001": {"status": "delivered late", "shipping_fee": 12.5}}


def lookup_order(order_id: str) -> dict[str, object]:
    """Look up an order.

    Args:
        order_id: The order number, e.g. A-1001.
    """
    return {"order_id": order_id, **ORDERS.get(order_id, {"error": "no such order"})}


def refund_shipping(order_id: str, amount: float) -> dict[str, object]:
    """Refund an order's shipping fee to the customer's card.

    Args:
        order_id: The order number.
        amount: Dollars to refund: the order's shipping fee.
    """
    return {"order_id": order_id, "refunded": amount, "refund_id": "R-7781"}


async def main(args: argparse.Namespace) -> None:
    model = OpenAIChatLlm(args.model, base_url=args.base_url)
    agent = LlmAgent(
        name="desk",
        model=model,
        instruction="You are a shop's support desk. Look orders up before refunding anything.",
        tools=[lookup_order, FunctionTool(refund_shipping, require_confirmation=True)],
    )
    store = SqliteSessionService(args.db)
    runner = Runner(agent=agent, session_service=store, app_name="shop")
    try:
        session = await store.create_session(app_name="shop", user_id="ana")
        message = Content.from_text(args.message)
        while True:
            asked = []
            async for event in runner.run_async(
                user_id="ana", session_id=session.id, new_message=message
            ):
                for call in event.function_calls():
                    print(f"  {event.author} calls {call.name}({dict(call.args)})")
                asked += pending_requests(event)
                if event.is_final_response() and event.text():
                    print(f"{event.author}: {event.text()}")
            if not asked:
                break
            request = asked[0]
            yes = args.approve if args.approve is not None else _ask(request.hint)
            print(f"operator {'approves' if yes else 'declines'}: {request.hint}")
            message = confirmation_answer(request.request_id, confirmed=yes)
        stored = await store.get_session(app_name="shop", user_id="ana", session_id=session.id)
        print(f"{stored.version} events stored in {args.db}, session {session.id}")
    finally:
        await model.aclose()
        await store.close()


def _ask(hint: str) -> bool:
    return input(f"{hint} [y/N] ").strip().lower() in ("y", "yes")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=os.environ.get("AGENTLOG_MODEL", "gpt-4o-mini"))
    parser.add_argument("--base-url", default=os.environ.get("AGENTLOG_BASE_URL"))
    parser.add_argument("--db", default="openai-agent.db", help="SQLite file for the sessions")
    parser.add_argument("--message", default="My order A-1001 came late. Refund the shipping?")
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--approve", action="store_const", const=True, default=None)
    answer.add_argument("--decline", action="store_const", const=False, dest="approve")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(_parse()))
