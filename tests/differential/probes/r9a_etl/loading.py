"""Loading: consumers of batches and a Loader whose sink is chosen at construction."""
from typing import Awaitable, Callable, Iterable

from r9a_etl.steps import memory_sink, store_batch


async def load_batches(batches: Iterable[list], sink: Callable[[list], Awaitable[int]]) -> int:
    total = 0
    for batch in batches:
        total += await sink(batch)
    return total


class Loader:
    def __init__(self, durable: bool) -> None:
        self.durable = durable
        self.buffer: list = []

    async def load(self, records: Iterable[dict]) -> int:
        for record in records:
            self.buffer.append(record["id"])
        if self.durable:
            return await store_batch(self.buffer)
        return await memory_sink(self.buffer)
