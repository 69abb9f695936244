"""Plain functions that share names with steps (test doubles the project keeps around)."""


async def fetch_user(user: str) -> str:
    return "plain-user:" + user


async def send_mail(text: str) -> str:
    return "plain-mail:" + text
