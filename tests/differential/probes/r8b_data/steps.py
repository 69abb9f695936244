"""The application's steps."""
from agent_framework import step


@step
async def geocode(text: str) -> str:
    return "geo:" + text


@step
async def publish(text: str) -> str:
    return "publish:" + text


@step
async def send_email(text: str) -> str:
    return "email:" + text


@step
async def tag_document(text: str) -> str:
    return "tag:" + text


@step
async def bulk_import(text: str) -> str:
    return "bulk:" + text


@step
async def index_document(text: str) -> str:
    return "index:" + text


@step
async def ship(text: str) -> str:
    return "ship:" + text


@step
async def render_image(text: str) -> str:
    return "image:" + text


@step
async def normalize_number(text: str) -> str:
    return str(int(text))
