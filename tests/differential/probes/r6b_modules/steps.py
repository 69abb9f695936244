from agent_framework import step


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


@step
async def store(label: str) -> str:
    return "store:" + label


async def plain(label: str) -> str:
    return "plain:" + label
