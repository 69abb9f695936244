"""Base service and cooperative mixins whose async methods chain through super()."""
from ..steps import audit_log, echo


class BaseService:
    runner = staticmethod(echo)

    async def process(self, text: str) -> str:
        return await self.runner(text)

    async def handle(self, text: str) -> str:
        return await self.process(text)


class LoggingMixin:
    async def process(self, text: str) -> str:
        result = await super().process("log:" + text)
        return result


class AuditMixin:
    async def process(self, text: str) -> str:
        await audit_log(text)
        return await super().process(text)


class QuietMixin:
    async def process(self, text: str) -> str:
        return "quiet:" + text
