"""Plain functions that happen to share names with steps."""


async def enrich(text: str) -> str:
    return "plain-enrich:" + text


async def archive(text: str) -> str:
    return "plain-archive:" + text
