from ..registry import channel, exporter
from ..steps import email_send, export_csv, log_only

channel("email")(email_send)
channel("audit")(log_only)


@exporter
async def to_csv(text: str) -> str:
    return await export_csv(text)


@exporter
async def to_log(text: str) -> str:
    return await log_only(text)
