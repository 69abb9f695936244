"""The application's steps; some are exposed to the model as tools."""
from agent_framework import step


@step
async def lookup_record(query: str) -> str:
    return "record:" + query


@step
async def web_search(query: str) -> str:
    return "results:" + query


@step
async def translate_text(text: str, target: str = "en") -> str:
    return f"{target}:{text}"


@step
async def fetch_page(url: str) -> str:
    return "page:" + url


@step
async def send_email(to: str, body: str) -> str:
    return f"sent:{to}:{body}"
