"""Agent memory and hooks around steps: a conversation memory object, created in the workflow and passed into the
outer step, whose add() calls summarize() (and so the summarizer step) once N turns are held, and a memory whose
threshold depends on the mode; a cache-aside helper get_or_compute(key, compute) given a lambda made in the outer
body and a functools.partial of a step; an observer list of on_message hooks holding a step, a hook closure
defined in the outer body, hooks run concurrently through asyncio.gather on a message record a step cannot
fingerprint (MAF refuses it); a callback registry keyed by (agent name, event) with a step registered for one agent
and a decorated plain callback awaiting a step for another. Near misses: a memory below its threshold, a memory
with a plain summarizer, a cache hit that never computes, a step hook unsubscribed before the emit, callbacks fired
for an agent that falls back to the plain '*' callback, and for the critic whose callback is plain despite its
name."""
import functools

from agent_framework import step, workflow

from r8c_memory import steps
from r8c_memory.hooks import REGISTRY, MessageBus, audit_message, log_message
from r8c_memory.memory import Cache, ConversationMemory, memory_for_mode, summarize_locally
from r8c_memory.messages import Message


@step
async def by_memory_threshold(memory: ConversationMemory, text: str) -> str:
    for turn in ("hi", "I need help with billing", text):
        await memory.add("user", turn)  # expect: STP002
    return memory.context()


@step
async def near_miss_memory_below_threshold(memory: ConversationMemory, text: str) -> str:
    await memory.add("user", text)  # imprecise: STP002
    await memory.add("assistant", "noted")  # imprecise: STP002
    return memory.context()


@step
async def near_miss_memory_plain_summarizer(memory: ConversationMemory, text: str) -> str:
    for turn in ("one", "two", "three", text):
        await memory.add("user", turn)  # imprecise: STP002
    return memory.context()


@step
async def by_memory_for_mode(mode: str) -> str:
    memory = memory_for_mode(mode)
    await memory.add("user", "first")  # imprecise: STP002
    await memory.add("assistant", mode)  # expect: STP002
    return memory.context()


@step
async def by_cache_aside_lambda(text: str) -> str:
    cache = Cache()
    return await cache.get_or_compute("emb:" + text, lambda: steps.embed_text(text))  # expect: STP001


@step
async def by_cache_aside_partial(text: str) -> str:
    cache = Cache()
    compute = functools.partial(steps.embed_text, text + "!")
    return await cache.get_or_compute(text, compute)  # expect: STP002


@step
async def near_miss_cache_aside_hit(text: str) -> str:
    cache = Cache().prime("emb:" + text, "vec:cached")
    return await cache.get_or_compute("emb:" + text, functools.partial(steps.embed_text, text))  # imprecise: STP002


@step
async def by_observer_hooks(text: str) -> str:
    bus = MessageBus([log_message, steps.moderate_message])
    results = await bus.emit(Message("user", text))  # expect: STP002
    return ",".join(map(str, results))


@step
async def near_miss_hook_unsubscribed(text: str) -> str:
    bus = MessageBus([log_message])
    hook = bus.subscribe(steps.moderate_message)
    bus.unsubscribe(hook)
    return ",".join(map(str, await bus.emit(Message("user", text))))  # imprecise: STP002


@step
async def by_hook_closure_in_body(text: str) -> str:
    bus = MessageBus([log_message])
    facts: list[str] = []

    async def remember(message_text: str) -> str:
        facts.append(message_text)
        return await steps.store_fact(message_text)  # expect: STP001

    bus.subscribe(remember)
    await bus.emit(Message("user", text))
    return ",".join(facts)


@step
async def by_concurrent_record_hooks(text: str) -> str:
    bus = MessageBus([audit_message, steps.archive_message])
    results = await bus.emit_concurrently(Message("user", text))  # expect: STP002
    return ",".join(results)


@step
async def by_callback_for_planner(text: str) -> str:
    return ",".join(await REGISTRY.fire("planner", "tool_result", text))  # expect: STP002


@step
async def near_miss_callback_other_agent(text: str) -> str:
    return ",".join(await REGISTRY.fire("researcher", "tool_result", text))


@step
async def by_decorated_callback(text: str) -> str:
    done = await REGISTRY.fire("writer", "final", text)  # expect: STP002
    return ",".join(done)


@step
async def near_miss_callback_named_like_step(text: str) -> str:
    return ",".join(await REGISTRY.fire("critic", "final", text))


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_memory_threshold(ConversationMemory(summarize_every=3), mode),
        await near_miss_memory_below_threshold(ConversationMemory(summarize_every=5), mode),
        await near_miss_memory_plain_summarizer(ConversationMemory(2, summarize_locally), mode),
        await by_memory_for_mode(mode), await by_cache_aside_lambda(mode), await by_cache_aside_partial(mode),
        await near_miss_cache_aside_hit(mode), await by_observer_hooks(mode),
        await near_miss_hook_unsubscribed(mode), await by_hook_closure_in_body(mode),
        await by_concurrent_record_hooks(mode), await by_callback_for_planner(mode),
        await near_miss_callback_other_agent(mode), await by_decorated_callback(mode),
        await near_miss_callback_named_like_step(mode),
    ]
    return "|".join(parts)
