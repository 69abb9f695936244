"""The agent loop: ask the model, dispatch its tool calls by name, feed the results back."""
from __future__ import annotations

import asyncio
import inspect
from typing import Any

from r8c_tools.fake_model import FakeModel
from r8c_tools.toolbox import TOOLS, Toolbox, ToolSpec


async def invoke(spec: ToolSpec, args: dict[str, Any]) -> str:
    result = spec.fn(**args)
    if inspect.isawaitable(result):
        result = await result
    return str(result)


async def run_agent(model: FakeModel, prompt: str, toolbox: Toolbox = TOOLS, max_turns: int = 4) -> str:
    messages = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        reply = model.respond(messages)
        if reply and "final" in reply[0]:
            return reply[0]["final"]
        for call in reply:
            observation = await invoke(toolbox.get_tool(call["tool"]), call["args"])
            messages.append({"role": "tool", "content": observation})
    return messages[-1]["content"]


async def run_parallel(model: FakeModel, prompt: str, toolbox: Toolbox = TOOLS) -> list[str]:
    reply = model.respond([{"role": "user", "content": prompt}])
    calls = [call for call in reply if "tool" in call]
    return list(await asyncio.gather(*[invoke(toolbox[call["tool"]], call["args"]) for call in calls]))
