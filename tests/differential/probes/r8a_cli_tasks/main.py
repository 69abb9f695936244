"""Command and task registries written by hand: a Click-like group dispatching argv to decorated commands (a
command by its name, by an alias, in a subgroup, and a step registered directly as a command), a Celery-like
task app (``delay(...).get()``, ``__call__`` on a bound task, ``send_task`` by string name), and an event
emitter (``emit`` awaiting every ``on`` listener; a ``once`` listener defined in the step body itself).
Near misses: a command that stays plain, a step command only looked up, ``apply_async`` whose result is never
awaited, ``send_task`` naming a plain task, an event whose listeners are plain, and a ``once`` listener
already spent."""
from agent_framework import step, workflow

from r8a_cli_tasks.commands import cli
from r8a_cli_tasks.jobs import app, cleanup, send_welcome
from r8a_cli_tasks.listeners import events
from r8a_cli_tasks.steps import purge_cache


@step
async def by_command_name(user: str) -> str:
    return await cli.invoke(["sync", user])  # expect: STP002


@step
async def near_miss_plain_command(user: str) -> str:
    return await cli.invoke(["status", user])


@step
async def by_command_alias(user: str) -> str:
    return await cli.invoke(["ls", user, "--limit=5"])  # expect: STP002


@step
async def by_subgroup_command(user: str) -> str:
    argv = ["db", "migrate", user]
    return await cli.invoke(argv)  # expect: STP002


@step
async def by_step_registered_as_command(user: str) -> str:
    return await cli.invoke(["export", user])  # expect: STP002


@step
async def near_miss_command_only_looked_up(user: str) -> str:
    command = cli.get_command("export")
    return command.name + ":" + user


@step
async def by_task_delay(user: str) -> str:
    result = send_welcome.delay(user)
    return await result.get()  # expect: STP002


@step
async def by_task_called_directly(user: str) -> str:
    return await send_welcome(user)  # expect: STP002


@step
async def near_miss_apply_async_not_awaited(user: str) -> str:
    result = cleanup.apply_async(args=(user,), countdown=5)
    return result.id + ":" + result.state


@step
async def by_send_task_by_name(user: str) -> str:
    return await app.send_task("reports.build", args=(user,)).get()  # expect: STP002


@step
async def near_miss_send_task_plain(user: str) -> str:
    return await app.send_task("reports.ping", args=(user,)).get()


@step
async def by_event_listeners(user: str) -> str:
    results = await events.emit("user.created", user)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_plain_listeners(user: str) -> str:
    results = await events.emit("user.viewed", user)
    return ",".join(results)


@step
async def by_local_once_listener(user: str) -> str:
    @events.once("cache.flush")
    async def flush(key: str) -> str:
        return await purge_cache(key)  # expect: STP001

    return ",".join(await events.emit("cache.flush", user))


@step
async def near_miss_once_listener_spent(user: str) -> str:
    return ",".join(await events.emit("cache.flush", user)) or "nothing to flush"  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_command_name(mode), await near_miss_plain_command(mode), await by_command_alias(mode),
        await by_subgroup_command(mode), await by_step_registered_as_command(mode),
        await near_miss_command_only_looked_up(mode), await by_task_delay(mode), await by_task_called_directly(mode),
        await near_miss_apply_async_not_awaited(mode), await by_send_task_by_name(mode),
        await near_miss_send_task_plain(mode), await by_event_listeners(mode), await near_miss_plain_listeners(mode),
        await by_local_once_listener(mode), await near_miss_once_listener_spent(mode),
    ]
    return "|".join(parts)
