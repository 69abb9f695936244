"""Background jobs declared on the task app."""
from r8a_cli_tasks.framework.tasks import Task, TaskApp
from r8a_cli_tasks.steps import format_row, render_report, send_welcome_email

app = TaskApp("r8a")


@app.task(bind=True)
async def send_welcome(self: Task, user: str) -> str:
    self.request["user"] = user
    return await send_welcome_email(user)


@app.task()
async def cleanup(key: str) -> str:
    return "cleaned:" + key


@app.task(name="reports.build")
async def build_report(user: str) -> str:
    return format_row(await render_report(user))


@app.task(name="reports.ping")
async def ping(user: str) -> str:
    return format_row("pong:" + user)
