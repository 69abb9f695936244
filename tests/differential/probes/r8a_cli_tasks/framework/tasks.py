"""A Celery-like task registry run eagerly: ``@app.task`` turns a function into a Task with ``delay``,
``apply_async`` and ``__call__``; results are lazy until ``get()`` is awaited."""
from __future__ import annotations

import itertools
from typing import Any, Awaitable, Callable

_ids = itertools.count(1)


class AsyncResult:
    def __init__(self, task: "Task", args: tuple, kwargs: dict, countdown: float = 0) -> None:
        self.id = f"{task.name}-{next(_ids)}"
        self.task = task
        self.args = args
        self.kwargs = kwargs
        self.countdown = countdown
        self.state = "PENDING"

    async def get(self) -> Any:
        value = await self.task.run(*self.args, **self.kwargs)
        self.state = "SUCCESS"
        return value


class Task:
    def __init__(self, app: "TaskApp", func: Callable[..., Awaitable[Any]], name: str, bind: bool) -> None:
        self.app = app
        self.func = func
        self.name = name
        self.bind = bind
        self.request: dict[str, Any] = {}

    async def run(self, *args: Any, **kwargs: Any) -> Any:
        if self.bind:
            return await self.func(self, *args, **kwargs)
        return await self.func(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Awaitable[Any]:
        return self.run(*args, **kwargs)

    def apply_async(self, args: tuple = (), kwargs: dict | None = None, countdown: float = 0) -> AsyncResult:
        return AsyncResult(self, tuple(args), dict(kwargs or {}), countdown)

    def delay(self, *args: Any, **kwargs: Any) -> AsyncResult:
        return self.apply_async(args, kwargs)


class TaskApp:
    def __init__(self, main: str) -> None:
        self.main = main
        self.tasks: dict[str, Task] = {}

    def task(self, name: str | None = None, *, bind: bool = False) -> Callable[[Callable], Task]:
        def decorator(func: Callable[..., Awaitable[Any]]) -> Task:
            task_name = name or f"{self.main}.{func.__name__}"
            task = Task(self, func, task_name, bind)
            self.tasks[task_name] = task
            return task
        return decorator

    def send_task(self, name: str, args: tuple = (), kwargs: dict | None = None) -> AsyncResult:
        return self.tasks[name].apply_async(args, kwargs)
