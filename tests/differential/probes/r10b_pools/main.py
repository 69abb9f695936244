"""Pool users: `async with pool.acquire() as conn` and `conn.execute`, several resources through an
AsyncExitStack, try/finally giving a connection back, a closed pool whose acquire raises, and callbacks pushed
onto an exit stack. Near misses use prewarmed pools (no driver call on checkout), in-memory connections, a
quiet pool giving connections back without the driver, and a closed pool that never reaches execute."""
from contextlib import AsyncExitStack

from agent_framework import step, workflow

from r10b_pools.pool import AuditedPool, MemoryConnection, Pool, PoolClosed, QuietPool, reset_connection
from r10b_pools.steps import log_event, release_connection


@step
async def by_execute_in_acquire(key: str) -> str:
    pool = Pool("orders", prewarmed=True)
    async with pool.acquire() as conn:  # imprecise: STP002
        return await conn.execute("select * from orders where id = " + key)  # expect: STP002


@step
async def near_miss_memory_connection(key: str) -> str:
    pool = Pool("orders", connection_cls=MemoryConnection, prewarmed=True)
    async with pool.acquire() as conn:  # imprecise: STP002
        return await conn.execute("select * from orders where id = " + key)


@step
async def by_lazy_open_on_acquire(key: str) -> str:
    pool = Pool("users", connection_cls=MemoryConnection)
    async with pool.acquire() as conn:  # expect: STP002
        return conn.handle + await conn.execute("select 1")


@step
async def by_exit_stack_resources(key: str) -> str:
    primary = Pool("primary", connection_cls=MemoryConnection, prewarmed=True)
    replica = Pool("replica", connection_cls=MemoryConnection)
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(primary.acquire())  # imprecise: STP002
        b = await stack.enter_async_context(replica.acquire())  # expect: STP002
        return await a.execute("write " + key) + await b.execute("read " + key)


@step
async def near_miss_exit_stack_prewarmed(key: str) -> str:
    pools = [Pool(name, connection_cls=MemoryConnection, prewarmed=True) for name in ("primary", "replica")]
    async with AsyncExitStack() as stack:
        conns = [await stack.enter_async_context(p.acquire()) for p in pools]  # imprecise: STP002
        results = [await c.execute("read " + key) for c in conns]
    return ",".join(results)


@step
async def by_finally_give_back(key: str) -> str:
    pool = AuditedPool("ledger", connection_cls=MemoryConnection, prewarmed=True)
    conn = await pool.checkout()  # imprecise: STP002
    try:
        return await conn.execute("update ledger set v = " + key)  # imprecise: STP002
    finally:
        await pool.give_back(conn)  # expect: STP002


@step
async def near_miss_finally_quiet_give_back(key: str) -> str:
    pool = QuietPool("ledger", connection_cls=MemoryConnection, prewarmed=True)
    conn = await pool.checkout()  # imprecise: STP002
    try:
        return await conn.execute("update ledger set v = " + key)  # imprecise: STP002
    finally:
        await pool.give_back(conn)


@step
async def near_miss_closed_pool(key: str) -> str:
    pool = Pool("archive", prewarmed=True)
    await pool.close()
    try:
        async with pool.acquire() as conn:  # imprecise: STP002
            return await conn.execute("select * from archive where id = " + key)  # imprecise: STP002
    except PoolClosed:
        return "archive unavailable"


@step
async def by_log_when_closed(key: str) -> str:
    pool = Pool("archive", prewarmed=True)
    await pool.close()
    try:
        async with pool.acquire() as conn:  # imprecise: STP002
            return await conn.execute("select * from archive where id = " + key)  # imprecise: STP002
    except PoolClosed as exc:
        return await log_event(f"pool closed: {exc}")  # expect: STP001


@step
async def by_pushed_release_callback(key: str) -> str:
    pool = Pool("cache", connection_cls=MemoryConnection, prewarmed=True)
    async with AsyncExitStack() as stack:  # expect: STP001
        conn = await pool.checkout()  # imprecise: STP002
        stack.callback(pool.release, conn)
        stack.push_async_callback(release_connection, conn.name)
        return await conn.execute("get " + key)  # imprecise: STP002


@step
async def near_miss_pushed_plain_callback(key: str) -> str:
    pool = Pool("cache", connection_cls=MemoryConnection, prewarmed=True)
    async with AsyncExitStack() as stack:
        conn = await pool.checkout()  # imprecise: STP002
        stack.callback(pool.release, conn)
        stack.push_async_callback(reset_connection, conn.name)
        return await conn.execute("get " + key)  # imprecise: STP002


@step
async def near_miss_pool_with_idle_connection(key: str) -> str:
    pool = Pool("sessions", size=1, connection_cls=MemoryConnection)
    pool.release(MemoryConnection("sessions#spare"))
    async with pool.acquire() as conn:  # imprecise: STP002
        return await conn.execute("select " + key)  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_execute_in_acquire(mode), await near_miss_memory_connection(mode),
        await by_lazy_open_on_acquire(mode), await by_exit_stack_resources(mode),
        await near_miss_exit_stack_prewarmed(mode), await by_finally_give_back(mode),
        await near_miss_finally_quiet_give_back(mode), await near_miss_closed_pool(mode),
        await by_log_when_closed(mode), await by_pushed_release_callback(mode),
        await near_miss_pushed_plain_callback(mode), await near_miss_pool_with_idle_connection(mode),
    ]
    return "|".join(parts)
