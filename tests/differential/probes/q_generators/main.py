"""A generator's body runs where it is iterated, not where the generator is made; code that consumes it
(``"".join``, ``any``, ``anext``, ``send``) runs it there, ``iter(gen)`` is the generator itself and
``contextlib.closing`` hands it back."""
import contextlib

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


def delegating(rows):  # noqa: ANN001, ANN201
    yield from rows


PENDING: list = []
SINK: list = []


def naming(label: str):  # noqa: ANN201
    SINK.append(fetch(label))
    yield label


class Stream:
    def __init__(self, label: str) -> None:
        self.label = label

    async def __aiter__(self):  # noqa: ANN204
        yield await fetch(self.label)


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


@step
async def consumed_by_join(label: str) -> str:
    out = "|".join(naming(label))  # expect: STP002
    return out + await SINK.pop()


@step
async def consumed_by_any(label: str) -> str:
    out = label if any(naming(label)) else ""  # expect: STP002
    return out + await SINK.pop()


@step
async def stepped_by_send(label: str) -> str:
    rows = fetching(label)
    return await rows.send(None)  # expect: STP002


@step
async def stepped_by_anext(label: str) -> str:
    rows = streamed(label)
    return await anext(rows)  # expect: STP002


@step
async def iter_is_the_generator(label: str) -> str:
    rows = iter(fetching(label))
    first = next(rows)  # expect: STP002
    return await first


@step
async def closed_after(label: str) -> str:
    out = []
    with contextlib.closing(fetching(label)) as rows:
        for pending in rows:  # expect: STP002
            out.append(await pending)
    return "|".join(out)


@step
async def async_comprehension_over_aiter(label: str) -> str:
    return "|".join([r async for r in Stream(label)])  # expect: STP002


@step
async def delegated_to_a_given_generator(label: str) -> str:
    return "|".join([await p for p in delegating(fetching(label))])  # expect: STP002


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
    parts += [await consumed_by_join(mode), await consumed_by_any(mode), await stepped_by_send(mode)]
    parts += [await stepped_by_anext(mode), await iter_is_the_generator(mode), await closed_after(mode)]
    parts.append(await async_comprehension_over_aiter(mode))
    parts.append(await delegated_to_a_given_generator(mode))
    return "|".join(parts)
