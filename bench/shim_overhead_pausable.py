"""bench/shim_overhead.py's workflow, defined in a module whose source names ``request_info``.

The shim pays for scoped keys and replay records only in runs a later run can take the cache of
(``steplint.runtime_shim.resumability``): a storage-less run whose workflow module names a way to pause
is one (it may pause and be answered by ``run(responses=...)``). ``--can-pause`` times this workflow, so
the storage-less cost of such runs is measured too. It never pauses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import agent_framework as maf


def pausable_workflow(trivial: Any, calls_trivial: Any, settings: dict[str, Any],
                      arguments: dict[str, Callable[[int], Any]]) -> Any:
    @maf.workflow(name="shim-overhead")
    async def many_steps_pausable(_: str) -> int:
        if settings.get("pause"):  # never set: the module names a way to pause, which is all the shim can see
            await maf.get_run_context().request_info({"question": "?"}, response_type=str)
        make = arguments[str(settings["arg"])]
        if settings["shape"] == "nested":
            for index in range(int(settings["steps"]) // 2):
                await calls_trivial(make(index))
        else:
            for index in range(int(settings["steps"])):
                await trivial(make(index))
        return int(settings["steps"])

    return many_steps_pausable
