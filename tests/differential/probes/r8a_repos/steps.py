"""The application's steps."""
from agent_framework import step


@step
async def insert_row(table: str, key: str) -> str:
    return f"insert:{table}:{key}"


@step
async def select_row(table: str, key: str) -> str:
    return f"select:{table}:{key}"


@step
async def commit_transaction(tx: str) -> str:
    return "commit:" + tx


@step
async def book_courier(order: str) -> str:
    return "courier:" + order


@step
async def award_points(customer: str) -> str:
    return "points:" + customer


@step
async def notify_crm(customer: str) -> str:
    return "crm:" + customer
