"""The application's steps, and plain helpers."""
from agent_framework import step

from r8a_middleware.http import Request


@step
async def audit_request(path: str) -> str:
    return "audit:" + path


@step
async def verify_token(token: str) -> str:
    return "verified:" + token


@step
async def load_orders(user: str) -> str:
    return "orders:" + user


@step
async def fetch_inventory(sku: str) -> str:
    return "inventory:" + sku


@step
async def submit_payment(user: str) -> str:
    return "paid:" + user


@step
async def quote_price(sku: str) -> str:
    return "price:" + sku


@step
async def acquire_token(bucket: str) -> str:
    return "token:" + bucket


@step
async def call_partner(user: str) -> str:
    return "partner:" + user


@step
async def authorize(request: Request) -> str:
    return "authorized:" + request.user


def render(body: str) -> str:
    return "<" + body + ">"
