"""An incoming-webhook dispatcher inside steps: a body parsed with json.loads from a recorded constant string,
a signature checked with hmac.compare_digest before anything else, handler classes picked from a dict of dicts
keyed by the event family (payload["type"]) and the nested payload["data"]["object"]["status"], by a `match`
statement on the payload's shape (a class pattern with a guard), and by a registry filled through a decorator
factory, a dead-letter fallback that is a plain callable object by default or a step when configured, a batch of
deliveries replayed in a loop, and a step body that verifies and matches the payload itself. Near misses: a
status routed to a plain handler, a tampered signature, a body signed with another secret, a status with no
route (plain dead letter), a null email falling through to `case _`, a step dead-letter sink that the routed
event never needs, and a registry entry for another status."""
import hmac
import json

from agent_framework import step, workflow

from r9c_webhooks import payloads, steps
from r9c_webhooks.dispatcher import WebhookDispatcher, route_by_registry, route_by_shape
from r9c_webhooks.payloads import OTHER_SECRET, sign


@step
async def by_status_route_invoice_paid(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.INVOICE_PAID
    result = await dispatcher.receive(body, sign(body))  # expect: STP002
    return f"{tag}:{result}"


@step
async def near_miss_status_routed_to_plain_handler(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.INVOICE_FAILED
    result = await dispatcher.receive(body, sign(body))
    return f"{tag}:{result}"


@step
async def near_miss_tampered_signature(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.INVOICE_PAID
    signature = sign(body.replace("4200", "42"))
    result = await dispatcher.receive(body, signature)  # imprecise: STP002
    return f"{tag}:{result}:{dispatcher.rejected}"


@step
async def near_miss_signed_with_other_secret(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.CHARGE_REFUNDED
    result = await dispatcher.receive(body, sign(body, OTHER_SECRET))  # imprecise: STP002
    return f"{tag}:{result}"


@step
async def by_nested_status_refunded(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.CHARGE_REFUNDED
    result = await dispatcher.receive(body, sign(body))  # expect: STP002
    return f"{tag}:{result}"


@step
async def near_miss_status_without_route(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    body = payloads.CHARGE_PENDING
    result = await dispatcher.receive(body, sign(body))
    return f"{tag}:{result}"


@step
async def by_match_route_customer_created(tag: str) -> str:
    dispatcher = WebhookDispatcher(route_by_shape)
    body = payloads.CUSTOMER_CREATED
    result = await dispatcher.receive(body, sign(body))  # expect: STP002
    return f"{tag}:{result}"


@step
async def near_miss_match_guard_null_email(tag: str) -> str:
    dispatcher = WebhookDispatcher(route_by_shape)
    body = payloads.CUSTOMER_NO_EMAIL
    result = await dispatcher.receive(body, sign(body))  # imprecise: STP002
    return f"{tag}:{result}"


@step
async def by_dead_letter_step_sink(tag: str) -> str:
    dispatcher = WebhookDispatcher(dead_letter=steps.quarantine)
    body = payloads.PAYOUT_CREATED
    result = await dispatcher.receive(body, sign(body))  # expect: STP002
    return f"{tag}:{result}"


@step
async def near_miss_dead_letter_step_not_needed(tag: str) -> str:
    dispatcher = WebhookDispatcher(route_by_shape, dead_letter=steps.quarantine)
    body = payloads.CUSTOMER_DELETED
    result = await dispatcher.receive(body, sign(body))  # imprecise: STP002
    return f"{tag}:{result}"


@step
async def by_decorator_registry(tag: str) -> str:
    dispatcher = WebhookDispatcher(route_by_registry)
    body = payloads.SUBSCRIPTION_ACTIVE
    result = await dispatcher.receive(body, sign(body))  # expect: STP002
    return f"{tag}:{result}"


@step
async def near_miss_registry_other_status(tag: str) -> str:
    dispatcher = WebhookDispatcher(route_by_registry)
    body = payloads.SUBSCRIPTION_PAST_DUE
    result = await dispatcher.receive(body, sign(body))  # imprecise: STP002
    return f"{tag}:{result}"


@step
async def by_batch_replay(tag: str) -> str:
    dispatcher = WebhookDispatcher()
    deliveries = [
        (payloads.INVOICE_PAID, "0" * 64),
        (payloads.INVOICE_FAILED, sign(payloads.INVOICE_FAILED)),
        (payloads.CHARGE_REFUNDED.replace("ch_7", "ch_9"), sign(payloads.CHARGE_REFUNDED.replace("ch_7", "ch_9"))),
    ]
    results = []
    for body, signature in deliveries:
        results.append(await dispatcher.receive(body, signature))  # expect: STP002
    return f"{tag}:{','.join(results)}"


@step
async def by_match_in_body(tag: str) -> str:
    body = payloads.CUSTOMER_CREATED
    if not hmac.compare_digest(sign(body), payloads.CUSTOMER_CREATED_SIGNATURE):
        return "rejected"
    payload = json.loads(body)
    match payload:
        case {"type": "customer.created", "data": {"object": {"email": str(email)}}}:
            return await steps.send_welcome(email.replace("@", f"+{tag}@"))  # expect: STP001
        case {"type": "customer.deleted"}:
            return "bye"
        case _:
            return "ignored"


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_status_route_invoice_paid(f"{mode}1"),
        await near_miss_status_routed_to_plain_handler(f"{mode}2"),
        await near_miss_tampered_signature(f"{mode}3"),
        await near_miss_signed_with_other_secret(f"{mode}4"),
        await by_nested_status_refunded(f"{mode}5"),
        await near_miss_status_without_route(f"{mode}6"),
        await by_match_route_customer_created(f"{mode}7"),
        await near_miss_match_guard_null_email(f"{mode}8"),
        await by_dead_letter_step_sink(f"{mode}9"),
        await near_miss_dead_letter_step_not_needed(f"{mode}10"),
        await by_decorator_registry(f"{mode}11"),
        await near_miss_registry_other_status(f"{mode}12"),
        await by_batch_replay(f"{mode}13"),
        await by_match_in_body(f"{mode}14"),
    ]
    return "|".join(parts)
