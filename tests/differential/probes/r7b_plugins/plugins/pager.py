"""Loaded by its short name, through an f-string."""
from ..registry import channel
from ..steps import sms_send

channel("pager")(sms_send)
