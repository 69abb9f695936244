"""Optional accelerators with fallbacks, and names bound only for type checkers."""
from typing import TYPE_CHECKING

try:
    from .fastpath import lookup_profile  # type: ignore[import-not-found] - not shipped
except ImportError:
    from .steps import fetch_profile as lookup_profile

try:
    from .steps import normalize as clean
except ImportError:
    from .steps import notify as clean

if TYPE_CHECKING:
    from .steps import archive as finalize
else:
    from .steps import normalize as finalize
