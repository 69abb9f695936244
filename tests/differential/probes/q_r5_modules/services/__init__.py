"""Outbound messaging."""
from . import sms
from .email import send_email

__all__ = ["send_email", "sms"]
