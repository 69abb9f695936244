"""Loyalty plugin: order placement awards points (a step), and a hook tells the CRM."""
from r8a_repos.hooks import Hooks
from r8a_repos.steps import award_points, notify_crm

on_order_placed = award_points


async def sync_customer(customer: str) -> str:
    return await notify_crm(customer)


def setup(hooks: Hooks) -> None:
    hooks.add("customer.updated", sync_customer)
