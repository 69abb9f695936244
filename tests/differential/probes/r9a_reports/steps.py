"""Steps the report builders depend on."""
from agent_framework import step


@step
async def fetch_metrics(name: str) -> list:
    return [name, len(name), len(name) * 2]


@step
async def render_chart(title: str) -> str:
    return f"<chart {title}>"


@step
async def lookup_owner(team: str) -> str:
    return "owner-of-" + team


@step
async def translate(text: str) -> str:
    return text[::-1]


@step
async def annotate_row(row: list) -> list:
    return row + ["checked"]
