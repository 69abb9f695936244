"""A timed-job scheduler inside steps: a heapq of (due, seq) entries over a dict of (callable, args) jobs, a fake
minute clock advanced by run_until() with asyncio.sleep(0) ticks, sched-like cancellation (the heap entry stays,
the job is dropped), a step itself scheduled as the job callable, a functools.partial job with a bound keyword,
ties on the due time broken by insertion order, a heartbeat object that reschedules itself until its report
beat, cron-like "minute hour" schedules parsed from strings whose job re-enters itself at the next match, and a
job defined as a nested function in the step body. Near misses: a job not yet due, a cancelled job, a step
scheduled but never run, a heartbeat whose report beat lies past the horizon, a cron window never reached, and
the step-reaching job queued behind an earlier job when only run_next() is called."""
import functools

from agent_framework import step, workflow

from r9c_scheduler import steps
from r9c_scheduler.clock import FakeClock
from r9c_scheduler.jobs import Heartbeat, LogRotation, cleanup_job, digest_job, notify
from r9c_scheduler.scheduler import Scheduler


@step
async def by_due_job(user: str) -> str:
    sched = Scheduler(FakeClock(0))
    sched.enter(0, digest_job, user)
    sched.enter(0, cleanup_job, "/tmp/a")
    results = await sched.run_pending()  # expect: STP002
    return ",".join(results)


@step
async def near_miss_job_not_due(user: str) -> str:
    sched = Scheduler(FakeClock(0))
    sched.enter(60, digest_job, user)
    results = await sched.run_pending()  # imprecise: STP002
    return f"{len(results)} ran, next at {sched.next_due()}"


@step
async def by_run_until_fake_clock(user: str) -> str:
    sched = Scheduler(FakeClock(0))
    sched.enter(30, digest_job, user)
    results = await sched.run_until(45)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_cancelled_job(user: str) -> str:
    sched = Scheduler(FakeClock(0))
    token = sched.enter(0, digest_job, user)
    sched.enter(0, cleanup_job, "/tmp/b")
    sched.cancel(token)
    results = await sched.run_pending()  # imprecise: STP002
    return ",".join(results)


@step
async def by_step_as_job_callable(target: str) -> str:
    sched = Scheduler(FakeClock(100))
    sched.enter(5, steps.rotate_logs, target)
    results = await sched.run_until(110)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_step_scheduled_never_run(target: str) -> str:
    sched = Scheduler(FakeClock(100))
    sched.enter(0, steps.rotate_logs, target)
    return f"{sched.pending()} pending, due {sched.next_due()}"


@step
async def by_self_rescheduling_heartbeat(name: str) -> str:
    sched = Scheduler(FakeClock(0))
    heartbeat = Heartbeat(sched, name, interval=10, report_at=3)
    sched.enter(0, heartbeat)
    results = await sched.run_until(30)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_heartbeat_past_horizon(name: str) -> str:
    sched = Scheduler(FakeClock(0))
    heartbeat = Heartbeat(sched, name, interval=10, report_at=5)
    sched.enter(0, heartbeat)
    results = await sched.run_until(25)  # imprecise: STP002
    return ",".join(results)


@step
async def by_cron_schedule(target: str) -> str:
    clock = FakeClock(FakeClock.at(9, 0))
    sched = Scheduler(clock)
    rotation = LogRotation()
    sched.every("*/15 9-17 * * *", rotation.rotate, target)
    results = await sched.run_until(FakeClock.at(9, 20))  # expect: STP002
    return f"{','.join(results)} runs={rotation.runs}"


@step
async def near_miss_cron_window_not_reached(target: str) -> str:
    clock = FakeClock(FakeClock.at(8, 0))
    sched = Scheduler(clock)
    rotation = LogRotation()
    sched.every("0 18 * * *", rotation.rotate, target)
    results = await sched.run_until(FakeClock.at(8, 30))  # imprecise: STP002
    return f"{len(results)} ran, next at {sched.next_due()}"


@step
async def by_partial_job_first_in_tie(text: str) -> str:
    clock = FakeClock(0)
    sched = Scheduler(clock)
    sched.enter(5, functools.partial(notify, channel="sms"), text)
    sched.enter(5, cleanup_job, "/tmp/c")
    clock.advance(5)
    return await sched.run_next()  # expect: STP002


@step
async def near_miss_partial_job_second_in_tie(text: str) -> str:
    clock = FakeClock(0)
    sched = Scheduler(clock)
    sched.enter(5, cleanup_job, "/tmp/d")
    sched.enter(5, functools.partial(notify, channel="sms"), text)
    clock.advance(5)
    return await sched.run_next()  # imprecise: STP002


@step
async def by_nested_job(text: str) -> str:
    sched = Scheduler(FakeClock(0))

    async def ping(target: str) -> str:
        return await steps.deliver("ping", f"{target}:{text}")  # expect: STP001

    sched.enter(1, ping, "edge-1")
    results = await sched.run_until(2)  # imprecise: STP002
    return ",".join(results)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_due_job(f"{mode}-ann"),
        await near_miss_job_not_due(f"{mode}-bob"),
        await by_run_until_fake_clock(f"{mode}-cid"),
        await near_miss_cancelled_job(f"{mode}-dee"),
        await by_step_as_job_callable(f"{mode}-app.log"),
        await near_miss_step_scheduled_never_run(f"{mode}-db.log"),
        await by_self_rescheduling_heartbeat(f"{mode}-hb1"),
        await near_miss_heartbeat_past_horizon(f"{mode}-hb2"),
        await by_cron_schedule(f"{mode}-web"),
        await near_miss_cron_window_not_reached(f"{mode}-batch"),
        await by_partial_job_first_in_tie(f"{mode}-hello"),
        await near_miss_partial_job_second_in_tie(f"{mode}-bye"),
        await by_nested_job(f"{mode}-x"),
    ]
    return "|".join(parts)
