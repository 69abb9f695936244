"""An intent router and a supervisor around steps: keyword matching on the input picks a handler class from a dict
(a subclass overriding respond() with a step, a subclass overriding handle() with a step, plain subclasses), a
fallback class used when no intent matches (the default plain one, or an escalating one passed in), a handler
class picked from the dict by the classified intent of a mode-dependent message, a handler subclass defined in
the outer step's body whose respond() awaits a step; a supervisor delegating to workers held in a list,
round-robin through itertools.cycle (the second turn lands on the researcher), a broadcast to all workers through
asyncio.gather, and the next worker of a cycle built in the outer body. Near misses: a greeting routed to a plain
handler, an unmatched message falling back to the plain fallback, a router restricted to plain handlers, a step
handler only constructed and described, a single delegated task that stays with the first (plain) worker, and a
team without the researcher."""
import itertools

from agent_framework import step, workflow

from r8c_router import steps
from r8c_router.handlers import HANDLERS, EscalatingFallback, GreetingHandler, Handler, RefundHandler, Router
from r8c_router.intents import classify, message_for_mode
from r8c_router.supervisor import ResearchWorker, Supervisor, WriterWorker, default_team, writers_only


@step
async def by_router_refund(text: str) -> str:
    return await Router().route("I want a refund for order 7")  # expect: STP002


@step
async def near_miss_router_greeting(text: str) -> str:
    return await Router().route("Hello there, good morning")  # imprecise: STP002


@step
async def by_router_order_status(text: str) -> str:
    router = Router()
    reply = await router.route("Where is my parcel 1234?")  # expect: STP002
    return reply


@step
async def near_miss_router_fallback(text: str) -> str:
    return await Router().route("what's the weather like")  # imprecise: STP002


@step
async def by_escalating_fallback(text: str) -> str:
    router = Router(fallback=EscalatingFallback)
    return await router.route("my account is locked")  # expect: STP002


@step
async def near_miss_router_restricted(text: str) -> str:
    router = Router(handlers={"greeting": GreetingHandler})
    return await router.route("refund please, it arrived broken")  # imprecise: STP002


@step
async def by_intent_of_mode_message(mode: str) -> str:
    message = message_for_mode(mode)
    handler = HANDLERS[classify(message)]()
    return await handler.handle(message)  # expect: STP002


@step
async def near_miss_step_handler_described(text: str) -> str:
    handler = RefundHandler()
    return handler.describe() + ":" + classify(text)


@step
async def by_local_handler_subclass(text: str) -> str:
    class DraftingHandler(Handler):
        name = "draft"

        async def respond(self, text: str) -> str:
            return await steps.draft_answer(text)  # expect: STP001

    return await DraftingHandler().handle(text)  # imprecise: STP002


@step
async def by_supervisor_round_robin(text: str) -> str:
    supervisor = Supervisor(default_team())
    done = await supervisor.delegate(["outline", "sources"])  # expect: STP002
    return ";".join(done)


@step
async def near_miss_supervisor_single_task(text: str) -> str:
    supervisor = Supervisor(default_team())
    return ";".join(await supervisor.delegate([text]))  # imprecise: STP002


@step
async def near_miss_supervisor_writers_only(text: str) -> str:
    supervisor = Supervisor(writers_only())
    return ";".join(await supervisor.delegate(["a", "b", "c", "d"]))


@step
async def by_supervisor_broadcast(text: str) -> str:
    team = [WriterWorker("w1"), ResearchWorker("r9")]
    results = await Supervisor(team).broadcast(text)  # expect: STP002
    return ";".join(results)


@step
async def by_cycle_in_body(text: str) -> str:
    turns = itertools.cycle([ResearchWorker("r1"), WriterWorker("w1")])
    first = next(turns)
    return await first.work(text)  # expect: STP002


@step
async def near_miss_cycle_skipped(text: str) -> str:
    turns = itertools.cycle([ResearchWorker("r1"), WriterWorker("w1")])
    next(turns)
    return await next(turns).work(text)  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_router_refund(mode), await near_miss_router_greeting(mode), await by_router_order_status(mode),
        await near_miss_router_fallback(mode), await by_escalating_fallback(mode),
        await near_miss_router_restricted(mode), await by_intent_of_mode_message(mode),
        await near_miss_step_handler_described(mode), await by_local_handler_subclass(mode),
        await by_supervisor_round_robin(mode), await near_miss_supervisor_single_task(mode),
        await near_miss_supervisor_writers_only(mode), await by_supervisor_broadcast(mode),
        await by_cycle_in_body(mode), await near_miss_cycle_skipped(mode),
    ]
    return "|".join(parts)
