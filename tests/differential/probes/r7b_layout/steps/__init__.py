"""The steps subpackage: star re-exports whose __all__ is the sum of its modules', and aliases."""
from . import fetch, notify
from .fetch import *  # noqa: F401, F403
from .notify import *  # noqa: F401, F403
from .fetch import fetch_order as load_order
from .notify import send_mail as notify_user

__all__ = fetch.__all__ + notify.__all__ + ["load_order", "notify_user"]
