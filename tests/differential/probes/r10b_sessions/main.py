"""Unit-of-work code: new and dirty objects flushed through the persister registered for their class (found
along the MRO), a session committing on a clean exit and rolling back on an error, and nested sessions
(savepoints) pushed on a stack. Near misses track only objects whose persister keeps them in memory (or has no
persister at all), expunge the object before flushing, override the persister map, or run against a database
whose transaction control does not go through the driver."""
from agent_framework import step, workflow

from r10b_sessions.models import AdminUser, AuditEntry, Draft, User
from r10b_sessions.persistence import MemoryPersister, NullDatabase, SqlDatabase
from r10b_sessions.session import Session
from r10b_sessions.steps import insert_row


@step
async def by_flush_new_user(name: str) -> str:
    session = Session(NullDatabase())
    session.add(User(name, f"{name}@example.com"))
    rows = await session.flush()  # expect: STP002
    return ",".join(rows)


@step
async def near_miss_flush_audit_only(name: str) -> str:
    session = Session(NullDatabase())
    session.add(AuditEntry("login " + name))
    rows = await session.flush()  # imprecise: STP002
    return ",".join(rows)


@step
async def by_flush_dirty_user(name: str) -> str:
    session = Session(NullDatabase())
    user = User(name)
    user.email = name + "@corp.example"
    session.mark_dirty(user)
    session.add(AuditEntry("email changed"))
    return ",".join(await session.flush())  # expect: STP002


@step
async def near_miss_flush_after_expunge(name: str) -> str:
    session = Session(NullDatabase())
    user = User(name)
    session.add(user)
    session.add(AuditEntry("created " + name))
    session.expunge(user)
    return ",".join(await session.flush())  # imprecise: STP002


@step
async def by_subclass_persister_lookup(name: str) -> str:
    session = Session(NullDatabase())
    session.add(AdminUser(name, level=3))
    return ",".join(await session.flush())  # expect: STP002


@step
async def near_miss_draft_without_persister(name: str) -> str:
    session = Session(NullDatabase())
    session.add(Draft("hello " + name, tags=["wip"]))
    session.mark_dirty(Draft("old"))
    return ",".join(await session.flush())  # imprecise: STP002


@step
async def near_miss_persister_map_override(name: str) -> str:
    session = Session(NullDatabase(), persisters={User: MemoryPersister(), AuditEntry: MemoryPersister()})
    session.add(User(name))
    session.add(AdminUser(name + "-admin"))
    return ",".join(await session.flush())  # imprecise: STP002


@step
async def by_commit_on_clean_exit(name: str) -> str:
    async with Session(SqlDatabase("audit")) as session:  # expect: STP002
        session.add(AuditEntry("export by " + name))
    return ",".join(session.flushed)


@step
async def near_miss_commit_on_null_database(name: str) -> str:
    db = NullDatabase()
    async with Session(db) as session:  # imprecise: STP002
        session.add(AuditEntry("export by " + name))
    return ",".join(db.history)


@step
async def by_rollback_on_error(name: str) -> str:
    try:
        async with Session(SqlDatabase("accounts")) as session:  # expect: STP002
            session.add(User(name))
            raise ValueError("duplicate " + name)
    except ValueError as exc:
        return f"rolled back: {exc}"
    return "committed"


@step
async def by_savepoint(name: str) -> str:
    session = Session(SqlDatabase("orders"))
    async with session.begin_nested() as savepoint:  # expect: STP002
        savepoint.add(AuditEntry("draft order " + name))
    return savepoint.label


@step
async def near_miss_nested_savepoints_null_database(name: str) -> str:
    db = NullDatabase()
    session = Session(db)
    async with session.begin_nested() as outer:  # imprecise: STP002
        outer.add(AuditEntry("a"))
        async with session.begin_nested() as inner:  # imprecise: STP002
            inner.add(AuditEntry("b"))
            raise ValueError("inner failed")
    await session.flush()
    return ",".join(db.history)


@step
async def by_direct_insert_in_session(name: str) -> str:
    async with Session(NullDatabase()) as session:  # imprecise: STP002
        session.add(AuditEntry("manual insert"))
        row = await insert_row("users:" + name)  # expect: STP001
    return row


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_flush_new_user(mode), await near_miss_flush_audit_only(mode), await by_flush_dirty_user(mode),
        await near_miss_flush_after_expunge(mode), await by_subclass_persister_lookup(mode),
        await near_miss_draft_without_persister(mode), await near_miss_persister_map_override(mode),
        await by_commit_on_clean_exit(mode), await near_miss_commit_on_null_database(mode),
        await by_rollback_on_error(mode), await by_savepoint(mode),
        await near_miss_nested_savepoints_null_database(mode), await by_direct_insert_in_session(mode),
    ]
    return "|".join(parts)
