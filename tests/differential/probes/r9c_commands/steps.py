"""Inner steps that command handlers and commands end up calling."""
from agent_framework import step


@step
async def save_order(order_id: str, qty: int) -> str:
    return f"saved:{order_id}x{qty}"


@step
async def release_stock(sku: str, qty: int) -> str:
    return f"released:{sku}x{qty}"


@step
async def ship_parcel(order_id: str) -> str:
    return f"shipped:{order_id}"


@step
async def reserve_stock(sku: str, qty: int) -> str:
    return f"reserved:{sku}x{qty}"
