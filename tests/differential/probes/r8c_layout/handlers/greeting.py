async def handle(text: str) -> str:
    return "hello " + text
