"""Inner steps that webhook handlers end up calling."""
from agent_framework import step


@step
async def record_payment(invoice_id: str, amount: int) -> str:
    return f"paid:{invoice_id}:{amount}"


@step
async def issue_refund(charge_id: str) -> str:
    return f"refunded:{charge_id}"


@step
async def send_welcome(email: str) -> str:
    return f"welcome:{email}"


@step
async def quarantine(event_type: str) -> str:
    return f"quarantined:{event_type}"


@step
async def activate_plan(subscription_id: str, plan: str) -> str:
    return f"active:{subscription_id}:{plan}"
