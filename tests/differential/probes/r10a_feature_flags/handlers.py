"""Handlers chosen by flags."""
import functools
from typing import Any, Awaitable, Callable

from r10a_feature_flags import steps
from r10a_feature_flags.flags import Flags

Handler = Callable[[str], Awaitable[str]]


async def new_checkout(order: str) -> str:
    return await steps.charge("v2:" + order)


async def legacy_checkout(order: str) -> str:
    return "legacy:" + order


CHECKOUT_HANDLERS: dict[bool, Handler] = {True: new_checkout, False: legacy_checkout}


async def keyword_search(query: str) -> str:
    return "keywords:" + ",".join(query.split())


async def semantic_search(query: str) -> str:
    vector = await steps.embed_query(query)
    return "semantic:" + vector


SEARCH_HANDLERS: dict[str, Handler] = {"control": keyword_search, "semantic": semantic_search}
SEARCH_VARIANTS = tuple(SEARCH_HANDLERS)


class PaymentGateway:
    def __init__(self, flags: Flags) -> None:
        self.flags = flags

    async def pay(self, order: str) -> str:
        if self.flags.kill_switch_payments:
            return "payments-disabled:" + order
        return await steps.charge(order)


class PersonalRecommender:
    async def suggest(self, user: str) -> str:
        return await steps.personalize(user)


class PopularRecommender:
    async def suggest(self, user: str) -> str:
        return "popular-for:" + user


def recommender_for(flags: Flags, bucket: int) -> Any:
    if bucket < flags.recommend_rollout:
        return PersonalRecommender()
    return PopularRecommender()


async def skip_receipt(order: str) -> str:
    return "no-receipt:" + order


def gated(flag_name: str, fallback: Handler) -> Callable[[Handler], Callable[[Flags, str], Awaitable[str]]]:
    def decorator(func: Handler) -> Callable[[Flags, str], Awaitable[str]]:
        @functools.wraps(func)
        async def wrapper(flags: Flags, item: str) -> str:
            if getattr(flags, flag_name):
                return await func(item)
            return await fallback(item)

        return wrapper

    return decorator


@gated("receipts", fallback=skip_receipt)
async def send_receipt(order: str) -> str:
    return await steps.email_receipt(order)


async def plain_banner(user: str) -> str:
    return "no-banner:" + user
