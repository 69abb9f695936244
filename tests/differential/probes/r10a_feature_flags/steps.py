"""The application's steps."""
from agent_framework import step


@step
async def charge(order: str) -> str:
    return "charged:" + order


@step
async def embed_query(query: str) -> str:
    return "embedded:" + query


@step
async def recommend(user: str) -> str:
    return "recommended:" + user


@step
async def show_banner(user: str) -> str:
    return "banner:" + user


@step
async def email_receipt(order: str) -> str:
    return "emailed:" + order


@step
async def personalize(user: str) -> str:
    return "personalized:" + user
