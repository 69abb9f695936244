from agent_framework import step


@step
async def send_email(user: str) -> str:
    return "email:" + user


def render_email(user: str) -> str:
    return "Hello " + user
