"""Inner steps of the metaclass program."""
from agent_framework import step


@step
async def export_data(payload: str) -> str:
    return "export:" + payload


@step
async def create_record(payload: str) -> str:
    return "created:" + payload


@step
async def charge_card(payload: str) -> str:
    return "charged:" + payload


@step
async def encode_json(payload: str) -> str:
    return '{"v": "%s"}' % payload


@step
async def format_amount(payload: str) -> str:
    return "$" + payload


@step
async def deploy(payload: str) -> str:
    return "deployed:" + payload


@step
async def audit(payload: str) -> str:
    return "audit:" + payload


async def rollback(payload: str) -> str:
    return "rolled-back:" + payload
