"""Mutual recursion: even/odd hand a request back and forth until the counter runs out."""
from r10c_recursion.steps import on_even


async def plain_odd(key: str) -> str:
    return "odd:" + key


async def even(n: int, key: str) -> str:
    if n == 0:
        return await on_even(key)
    return await odd(n - 1, key)


async def odd(n: int, key: str) -> str:
    if n == 0:
        return await plain_odd(key)
    return await even(n - 1, key)
