from . import email


async def send_sms(user: str) -> str:
    return "sms:" + user


async def send_sms_via_email(user: str) -> str:
    return await email.send_email(user + "@sms")
