"""A generator's body runs where it is iterated, not where the generator is made."""
from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


def fetching(label: str):  # noqa: ANN201
    yield fetch(label)


def plain_rows(label: str):  # noqa: ANN201
    yield label


async def streamed(label: str):  # noqa: ANN201
    yield await fetch(label)


PENDING: list = []


@step
async def made_here_iterated_by_the_workflow(label: str) -> str:
    PENDING.append(streamed(label))
    return label


@step
async def made_and_never_iterated(label: str) -> str:
    rows = streamed(label)
    return label if rows is not None else ""


@step
async def iterated_where_made(label: str) -> str:
    out = []
    async for item in streamed(label):  # expect: STP002
        out.append(item)
    return "|".join(out)


@step
async def made_then_listed(label: str) -> str:
    rows = fetching(label)
    pending = list(rows)  # expect: STP002
    return "|".join([await p for p in pending])


@step
async def made_then_next(label: str) -> str:
    rows = fetching(label)
    first = next(rows)  # expect: STP002
    return await first


@step
async def made_then_comprehension(label: str) -> str:
    rows = fetching(label)
    pending = [p for p in rows]  # expect: STP002
    return "|".join([await p for p in pending])


@step
async def near_miss_plain_rows(label: str) -> str:
    return "|".join(plain_rows(label))


@workflow
async def flow(mode: str) -> str:
    parts = [await made_here_iterated_by_the_workflow(mode)]
    async for item in PENDING.pop():
        parts.append(item)
    parts.append(await made_and_never_iterated(mode))
    parts.append(await iterated_where_made(mode))
    parts.append(await made_then_listed(mode))
    parts.append(await made_then_next(mode))
    parts.append(await made_then_comprehension(mode))
    parts.append(await near_miss_plain_rows(mode))
    return "|".join(parts)
