"""Cooperative mixins: each handle() calls super().handle(), except the short-circuiting cache."""
from __future__ import annotations

from typing import Any

from r9b_mixins import steps
from r9b_mixins.base import TransientError


class LoggingMixin:
    log: list[str]

    def __init__(self, *, log_prefix: str = "log", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.log_prefix = log_prefix

    async def handle(self, request: str) -> str:
        self.log.append(f"{self.log_prefix}:{request}")
        result = await super().handle(request)  # type: ignore[misc]
        self.log.append(f"{self.log_prefix}:done")
        return result


class RetryMixin:
    retries = 3

    async def handle(self, request: str) -> str:
        last: Exception | None = None
        for _attempt in range(self.retries):
            try:
                return await super().handle(request)  # type: ignore[misc]
            except TransientError as exc:
                last = exc
        raise RuntimeError("gave up") from last


class ShortCircuitMixin:
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._answers: dict[str, str] = {}

    async def handle(self, request: str) -> str:
        return self._answers.setdefault(request, "cached:" + request)


class MetricsMixin:
    metric_name = "requests"

    async def handle(self, request: str) -> str:
        await steps.record_metric(self.metric_name)
        return await super().handle(request)  # type: ignore[misc]
