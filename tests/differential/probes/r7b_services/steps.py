"""The application's steps and the plain functions some services are configured with."""
from agent_framework import step


@step
async def charge(text: str) -> str:
    return "charge:" + text


@step
async def audit_log(text: str) -> str:
    return "audit:" + text


@step
async def query_db(text: str) -> str:
    return "db:" + text


@step
async def send_sms(text: str) -> str:
    return "sms:" + text


async def echo(text: str) -> str:
    return "echo:" + text


async def memory_get(text: str) -> str:
    return "mem:" + text
