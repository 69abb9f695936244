"""The command pattern inside steps: a command bus mapping command classes to handlers (an async handler that
awaits a step, a plain sync handler that returns a step's coroutine for the bus to await, a nested handler
defined in the step body), middleware wrapped around dispatch with functools.partial (a journal object with
__call__ and a dry-run guard), dataclass commands with execute()/undo(), an undo/redo history on deques, and a
macro command holding a list of commands. Near misses: a plain handler, the dry-run guard short-circuiting, an
unregistered command, a handler overwritten by a plain one, a bounded history whose maxlen evicted the command
whose undo reaches a step, undoing a macro whose undos are all plain, and a redo with nothing undone."""
from agent_framework import step, workflow

from r9c_commands import steps
from r9c_commands.bus import (
    ArchiveOrder,
    CancelOrder,
    CommandBus,
    CreateOrder,
    Journal,
    ShipOrder,
    dry_run_guard,
    handle_cancel,
    handle_create,
    ship_with_step,
)
from r9c_commands.commands import AddItem, History, MacroCommand, Note, Reserve
from r9c_commands.inventory import Inventory


@step
async def by_bus_registered_handler(order_id: str) -> str:
    bus = CommandBus()
    bus.register(CreateOrder, handle_create)
    bus.register(CancelOrder, handle_cancel)
    return await bus.dispatch(CreateOrder(order_id, qty=2))  # expect: STP002


@step
async def near_miss_plain_handler(order_id: str) -> str:
    bus = CommandBus()
    bus.register(CreateOrder, handle_create)
    bus.register(CancelOrder, handle_cancel)
    return await bus.dispatch(CancelOrder(order_id))


@step
async def by_sync_handler_returning_coroutine(order_id: str) -> str:
    bus = CommandBus()
    bus.register(ShipOrder, ship_with_step)
    return await bus.dispatch(ShipOrder(order_id))  # expect: STP002


@step
async def by_middleware_chain(order_id: str) -> str:
    journal = Journal()
    bus = CommandBus().use(journal).use(dry_run_guard)
    bus.register(CreateOrder, handle_create)
    result = await bus.dispatch(CreateOrder(order_id, qty=3))  # expect: STP002
    return f"{result} via {journal.entries}"


@step
async def near_miss_dry_run_guard(order_id: str) -> str:
    journal = Journal()
    bus = CommandBus().use(journal).use(dry_run_guard)
    bus.register(CreateOrder, handle_create)
    return await bus.dispatch(CreateOrder(order_id, qty=3, dry_run=True))  # imprecise: STP002


@step
async def near_miss_unregistered_command(order_id: str) -> str:
    bus = CommandBus().use(Journal())
    bus.register(CreateOrder, handle_create)
    bus.register(ShipOrder, ship_with_step)
    return await bus.dispatch(ArchiveOrder(order_id))


@step
async def near_miss_handler_overwritten(order_id: str) -> str:
    bus = CommandBus()
    bus.register(CreateOrder, handle_create)
    bus.register(CreateOrder, lambda command: handle_cancel(CancelOrder(command.order_id)))
    return await bus.dispatch(CreateOrder(order_id))  # imprecise: STP002


@step
async def by_nested_handler(order_id: str) -> str:
    async def handle_ship(command: ShipOrder) -> str:
        label = command.order_id.upper()
        return await steps.ship_parcel(label)  # expect: STP001

    bus = CommandBus().use(dry_run_guard)
    bus.register(ShipOrder, handle_ship)
    return await bus.dispatch(ShipOrder(order_id))  # imprecise: STP002


@step
async def by_undo_stack(sku: str) -> str:
    history = History()
    inventory = Inventory()
    await history.run(AddItem(inventory, sku, 4))
    return await history.undo()  # unknown: STP002


@step
async def near_miss_bounded_history(sku: str) -> str:
    history = History(limit=1)
    inventory = Inventory()
    await history.run(AddItem(inventory, sku, 4))
    await history.run(Note(f"counted {sku}"))
    first = await history.undo()
    second = await history.undo()
    return f"{first};{second}"


@step
async def by_macro_command(sku: str) -> str:
    history = History()
    macro = MacroCommand([Note(f"reserve {sku}"), Reserve(sku, 1)])
    return await history.run(macro)  # expect: STP002


@step
async def near_miss_macro_undo(sku: str) -> str:
    macro = MacroCommand([Reserve(sku, 2), Note(f"reserve {sku}")])
    return await macro.undo()


@step
async def by_redo(sku: str) -> str:
    history = History()
    await history.run(Note(f"plan {sku}"))
    first = await history.run(Reserve(sku, 5))  # expect: STP002
    undone = await history.undo()
    redone = await history.redo()  # unknown: STP002
    return f"{first};{undone};{redone}"


@step
async def near_miss_redo_nothing_undone(sku: str) -> str:
    history = History()
    inventory = Inventory()
    await history.run(AddItem(inventory, sku, 1))
    return await history.redo()


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_bus_registered_handler(f"{mode}-1"),
        await near_miss_plain_handler(f"{mode}-2"),
        await by_sync_handler_returning_coroutine(f"{mode}-3"),
        await by_middleware_chain(f"{mode}-4"),
        await near_miss_dry_run_guard(f"{mode}-5"),
        await near_miss_unregistered_command(f"{mode}-6"),
        await near_miss_handler_overwritten(f"{mode}-7"),
        await by_nested_handler(f"{mode}-8"),
        await by_undo_stack(f"{mode}-sku1"),
        await near_miss_bounded_history(f"{mode}-sku2"),
        await by_macro_command(f"{mode}-sku3"),
        await near_miss_macro_undo(f"{mode}-sku4"),
        await by_redo(f"{mode}-sku5"),
        await near_miss_redo_nothing_undone(f"{mode}-sku6"),
    ]
    return "|".join(parts)
