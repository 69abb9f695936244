"""A pause from another module than the workflow's (test_replay_resumability: the shim cannot see it coming)."""

from __future__ import annotations

import agent_framework as maf


async def ask(question: str) -> str:
    return await maf.get_run_context().request_info({"question": question}, response_type=str)
