"""Not in the loader's list: its registrations never happen."""
from ..registry import channel, exporter
from ..steps import sms_send

channel("sms")(sms_send)
channel("audit")(sms_send)


@exporter
async def to_sms(text: str) -> str:
    return await sms_send(text)
