"""The application's steps."""
from agent_framework import step

from r8c_memory.messages import Message


@step
async def summarize_turns(transcript: str) -> str:
    return "summary(" + str(transcript.count("\n") + 1) + ")"


@step
async def embed_text(text: str) -> str:
    return "vec:" + str(len(text))


@step
async def moderate_message(text: str) -> str:
    return "ok:" + text


@step
async def store_fact(text: str) -> str:
    return "stored:" + text


@step
async def notify_planner(text: str) -> str:
    return "planner<-" + text


@step
async def archive_message(message: Message) -> str:
    return f"archived:{message.role}:{message.text}"
