from ..steps import charge_card


async def handle(text: str) -> str:
    receipt = await charge_card(text)
    return receipt.upper()
