"""Pub/sub inside steps: a broker matching topics with fnmatch patterns, subscribers that are bound methods of
service objects, functools.partial subscribers with a bound channel (one wrapping a plain notifier, one wrapping a
step directly), a wildcard "*" subscriber, events posted to an asyncio.Queue and delivered when the queue is
drained, unsubscribe tokens (explicit cancel and a with-block), a subscriber that unsubscribes itself after the
first event, and a lambda subscriber defined in the step body. Near misses: a topic no pattern matches, a
case-different pattern (fnmatchcase), a cancelled token, events posted but never drained, a step subscribed but
never published to, a subscriber that filters the payload out, and the second publish to the one-shot subscriber."""
import functools

from agent_framework import step, workflow

from r9c_pubsub import steps
from r9c_pubsub.broker import Broker
from r9c_pubsub.services import AuditTrail, OneShotIndexer, OrderService, log_to, notify_channel


@step
async def by_bound_method_subscriber(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("orders.*", orders.on_order_created)
    results = await broker.publish("orders.created", order_id)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_topic_not_matched(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("orders.*", orders.on_order_created)
    results = await broker.publish("payments.settled", order_id)  # imprecise: STP002
    return f"{len(results)} delivered"


@step
async def by_partial_subscriber(text: str) -> str:
    broker = Broker()
    broker.subscribe("alerts.?", functools.partial(notify_channel, "ops"))
    results = await broker.publish("alerts.1", text)  # expect: STP002
    return results[0]


@step
async def by_partial_of_step(text: str) -> str:
    broker = Broker()
    broker.subscribe("alerts.[0-9]", functools.partial(steps.forward_event, "pager"))
    sink: list[str] = []
    broker.subscribe("alerts.*", functools.partial(log_to, sink))
    results = await broker.publish("alerts.7", text)  # expect: STP002
    return f"{results[0]} ({len(sink)} logged)"


@step
async def near_miss_case_sensitive_pattern(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("Orders.*", orders.on_order_created)
    results = await broker.publish("orders.created", order_id)  # imprecise: STP002
    return f"{len(results)} delivered"


@step
async def by_wildcard_subscriber(topic: str) -> str:
    broker = Broker()
    trail = AuditTrail("wild")
    broker.subscribe("*", trail.archive)
    broker.subscribe("billing.*", trail.record)
    results = await broker.publish(f"billing.{topic}", "invoice-9")  # expect: STP002
    return ";".join(results)


@step
async def near_miss_cancelled_token(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    token = broker.subscribe("orders.*", orders.on_order_created)
    token.cancel()
    trail = AuditTrail("kept")
    broker.subscribe("orders.*", trail.record)
    results = await broker.publish("orders.created", order_id)  # imprecise: STP002
    return ";".join(results)


@step
async def near_miss_with_block_unsubscribes(order_id: str) -> str:
    broker = Broker()
    trail = AuditTrail("scoped")
    with broker.subscribe("orders.*", trail.archive):
        pass
    results = await broker.publish("orders.updated", order_id)  # imprecise: STP002
    return f"{len(results)} delivered"


@step
async def by_queue_drain(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("orders.created", orders.on_order_event)
    broker.post("orders.created", f"test-{order_id}")
    broker.post("orders.created", order_id)
    results = await broker.drain()  # expect: STP002
    return ",".join(results)


@step
async def near_miss_posted_not_drained(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("orders.created", orders.on_order_created)
    broker.post("orders.created", order_id)
    broker.post("orders.created", order_id + "-2")
    return f"{broker.pending()} queued"


@step
async def near_miss_payload_filtered(order_id: str) -> str:
    broker = Broker()
    orders = OrderService()
    broker.subscribe("orders.*", orders.on_order_event)
    broker.post("orders.created", f"test-{order_id}")
    results = await broker.drain()  # imprecise: STP002
    return ",".join(results)


@step
async def near_miss_step_subscribed_never_published(text: str) -> str:
    broker = Broker()
    broker.subscribe("audit.*", steps.write_audit)
    return f"{len(broker.matching('audit.login'))} subscribers for {text}"


@step
async def by_one_shot_subscriber(doc: str) -> str:
    broker = Broker()
    indexer = OneShotIndexer(broker)
    first = await broker.publish("docs.new", doc)  # expect: STP002
    second = await broker.publish("docs.new", doc + "-again")  # imprecise: STP002
    return f"{first} {second} count={indexer.count}"


@step
async def by_lambda_subscriber(entry: str) -> str:
    broker = Broker()
    broker.subscribe("audit.*", lambda event: steps.write_audit(event.payload))  # expect: STP001
    results = await broker.publish("audit.login", entry)  # imprecise: STP002
    return results[0]


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_bound_method_subscriber(f"{mode}-o1"),
        await near_miss_topic_not_matched(f"{mode}-o2"),
        await by_partial_subscriber(f"{mode}-disk"),
        await by_partial_of_step(f"{mode}-cpu"),
        await near_miss_case_sensitive_pattern(f"{mode}-o3"),
        await by_wildcard_subscriber(mode),
        await near_miss_cancelled_token(f"{mode}-o4"),
        await near_miss_with_block_unsubscribes(f"{mode}-o5"),
        await by_queue_drain(f"{mode}-o6"),
        await near_miss_posted_not_drained(f"{mode}-o7"),
        await near_miss_payload_filtered(f"{mode}-o8"),
        await near_miss_step_subscribed_never_published(mode),
        await by_one_shot_subscriber(f"{mode}-doc"),
        await by_lambda_subscriber(f"{mode}-login"),
    ]
    return "|".join(parts)
