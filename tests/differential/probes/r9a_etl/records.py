"""Extraction: records come out of generators, possibly delegated with `yield from`."""
from itertools import islice
from typing import Iterable, Iterator

RAW = [
    "1,alice,paris,120",
    "2,bob,lyon,80",
    "3,carol,nice,300",
    "4,dave,paris,45",
    "5,erin,lille,95",
]


def parse_line(line: str) -> dict:
    rid, name, city, amount = line.split(",")
    return {"id": rid, "name": name, "city": city, "amount": int(amount)}


def extract(lines: Iterable[str] = RAW) -> Iterator[dict]:
    for line in lines:
        if line.strip():
            yield parse_line(line)


def header_records() -> Iterator[dict]:
    yield {"id": "0", "name": "header", "city": "-", "amount": 0}


def with_header(lines: Iterable[str] = RAW) -> Iterator[dict]:
    yield from header_records()
    yield from extract(lines)


def batched(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield chunk
