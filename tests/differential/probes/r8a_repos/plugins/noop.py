"""The default plugin: nothing happens."""
from r8a_repos.hooks import Hooks


async def on_order_placed(customer: str) -> str:
    return "no-points:" + customer


async def ignore_customer(customer: str) -> str:
    return "ignored:" + customer


def setup(hooks: Hooks) -> None:
    hooks.add("customer.updated", ignore_customer)
