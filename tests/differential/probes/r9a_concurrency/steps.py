"""Steps that talk to the (simulated) outside world, and their in-memory stand-ins."""
from agent_framework import step


@step
async def fetch_page(url: str, region: str = "eu") -> str:
    return f"page:{region}:{url}"


@step
async def score(item: str) -> int:
    return len(item)


@step
async def notify(message: str) -> str:
    return "sent:" + message


async def cached_page(url: str, region: str = "eu") -> str:
    return f"cached:{region}:{url}"


async def local_score(item: str) -> int:
    return -len(item)


async def log_only(message: str) -> str:
    return "logged:" + message
